package io.loopx.runtime.internal.identity;

import io.loopx.api.json.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Finds the code source of a class on a code path without loading it, and identifies it. */
final class CodeSources {
  private CodeSources() {}

  /** A class directory or a jar that holds a class. */
  record CodeSource(Path location, boolean jar) {
    String kind() {
      return jar ? "jar" : "class_directory";
    }
  }

  /** Returns the first entry of {@code codePath} that holds {@code className}'s class file. */
  static Optional<CodeSource> find(String className, List<Path> codePath) {
    String entryName = className.replace('.', '/') + ".class";
    for (Path entry : codePath) {
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(entry, BasicFileAttributes.class);
      } catch (IOException e) {
        continue; // a missing or unreadable entry holds nothing, as for the JVM
      }
      if (attributes.isDirectory()) {
        Path classFile = entry;
        for (String segment : entryName.split("/", -1)) {
          classFile = classFile.resolve(segment);
        }
        if (Files.isRegularFile(classFile)) {
          return Optional.of(new CodeSource(entry, false));
        }
      } else if (attributes.isRegularFile() && jarContains(entry, entryName)) {
        return Optional.of(new CodeSource(entry, true));
      }
    }
    return Optional.empty();
  }

  /**
   * Returns {@code entry} as a code source: a class directory or a regular file (a jar), links
   * followed; empty when it is neither or does not exist.
   */
  static Optional<CodeSource> at(Path entry) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(entry, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw FileScan.ioFailed(entry, e);
    }
    if (attributes.isDirectory()) {
      return Optional.of(new CodeSource(entry, false));
    }
    return attributes.isRegularFile() ? Optional.of(new CodeSource(entry, true)) : Optional.empty();
  }

  /**
   * Returns whether the jar's manifest has a non-blank {@code Class-Path} attribute, which makes
   * the JVM load more jars than the class path names. A file that is not a zip, or has no manifest,
   * names none.
   */
  static boolean declaresClassPath(Path jar) {
    try {
      Optional<Manifest> manifest;
      if (jar.getFileSystem() == FileSystems.getDefault()) {
        try (JarFile file = new JarFile(jar.toFile(), false)) {
          manifest = Optional.ofNullable(file.getManifest());
        }
      } else {
        manifest = manifestOf(jar);
      }
      String classPath =
          manifest.map(m -> m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH)).orElse("");
      return !classPath.isBlank();
    } catch (ZipException | NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw FileScan.ioFailed(jar, e);
    }
  }

  private static Optional<Manifest> manifestOf(Path jar) throws IOException {
    try (InputStream in = Files.newInputStream(jar);
        ZipInputStream zip = new ZipInputStream(in)) {
      ZipEntry entry;
      while ((entry = zip.getNextEntry()) != null) {
        if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
          return Optional.of(new Manifest(zip));
        }
      }
      return Optional.empty();
    }
  }

  /**
   * Returns the first symbolic link below {@code directory} that leads to a directory: the JVM
   * loads classes through it, but the class directory digest does not descend into it.
   */
  static Optional<Path> linkedDirectory(Path directory) {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(p -> Files.isSymbolicLink(p) && Files.isDirectory(p)).findFirst();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw FileScan.ioFailed(directory, e);
    } catch (UncheckedIOException e) {
      throw FileScan.ioFailed(directory, Objects.requireNonNull(e.getCause(), "cause"));
    }
  }

  /**
   * Returns the code source's identity: the jar's file identity, or the class directory digest.
   * Empty when the code source vanished meanwhile.
   */
  static Optional<String> identify(CodeSource source, Scanner scanner) {
    if (source.jar()) {
      return scanner.scan(source.location(), 0).map(FileScan::digest);
    }
    return classDirectoryDigest(source.location(), scanner);
  }

  /** How a file is scanned: {@link FileScan#tryScan} or through an {@link IdentityCache}. */
  @FunctionalInterface
  interface Scanner {
    Optional<FileScan> scan(Path file, int headBytes);
  }

  static Optional<String> classDirectoryDigest(Path directory) {
    return classDirectoryDigest(directory, FileScan::tryScan);
  }

  static Optional<String> classDirectoryDigest(Path directory, Scanner scanner) {
    ObjectNode files = JsonNodeFactory.instance.objectNode();
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path file : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(file)) {
          Optional<FileScan> scan = scanner.scan(file, 0);
          if (scan.isPresent()) {
            files.put(relativeName(directory, file), scan.get().digest());
          }
        }
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw FileScan.ioFailed(directory, e);
    } catch (UncheckedIOException e) {
      throw FileScan.ioFailed(directory, Objects.requireNonNull(e.getCause(), "cause"));
    }
    ObjectNode record = JsonNodeFactory.instance.objectNode();
    record.put("schema_version", RuntimeIdentity.CLASS_DIRECTORY_SCHEMA_VERSION);
    record.put("kind", "class_directory");
    record.set("files", files);
    return Optional.of(CanonicalJson.sha256Hex(record));
  }

  private static String relativeName(Path directory, Path file) {
    StringBuilder name = new StringBuilder();
    for (Path segment : directory.relativize(file)) {
      if (name.length() > 0) {
        name.append('/');
      }
      name.append(segment);
    }
    return name.toString();
  }

  private static boolean jarContains(Path jar, String entryName) {
    try {
      if (jar.getFileSystem() == FileSystems.getDefault()) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
          ZipEntry entry = zip.getEntry(entryName);
          return entry != null && !entry.isDirectory();
        }
      }
      try (InputStream in = Files.newInputStream(jar);
          ZipInputStream zip = new ZipInputStream(in)) {
        ZipEntry entry;
        while ((entry = zip.getNextEntry()) != null) {
          if (!entry.isDirectory() && entry.getName().equals(entryName)) {
            return true;
          }
        }
        return false;
      }
    } catch (ZipException | NoSuchFileException e) {
      return false; // not a zip (or gone): the JVM cannot load the class from it either
    } catch (IOException e) {
      throw FileScan.ioFailed(jar, e);
    }
  }
}
