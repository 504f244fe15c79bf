package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a file is on disk besides its bytes (docs/threat-model.md, P2): its device and inode, size,
 * modification time and change time, taken together with its hash. A rename over the file changes
 * the inode; an in-place write changes the size or times; a rename back of the original inode still
 * changes its change time. Where the {@code unix} attribute view is missing (an in-memory file
 * system) the file key, size and modification time are used. Links are followed. Immutable value.
 *
 * <p>A {@link LaunchRequestRecord launch request} carries the stamp of the file the kernel must be
 * executing once the provider runs; {@link #sameFileAs} compares it with what runs.
 *
 * @param path the file as named
 * @param key the device and inode ({@code dev:ino}), or the file key
 * @param size the size in bytes
 * @param modified the modification time
 * @param changed the change time ({@code ctime}), empty without the {@code unix} view
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record FileStamp(
    Path path, String key, long size, String modified, Optional<String> changed) {
  /** Rejects nulls. */
  public FileStamp {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(modified, "modified");
    Objects.requireNonNull(changed, "changed");
  }

  /** Reads the stamp of {@code path}; empty when it does not exist. */
  public static Optional<FileStamp> read(Path path) throws IOException {
    try {
      if (path.getFileSystem().supportedFileAttributeViews().contains("unix")) {
        Map<String, Object> a =
            Files.readAttributes(path, "unix:dev,ino,size,lastModifiedTime,ctime");
        return Optional.of(
            new FileStamp(
                path,
                a.get("dev") + ":" + a.get("ino"),
                (Long) Objects.requireNonNull(a.get("size"), "the unix view reads size"),
                String.valueOf(a.get("lastModifiedTime")),
                Optional.of(String.valueOf(a.get("ctime")))));
      }
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
      return Optional.of(
          new FileStamp(
              path,
              String.valueOf(a.fileKey()),
              a.size(),
              a.lastModifiedTime().toString(),
              Optional.empty()));
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Optional.empty();
    }
  }

  /** Whether the file at {@link #path()} still has this stamp (a missing file has not). */
  public boolean unchanged() {
    try {
      return read(path).map(this::equals).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether {@code other} is the same file (device and inode) with the same size and times; the
   * paths may differ (for example {@code /proc/<pid>/exe} and the hashed path).
   */
  public boolean sameFileAs(FileStamp other) {
    return key.equals(other.key)
        && size == other.size
        && modified.equals(other.modified)
        && changed.equals(other.changed);
  }
}
