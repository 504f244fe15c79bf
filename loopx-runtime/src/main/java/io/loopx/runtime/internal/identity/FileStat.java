package io.loopx.runtime.internal.identity;

import io.loopx.runtime.internal.process.FileStamp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * What one {@code stat(2)} of a file (links followed) says about it: device, inode, size, mode
 * (type and permission bits), modification time and change time, both with the precision the file
 * system keeps (nanoseconds on Linux). Immutable value; equality compares times by value.
 *
 * @param dev the device
 * @param ino the inode
 * @param size the size in bytes
 * @param mode {@code st_mode}: file type and permission bits
 * @param modified {@code st_mtime}
 * @param changed {@code st_ctime}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record FileStat(
    long dev, long ino, long size, int mode, FileTime modified, FileTime changed) {
  private static final String ATTRIBUTES = "unix:dev,ino,size,mode,lastModifiedTime,ctime";
  private static final int TYPE_MASK = 0170000;
  private static final int REGULAR = 0100000;
  private static final int ANY_EXECUTE = 0111;

  /** Rejects nulls. */
  public FileStat {
    Objects.requireNonNull(modified, "modified");
    Objects.requireNonNull(changed, "changed");
  }

  /**
   * Stats {@code path} through the {@code unix} attribute view (one system call); empty when it
   * does not exist.
   */
  public static Optional<FileStat> read(Path path) throws IOException {
    Map<String, Object> a;
    try {
      a = Files.readAttributes(path, ATTRIBUTES);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Optional.empty();
    }
    return Optional.of(
        new FileStat(
            (Long) Objects.requireNonNull(a.get("dev"), "dev"),
            (Long) Objects.requireNonNull(a.get("ino"), "ino"),
            (Long) Objects.requireNonNull(a.get("size"), "size"),
            (Integer) Objects.requireNonNull(a.get("mode"), "mode"),
            (FileTime) Objects.requireNonNull(a.get("lastModifiedTime"), "lastModifiedTime"),
            (FileTime) Objects.requireNonNull(a.get("ctime"), "ctime")));
  }

  /** Whether this is a regular file. */
  boolean regular() {
    return (mode & TYPE_MASK) == REGULAR;
  }

  /** Whether an execute bit (owner, group or others) is set, as {@link FileIdentity} defines. */
  boolean executable() {
    return (mode & ANY_EXECUTE) != 0;
  }

  /** The {@link FileStamp} of {@code path} that {@link FileStamp#read} gives for these values. */
  FileStamp stamp(Path path) {
    return new FileStamp(
        path,
        dev + ":" + ino,
        size,
        String.valueOf(modified),
        Optional.of(String.valueOf(changed)));
  }

  /**
   * Whether the file's times are older than {@code observedAtNanos - marginNanos} (git's racy
   * rule): only then can a later change not leave every one of these values as it was.
   */
  public boolean settledBefore(long observedAtNanos, long marginNanos) {
    long limit = observedAtNanos - marginNanos;
    return exactNanos(modified).map(m -> m < limit).orElse(false)
        && exactNanos(changed).map(c -> c < limit).orElse(false);
  }

  /** {@code time} in nanoseconds since the epoch, empty when that is out of range. */
  static Optional<Long> exactNanos(FileTime time) {
    long nanos = time.to(TimeUnit.NANOSECONDS);
    return FileTime.from(nanos, TimeUnit.NANOSECONDS).equals(time)
        ? Optional.of(nanos)
        : Optional.empty();
  }
}
