package io.loopx.runtime.internal.identity;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.process.FileStamp;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One streaming pass over a regular file: its {@link FileIdentity} and, optionally, its first bytes
 * (for the shebang), taken from the same read so both describe the same content.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileScan {
  private static final int BUFFER = 64 * 1024;

  private final FileIdentity identity;
  private final byte[] head;
  private final FileStamp stamp;
  private volatile @Nullable String digest;

  private FileScan(FileIdentity identity, byte[] head, FileStamp stamp, @Nullable String digest) {
    this.identity = identity;
    this.head = head;
    this.stamp = stamp;
    this.digest = digest;
  }

  /** A scan served by the {@link IdentityCache}: its stored identity, head and digest. */
  static FileScan cached(FileIdentity identity, byte[] head, FileStamp stamp, String digest) {
    return new FileScan(identity, head, stamp, digest);
  }

  FileIdentity identity() {
    return identity;
  }

  /** The {@link FileIdentity#digest() digest} of the identity, computed once. */
  String digest() {
    String d = digest;
    if (d == null) {
      d = identity.digest();
      digest = d;
    }
    return d;
  }

  /** This scan with at most its first {@code headBytes} bytes of head. */
  FileScan withHeadOf(int headBytes) {
    return head.length <= headBytes
        ? this
        : new FileScan(identity, Arrays.copyOf(head, headBytes), stamp, digest);
  }

  /** The head as read, not copied (callers must not modify it). */
  byte[] headUnsafe() {
    return head;
  }

  /** The file's stamp, taken right before its bytes were read. */
  FileStamp stamp() {
    return stamp;
  }

  /** Returns a copy of the first bytes that were requested (fewer if the file is shorter). */
  byte[] head() {
    return head.clone();
  }

  /** Scans {@code file}; a missing file or non-regular file is an {@code IO_FAILED} error. */
  static FileScan scan(Path file, int headBytes) {
    return tryScan(file, headBytes)
        .orElseThrow(
            () ->
                new LoopxException(
                    ErrorKind.IO_FAILED,
                    "runtime file `" + file + "` does not exist or is not a regular file"));
  }

  /**
   * Scans {@code file}, following symbolic links; empty when it does not exist or is not a regular
   * file (a directory, FIFO, device, ...), which is checked before the file is opened.
   *
   * @throws LoopxException of kind {@code IO_FAILED} for any other I/O failure
   */
  static Optional<FileScan> tryScan(Path file, int headBytes) {
    Optional<Boolean> executable = regularFileExecutable(file);
    if (executable.isEmpty()) {
      return Optional.empty();
    }
    Optional<FileStamp> stamp;
    try {
      stamp = FileStamp.read(file);
    } catch (IOException e) {
      throw ioFailed(file, e);
    }
    if (stamp.isEmpty()) {
      return Optional.empty();
    }
    MessageDigest sha256 = sha256();
    byte[] head = new byte[headBytes];
    int headLength = 0;
    long size = 0;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[BUFFER];
      int n;
      while ((n = in.read(buffer)) > 0) {
        if (headLength < headBytes) {
          int take = Math.min(n, headBytes - headLength);
          System.arraycopy(buffer, 0, head, headLength, take);
          headLength += take;
        }
        sha256.update(buffer, 0, n);
        size += n;
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw ioFailed(file, e);
    }
    FileIdentity identity =
        new FileIdentity(executable.get(), size, HexFormat.of().formatHex(sha256.digest()));
    return Optional.of(new FileScan(identity, Arrays.copyOf(head, headLength), stamp.get(), null));
  }

  /**
   * Returns whether {@code file} (links followed) is executable, or empty when it is missing or not
   * a regular file.
   */
  static Optional<Boolean> regularFileExecutable(Path file) {
    try {
      if (Files.getFileAttributeView(file, PosixFileAttributeView.class) != null) {
        PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class);
        if (!attributes.isRegularFile()) {
          return Optional.empty();
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        return Optional.of(
            permissions.contains(PosixFilePermission.OWNER_EXECUTE)
                || permissions.contains(PosixFilePermission.GROUP_EXECUTE)
                || permissions.contains(PosixFilePermission.OTHERS_EXECUTE));
      }
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return attributes.isRegularFile() ? Optional.of(Files.isExecutable(file)) : Optional.empty();
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw ioFailed(file, e);
    }
  }

  /**
   * Returns whether {@code file} is a regular file with an execute bit, never throwing: an
   * unreadable candidate during a search does not match.
   */
  static boolean isRegularExecutable(Path file) {
    try {
      return regularFileExecutable(file).orElse(false);
    } catch (LoopxException e) {
      return false;
    }
  }

  public static LoopxException ioFailed(Path file, IOException e) {
    return new LoopxException(
        ErrorKind.IO_FAILED, "cannot read runtime file `" + file + "`: " + e.getMessage(), e);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
