package io.loopx.runtime.internal.identity;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.process.FileStamp;
import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Java main class half of {@link RuntimeResolver}: finds the class, without loading it, as
 * {@code com/example/Main.class} in the directories and jars of the {@linkplain
 * RuntimeEnvironment#codePath() code path} (the first holding it is the code source) or of its own
 * {@code java_class_path}, checks the {@code java} executable, and identifies every file it read.
 * One instance per resolution; files are scanned through the resolver's {@link
 * CodeSources.Scanner}.
 */
final class JavaMainResolver {
  private final RuntimeEnvironment environment;
  private final CodeSources.Scanner scanner;

  JavaMainResolver(RuntimeEnvironment environment, CodeSources.Scanner scanner) {
    this.environment = environment;
    this.scanner = scanner;
  }

  /**
   * Resolves a Java main class: on the host's code path, or on its own {@code java_class_path}
   * against {@code manifestDirectory} (the candidate's directory, or the saved one).
   */
  RuntimeResolution resolve(LaunchTarget.JavaMain target, Optional<Path> manifestDirectory) {
    Path javaExecutable = environment.javaExecutable();
    Optional<FileScan> java = scanner.scan(javaExecutable, 0);
    if (java.isEmpty()) {
      return RuntimeResolver.missing(
          "java executable `" + javaExecutable + "` is not a regular file",
          EntrypointLookup.ofPath(javaExecutable.toString()));
    }
    if (!target.usesHostCodePath()) {
      return resolveClassPath(target, manifestDirectory, java.get());
    }
    String className = target.className();
    Optional<CodeSources.CodeSource> source = CodeSources.find(className, environment.codePath());
    if (source.isEmpty()) {
      return RuntimeResolver.missing(
          "class `" + className + "` was not found on the code path",
          new EntrypointLookup(className, joined(environment.codePath())));
    }
    Optional<Identified> identified = identify(source.get());
    if (identified.isEmpty()) {
      return RuntimeResolver.missing(
          "code source `" + source.get().location() + "` of class `" + className + "` vanished",
          new EntrypointLookup(className, joined(environment.codePath())));
    }
    String javaDigest = java.get().digest();
    String kind = source.get().kind();
    String codeDigest = identified.get().digest();
    RuntimeIdentity.Recorded recorded =
        RuntimeIdentity.recorded(
            String.join("\0", "java_main", javaDigest, className, kind, codeDigest),
            () -> RuntimeIdentity.javaMainRecord(javaDigest, className, kind, codeDigest));
    return new RuntimeResolution.Resolved(
        Optional.empty(),
        List.of(javaExecutable.toString(), "-cp", joined(environment.codePath()), className),
        recorded.identity(),
        recorded.text(),
        List.of(java.get().stamp(), identified.get().stamp()));
  }

  /**
   * Resolves a {@code java_class_path} runtime: every entry, made absolute against the manifest
   * directory ({@code .} segments dropped), must be a jar or a class directory; a jar must not name
   * more jars in its manifest's {@code Class-Path} and a class directory must not hold a link to a
   * directory (the JVM would load from them unidentified); the class must be in one of them. Every
   * entry, in order, joins the identity; the child's class path is exactly these entries, and the
   * manifest directory is what install saves.
   */
  private RuntimeResolution resolveClassPath(
      LaunchTarget.JavaMain target, Optional<Path> manifestDirectory, FileScan java) {
    String className = target.className();
    String declared = String.join(File.pathSeparator, target.classPath());
    if (manifestDirectory.isEmpty() || !manifestDirectory.get().isAbsolute()) {
      return RuntimeResolver.missing(
          "java_class_path of class `" + className + "` has no saved absolute manifest directory",
          new EntrypointLookup(className, declared));
    }
    Path base = manifestDirectory.get();
    List<Path> entries = new ArrayList<>();
    for (String entry : target.classPath()) {
      Path path;
      try {
        path = ProgramLocator.withoutDotSegments(base.resolve(base.getFileSystem().getPath(entry)));
      } catch (InvalidPathException e) {
        return RuntimeResolver.missing(
            "java_class_path entry `" + entry + "` is not a valid path",
            new EntrypointLookup(className, declared));
      }
      entries.add(path);
    }
    String classPath = joined(entries);
    List<ObjectNode> sources = new ArrayList<>();
    List<FileStamp> stamps = new ArrayList<>();
    stamps.add(java.stamp());
    for (Path entry : entries) {
      Optional<CodeSources.CodeSource> source = CodeSources.at(entry);
      if (source.isEmpty()) {
        return RuntimeResolver.missing(
            "java_class_path entry `" + entry + "` is not a jar or a class directory",
            EntrypointLookup.ofPath(entry.toString()));
      }
      Optional<Identified> identified = identify(source.get());
      if (identified.isEmpty()) {
        return RuntimeResolver.missing(
            "java_class_path entry `" + entry + "` vanished",
            EntrypointLookup.ofPath(entry.toString()));
      }
      // Checked after hashing: a later change shows in the stamps compared after every run.
      if (source.get().jar() && CodeSources.declaresClassPath(entry)) {
        return new RuntimeResolution.Unsupported(
            "java_class_path entry `"
                + entry
                + "` is unsupported: its manifest names more jars in `Class-Path`");
      }
      Optional<Path> link =
          source.get().jar() ? Optional.empty() : CodeSources.linkedDirectory(entry);
      if (link.isPresent()) {
        return new RuntimeResolution.Unsupported(
            "java_class_path entry `"
                + entry
                + "` is unsupported: it holds a link to a directory (`"
                + link.get()
                + "`), whose files are not identified");
      }
      sources.add(RuntimeIdentity.codeSource(source.get().kind(), identified.get().digest()));
      stamps.add(identified.get().stamp());
    }
    if (CodeSources.find(className, entries).isEmpty()) {
      return RuntimeResolver.missing(
          "class `" + className + "` was not found on the java_class_path",
          new EntrypointLookup(className, classPath));
    }
    return resolved(
        Optional.of(base),
        List.of(environment.javaExecutable().toString(), "-cp", classPath, className),
        RuntimeIdentity.javaClassPathRecord(java.digest(), className, sources),
        stamps);
  }

  /** A code source's identity and its stamp, taken before it was read. */
  private record Identified(String digest, FileStamp stamp) {}

  private Optional<Identified> identify(CodeSources.CodeSource source) {
    Optional<FileStamp> stamp;
    try {
      stamp = FileStamp.read(source.location());
    } catch (java.io.IOException e) {
      throw FileScan.ioFailed(source.location(), e);
    }
    Optional<String> digest = CodeSources.identify(source, scanner);
    return digest.isEmpty() || stamp.isEmpty()
        ? Optional.empty()
        : Optional.of(new Identified(digest.get(), stamp.get()));
  }

  private static RuntimeResolution resolved(
      Optional<Path> savedPath,
      List<String> commandPrefix,
      ObjectNode record,
      List<FileStamp> stamps) {
    RuntimeIdentity.Recorded recorded = RuntimeIdentity.recorded(record);
    return new RuntimeResolution.Resolved(
        savedPath, commandPrefix, recorded.identity(), recorded.text(), stamps);
  }

  private static String joined(List<Path> codePath) {
    return codePath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }
}
