package io.loopx.buildchecks;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One published library module of the reactor, located relative to the working directory of the
 * build-checks tests (the {@code build-checks/} directory, so siblings are {@code ../<module>}).
 *
 * @param artifactId the Maven artifact id, which is also the module's directory name
 * @param moduleName the JPMS module name declared in its {@code module-info.java}
 */
record LibraryModule(String artifactId, String moduleName) {

  /** The library modules whose exported packages are public API. */
  static final List<LibraryModule> ALL =
      List.of(
          new LibraryModule("loopx-api", "io.loopx.api"),
          new LibraryModule("loopx-registry", "io.loopx.registry"),
          new LibraryModule("loopx-runtime", "io.loopx.runtime"),
          new LibraryModule("loopx-testkit", "io.loopx.testkit"),
          new LibraryModule("loopx-scaffold", "io.loopx.scaffold"),
          new LibraryModule("loopx-store-postgresql", "io.loopx.store.postgresql"),
          new LibraryModule("loopx-micrometer", "io.loopx.micrometer"),
          new LibraryModule("loopx-opentelemetry", "io.loopx.opentelemetry"));

  /** Returns the library module with the given artifact id. */
  static LibraryModule named(String artifactId) {
    return ALL.stream()
        .filter(m -> m.artifactId().equals(artifactId))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a library module: " + artifactId));
  }

  /** Returns the module's directory, {@code ../<artifactId>}. */
  Path directory() {
    return Path.of("..", artifactId).normalize();
  }

  /** Returns the module's compiled classes directory, {@code ../<artifactId>/target/classes}. */
  Path classesDirectory() {
    return directory().resolve("target").resolve("classes");
  }

  /** Returns the checked-in API signature file, {@code ../<artifactId>/api/<artifactId>.txt}. */
  Path signatureFile() {
    return directory().resolve("api").resolve(artifactId + ".txt");
  }

  /**
   * Reads the module descriptor from the compiled {@code module-info.class}.
   *
   * @throws IllegalStateException if the module has not been compiled or declares another name
   */
  ModuleDescriptor descriptor() {
    Path classes = classesDirectory();
    if (!Files.isRegularFile(classes.resolve("module-info.class"))) {
      throw new IllegalStateException(
          "no compiled module-info.class in "
              + classes.toAbsolutePath()
              + "; build the library modules first (mvn verify -pl build-checks -am)");
    }
    ModuleDescriptor descriptor =
        ModuleFinder.of(classes).findAll().stream()
            .map(ModuleReference::descriptor)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no module found in " + classes));
    if (!descriptor.name().equals(moduleName)) {
      throw new IllegalStateException(
          artifactId + " declares module " + descriptor.name() + ", expected " + moduleName);
    }
    return descriptor;
  }

  /** Returns the packages this module exports to everyone (unqualified exports), sorted. */
  List<String> exportedPackages() {
    return descriptor().exports().stream()
        .filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source)
        .sorted()
        .collect(Collectors.toList());
  }

  /**
   * Returns the packages this module exports only {@code to} named modules (qualified exports),
   * sorted: internals shared between LoopX modules, not API.
   */
  List<String> qualifiedExportedPackages() {
    return descriptor().exports().stream()
        .filter(ModuleDescriptor.Exports::isQualified)
        .map(ModuleDescriptor.Exports::source)
        .sorted()
        .collect(Collectors.toList());
  }

  /** Returns all exported packages of all library modules. */
  static Set<String> allExportedPackages() {
    return ALL.stream()
        .flatMap(m -> m.exportedPackages().stream())
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Returns the binary names of the classes compiled into one package of this module, sorted. The
   * names come from the {@code *.class} files directly in the package directory (not subpackages),
   * so nested and non-public classes are included; callers filter by accessibility.
   */
  List<String> classNamesIn(String packageName) {
    Path dir = classesDirectory().resolve(packageName.replace('.', '/'));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".class"))
          .map(n -> n.substring(0, n.length() - ".class".length()))
          .filter(n -> !n.equals("package-info") && !n.equals("module-info"))
          .map(n -> packageName + "." + n)
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + dir, e);
    }
  }
}
