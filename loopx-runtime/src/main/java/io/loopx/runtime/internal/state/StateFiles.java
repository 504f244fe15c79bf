package io.loopx.runtime.internal.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** File-system helpers of the state store: type checks, private modes, fsync (package-private). */
final class StateFiles {
  /** A state file larger than this is refused as unreadable rather than read into memory. */
  static final long MAX_STATE_BYTES = 64L * 1024 * 1024;

  private StateFiles() {}

  /**
   * Reads a private regular file (see {@link PrivatePaths}) without following symlinks; empty when
   * it does not exist.
   */
  static Optional<byte[]> readIfPresent(Path path, PrivatePaths rule) throws IOException {
    if (!rule.fileOrAbsent(path)) {
      return Optional.empty();
    }
    try (InputStream in =
        Files.newInputStream(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      byte[] bytes = in.readNBytes((int) MAX_STATE_BYTES + 1);
      if (bytes.length > MAX_STATE_BYTES) {
        throw new LoopxException(
            ErrorKind.STATE_UNREADABLE,
            "extension runtime state is unreadable: larger than " + MAX_STATE_BYTES + " bytes");
      }
      return Optional.of(bytes);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  static FileAttribute<?>[] privateFileAttributes(Path path) {
    return posix(path)
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
        }
        : new FileAttribute<?>[0];
  }

  /**
   * Creates {@code dir} and missing parents with mode 0700 (where POSIX modes exist), then makes
   * the new entries durable: the directory that holds each created one is fsynced, so a state file
   * written next cannot be lost with a directory entry that was never on disk. Returns those
   * directories, deepest first; empty when {@code dir} existed.
   */
  static List<Path> createPrivateDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return List.of();
    }
    Path absolute = dir.toAbsolutePath().normalize();
    List<Path> missing = new ArrayList<>();
    for (Path p = absolute; p.getParent() != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.add(p);
    }
    if (posix(dir)) {
      Files.createDirectories(
          absolute,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(absolute);
    }
    List<Path> synced = new ArrayList<>();
    for (Path created : missing) {
      // only paths with a parent were collected above
      Path parent = Objects.requireNonNull(created.getParent(), "parent");
      syncDirectory(parent);
      synced.add(parent);
    }
    return List.copyOf(synced);
  }

  /** Forces a directory's entries to disk where the file system supports it (the default one). */
  static void syncDirectory(Path dir) throws IOException {
    if (dir.getFileSystem() != FileSystems.getDefault()) {
      return; // e.g. Jimfs: no directory channels, and nothing to make durable
    }
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private static boolean posix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
