package io.loopx.runtime.internal.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.identity.FileStat;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The StrictModes rule of the state directory (package-private): the directory that holds the state
 * file and every file LoopX keeps there are refused with {@code STATE_UNREADABLE}, naming the path
 * and the reason, when they are symbolic links, not owned by the effective user, or group- or
 * world-writable. Attributes are read without following links.
 *
 * <p>Where the file system has no POSIX attribute view (Windows, Jimfs without {@code "posix"})
 * only the symbolic-link and file-type checks apply. The owner check needs the effective user: on
 * the default file system it is the owner of {@code /proc/self} where that exists (Linux), else the
 * user named by {@code user.name}; on any other file system (Jimfs) there is no effective user and
 * the owner check is skipped unless a test names one.
 *
 * @param owner the expected owner; empty skips the owner check
 */
record PrivatePaths(Optional<UserPrincipal> owner, OptionalInt ownerUid) {
  private static final int TYPE_MASK = 0170000;
  private static final int DIRECTORY = 0040000;
  private static final int REGULAR = 0100000;
  private static final int GROUP_OR_WORLD_WRITABLE = 0022;

  /** The checks with {@code owner} expected (empty: no owner check), by principal only. */
  PrivatePaths(Optional<UserPrincipal> owner) {
    this(owner, OptionalInt.empty());
  }

  private static final String RULE =
      " (the state directory and the files LoopX keeps there must be private to the effective"
          + " user: no symbolic link, owned by that user, not group- or world-writable)";

  /**
   * The checks for {@code fileSystem}, with the effective user of this process where it has one.
   */
  static PrivatePaths of(FileSystem fileSystem) {
    return fileSystem == FileSystems.getDefault()
        ? new PrivatePaths(EffectiveUser.VALUE, EffectiveUser.UID)
        : new PrivatePaths(Optional.empty());
  }

  /**
   * The {@link #fileOrAbsent} check and the file's {@code stat} in one {@code lstat} (a private
   * regular file is no link, so its {@code lstat} is its {@code stat}); empty when the quick check
   * cannot decide, the file is absent or fails (the caller then runs the full check).
   */
  Optional<FileStat> privateFileStat(Path file) {
    if (ownerUid.isEmpty() || file.getFileSystem() != FileSystems.getDefault()) {
      return Optional.empty();
    }
    Map<String, Object> a;
    try {
      a =
          Files.readAttributes(
              file, "unix:mode,uid,dev,ino,size,lastModifiedTime,ctime", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.empty();
    }
    if (a.get("mode") instanceof Integer mode
        && a.get("uid") instanceof Integer uid
        && a.get("dev") instanceof Long dev
        && a.get("ino") instanceof Long ino
        && a.get("size") instanceof Long size
        && a.get("lastModifiedTime") instanceof FileTime modified
        && a.get("ctime") instanceof FileTime changed
        && (mode & TYPE_MASK) == REGULAR
        && uid == ownerUid.getAsInt()
        && (mode & GROUP_OR_WORLD_WRITABLE) == 0) {
      return Optional.of(new FileStat(dev, ino, size, mode, modified, changed));
    }
    return Optional.empty();
  }

  /**
   * The common case in one {@code lstat} without a user-name lookup: on the default file system,
   * with the effective user's uid known, a path of the expected type owned by that uid and not
   * group- or world-writable passes. Empty when this cannot decide, or when the path fails (the
   * full check then names the reason); {@code false} when the path is absent.
   */
  private Optional<Boolean> quick(Path path, int type) {
    if (ownerUid.isEmpty() || path.getFileSystem() != FileSystems.getDefault()) {
      return Optional.empty();
    }
    Map<String, Object> a;
    try {
      a = Files.readAttributes(path, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.of(false);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.empty();
    }
    if (a.get("mode") instanceof Integer mode
        && a.get("uid") instanceof Integer uid
        && (mode & TYPE_MASK) == type
        && uid == ownerUid.getAsInt()
        && (mode & GROUP_OR_WORLD_WRITABLE) == 0) {
      return Optional.of(true);
    }
    return Optional.empty();
  }

  /**
   * Throws {@code STATE_UNREADABLE} unless {@code dir} is absent or a private directory; returns
   * whether it exists.
   */
  boolean directoryOrAbsent(Path dir) throws IOException {
    Optional<Boolean> quick = quick(dir, DIRECTORY);
    if (quick.isPresent()) {
      return quick.get();
    }
    Optional<BasicFileAttributes> attrs = attributes(dir);
    if (attrs.isEmpty()) {
      return false;
    }
    String what = "extension runtime state directory " + dir;
    if (attrs.get().isSymbolicLink()) {
      throw refused(what, "is a symbolic link");
    }
    if (!attrs.get().isDirectory()) {
      throw refused(what, "is not a directory");
    }
    requireOwnerAndMode(what, attrs.get());
    return true;
  }

  /**
   * Throws {@code STATE_UNREADABLE} unless {@code file} is absent or a private regular file;
   * returns whether it exists.
   */
  boolean fileOrAbsent(Path file) throws IOException {
    Optional<Boolean> quick = quick(file, REGULAR);
    if (quick.isPresent()) {
      return quick.get();
    }
    Optional<BasicFileAttributes> attrs = attributes(file);
    if (attrs.isEmpty()) {
      return false;
    }
    String what = "extension runtime state path " + file;
    if (attrs.get().isSymbolicLink()) {
      throw refused(what, "is a symbolic link");
    }
    if (!attrs.get().isRegularFile()) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          what + " is not a regular file (symlinks, FIFOs and directories are refused)");
    }
    requireOwnerAndMode(what, attrs.get());
    return true;
  }

  private void requireOwnerAndMode(String what, BasicFileAttributes attrs) {
    if (!(attrs instanceof PosixFileAttributes posix)) {
      return;
    }
    if (owner.isPresent() && !owner.get().equals(posix.owner())) {
      throw refused(
          what,
          "is not owned by the effective user (owner "
              + posix.owner().getName()
              + ", effective user "
              + owner.get().getName()
              + ")");
    }
    Set<PosixFilePermission> mode = posix.permissions();
    if (mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refused(what, "is world-writable");
    }
    if (mode.contains(PosixFilePermission.GROUP_WRITE)) {
      throw refused(what, "is group-writable");
    }
  }

  private static Optional<BasicFileAttributes> attributes(Path path) throws IOException {
    Class<? extends BasicFileAttributes> type =
        path.getFileSystem().supportedFileAttributeViews().contains("posix")
            ? PosixFileAttributes.class
            : BasicFileAttributes.class;
    try {
      return Optional.of(Files.readAttributes(path, type, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private static LoopxException refused(String what, String reason) {
    return new LoopxException(ErrorKind.STATE_UNREADABLE, what + " " + reason + RULE);
  }

  /** The effective user of this process on the default file system, looked up once. */
  private static final class EffectiveUser {
    static final Optional<UserPrincipal> VALUE = lookUp();
    static final OptionalInt UID = lookUpUid();

    private EffectiveUser() {}

    /** The uid of {@link #VALUE} where {@code /proc/self} tells it (Linux), else empty. */
    private static OptionalInt lookUpUid() {
      FileSystem fs = FileSystems.getDefault();
      if (VALUE.isEmpty() || !fs.supportedFileAttributeViews().contains("unix")) {
        return OptionalInt.empty();
      }
      try {
        Path self = fs.getPath("/proc/self");
        if (Files.isDirectory(self)
            && Files.getAttribute(self, "unix:uid") instanceof Integer uid
            && VALUE.get().equals(Files.getOwner(self))) {
          return OptionalInt.of(uid);
        }
        return OptionalInt.empty();
      } catch (IOException | UnsupportedOperationException | SecurityException e) {
        return OptionalInt.empty();
      }
    }

    private static Optional<UserPrincipal> lookUp() {
      FileSystem fs = FileSystems.getDefault();
      if (!fs.supportedFileAttributeViews().contains("posix")) {
        return Optional.empty();
      }
      try {
        Path self = fs.getPath("/proc/self");
        if (Files.isDirectory(self)) {
          // Linux: /proc/<pid> is owned by the process's effective user.
          return Optional.of(Files.getOwner(self));
        }
        String name = System.getProperty("user.name");
        return name == null
            ? Optional.empty()
            : Optional.of(fs.getUserPrincipalLookupService().lookupPrincipalByName(name));
      } catch (IOException | UnsupportedOperationException | SecurityException e) {
        return Optional.empty();
      }
    }
  }
}
