package io.loopx.runtime.internal.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.identity.FileStat;
import io.loopx.runtime.internal.identity.IdentityCache;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * The file-backed {@link ActivationStore} for {@code <runtime-root>/extensions/state.json}.
 *
 * <p>Reads never create anything. Writes go to an exclusively created temp file in the same
 * directory ({@code .state.json.tmp.*}, mode 0600), which is fsynced, atomically renamed over the
 * state file, after which the directory is fsynced. Leftover temp files are ignored by reads and
 * removed by the next write. Mutations hold an exclusive lock on {@code <state file>.lock} (in-JVM
 * lock plus an OS advisory lock), waited for at most {@link #DEFAULT_LOCK_TIMEOUT}. A symlink, FIFO
 * or other non-regular file at the state or lock path is refused without being followed.
 *
 * <p>The state directory (created with mode 0700) and the state, lock and temp files (created with
 * mode 0600) must be private, in the manner of OpenSSH's StrictModes: every read and every write
 * refuses them with {@code STATE_UNREADABLE}, before touching anything, when one is a symbolic
 * link, is not owned by the effective user or is group- or world-writable. The directories above
 * the state directory (the runtime root) may be symbolic links. Without POSIX attributes only the
 * link and type checks apply; see docs/contract/state.md.
 *
 * <p>Every read checks the directory and the file and stats the file. Decoding (which re-validates
 * every stored manifest and its revision hash) is a pure function of the bytes, so the last decoded
 * bytes and their state are kept: a read of exactly the same bytes returns the same immutable state
 * without decoding again. On the default file system (with real change times) the whole file is
 * read again only when its {@code stat} (device, inode, size, mode, modification and change time)
 * differs from the one it had when those bytes were read, or was then within the identity cache's
 * racy window ({@link IdentityCache#RACY_MARGIN}); every write renames a new file over it, so any
 * write by any process changes the inode or the change time.
 *
 * <p>The cost of a read or write with many installed extensions follows what changed, not what is
 * stored ({@link StateEntries}): each entry's bytes in the file are kept with its record. When the
 * file changed, its bytes are parsed again as strict JSON and the top level checked, and only the
 * entries whose bytes differ are decoded (with every check) again. A write encodes only the entries
 * whose record changed and copies the encoded bytes of the others; the file is byte-identical to
 * {@link io.loopx.runtime.state.StateFormat#encode} of the new state.
 *
 * <p>Thread-safe, and immutable apart from that cache; works on any {@link
 * java.nio.file.FileSystem} (on Jimfs, OS locks exclude nothing and directory fsync is skipped).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileActivationStore implements ActivationStore {
  /** The bounded wait for the state lock. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);

  private static final String TEMP_PREFIX = ".state.json.tmp.";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path stateFile;
  private final Path lockFile;
  private final Duration lockTimeout;
  private final Consumer<WriteStep> observer;
  private final PrivatePaths rule;
  private final AtomicReference<Decoded> lastDecoded = new AtomicReference<>(Decoded.NONE);

  /**
   * State file bytes and what they decode to, and, when they were read from a file whose {@code
   * stat} was the same before and after the read and settled, that stat.
   */
  private record Decoded(
      byte[] bytes,
      ActivationState state,
      Optional<FileStat> stat,
      Map<String, StateEntries.Item> items) {
    static final Decoded NONE =
        new Decoded(new byte[0], ActivationState.EMPTY, Optional.empty(), Map.of());
  }

  private static final boolean UNIX_VIEW =
      FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

  private FileActivationStore(
      Path stateFile, Duration lockTimeout, Consumer<WriteStep> observer, PrivatePaths rule) {
    this.stateFile = stateFile.toAbsolutePath().normalize();
    this.lockFile = this.stateFile.resolveSibling(this.stateFile.getFileName() + ".lock");
    this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
    this.observer = observer;
    this.rule = rule;
  }

  /**
   * Returns the store of the state file {@code stateFile} (lock at {@code stateFile + ".lock"}).
   */
  public static FileActivationStore at(Path stateFile) {
    return new FileActivationStore(
        stateFile, DEFAULT_LOCK_TIMEOUT, step -> {}, PrivatePaths.of(stateFile.getFileSystem()));
  }

  /** Returns the store of {@code <runtimeRoot>/extensions/state.json}. */
  public static FileActivationStore inRuntimeRoot(Path runtimeRoot) {
    return at(runtimeRoot.resolve("extensions").resolve("state.json"));
  }

  /** Returns a copy that waits at most {@code timeout} for the lock. */
  public FileActivationStore withLockTimeout(Duration timeout) {
    return new FileActivationStore(stateFile, timeout, observer, rule);
  }

  /** Test hook: a copy that reports each durability step of a write to {@code observer}. */
  FileActivationStore withObserver(Consumer<WriteStep> observer) {
    return new FileActivationStore(stateFile, lockTimeout, observer, rule);
  }

  /**
   * Test hook: a copy that expects {@code owner} to own the state directory and its files (on a
   * file system without an effective user, such as Jimfs, the owner check is otherwise skipped).
   */
  FileActivationStore withOwner(UserPrincipal owner) {
    return new FileActivationStore(
        stateFile, lockTimeout, observer, new PrivatePaths(Optional.of(owner)));
  }

  /** Returns the absolute state file path. */
  public Path stateFile() {
    return stateFile;
  }

  /** Returns the absolute lock file path. */
  public Path lockFile() {
    return lockFile;
  }

  @Override
  public ActivationState read() {
    try {
      boolean statKeyed = UNIX_VIEW && stateFile.getFileSystem() == FileSystems.getDefault();
      if (statKeyed) {
        // The hot path (every dispatch reads the state): one lstat. The same private file with the
        // same settled stat as the last decode has the bytes that decode checked, whatever became
        // of its directory since; any other answer takes the full path below.
        Optional<FileStat> quick = rule.privateFileStat(stateFile);
        Decoded last = Objects.requireNonNull(lastDecoded.get(), "lastDecoded"); // never null
        if (quick.isPresent() && last.stat().equals(quick)) {
          return last.state();
        }
      }
      if (!rule.directoryOrAbsent(stateDirectory())) {
        return ActivationState.EMPTY;
      }
      if (!statKeyed) {
        Optional<byte[]> bytes = StateFiles.readIfPresent(stateFile, rule);
        return bytes.isEmpty() ? ActivationState.EMPTY : decode(bytes.get(), Optional.empty());
      }
      // The identity cache's rule (docs/contract/state.md, reading): unchanged and settled
      // stat, same bytes, without reading them again.
      long observedAt = IdentityCache.nanos(Instant.now());
      Optional<FileStat> before = rule.privateFileStat(stateFile); // the check and stat, one lstat
      if (before.isEmpty()) {
        if (!rule.fileOrAbsent(stateFile)) {
          return ActivationState.EMPTY;
        }
        before = FileStat.read(stateFile);
      }
      Decoded last = Objects.requireNonNull(lastDecoded.get(), "lastDecoded"); // never null
      if (before.isPresent() && last.stat().equals(before)) {
        return last.state();
      }
      Optional<byte[]> bytes = StateFiles.readIfPresent(stateFile, rule);
      if (bytes.isEmpty()) {
        return ActivationState.EMPTY;
      }
      Optional<FileStat> after = FileStat.read(stateFile);
      boolean settled =
          before.isPresent()
              && after.equals(before)
              && after.get().size() == bytes.get().length
              && after.get().settledBefore(observedAt, IdentityCache.RACY_MARGIN.toNanos());
      return decode(bytes.get(), settled ? after : Optional.empty());
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE, "extension runtime state is unreadable: " + e, e);
    }
  }

  private ActivationState decode(byte[] bytes, Optional<FileStat> stat) {
    Decoded last = Objects.requireNonNull(lastDecoded.get(), "lastDecoded"); // never set to null
    if (last != Decoded.NONE && Arrays.equals(last.bytes(), bytes)) {
      if (!last.stat().equals(stat)) {
        lastDecoded.set(new Decoded(last.bytes(), last.state(), stat, last.items()));
      }
      return last.state();
    }
    // A state decoded in full has its items found only now, when a second read needs them.
    Map<String, StateEntries.Item> items =
        last.items().isEmpty() && !last.state().isEmpty()
            ? StateEntries.items(last.bytes(), last.state())
            : last.items();
    StateEntries.Entries decoded =
        StateEntries.decode(bytes, new StateEntries.Entries(last.state(), items), last.bytes());
    lastDecoded.set(new Decoded(bytes, decoded.state(), stat, decoded.items()));
    return decoded.state();
  }

  @Override
  public ActivationState update(String operation, List<EntryChange> changes) {
    List<EntryChange> effective = changes.stream().filter(EntryChange::changes).toList();
    if (effective.isEmpty()) {
      return read();
    }
    try {
      if (!rule.directoryOrAbsent(stateDirectory())) {
        StateFiles.createPrivateDirectories(stateDirectory());
        rule.directoryOrAbsent(stateDirectory());
      }
      rule.fileOrAbsent(stateFile); // refused before the lock file is created
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.IO_FAILED, "cannot create the state directory " + stateFile.getParent(), e);
    }
    try (StateLock lock = StateLock.acquire(lockFile, lockTimeout, rule)) {
      ActivationState current = read();
      ActivationState next = current;
      for (EntryChange change : effective) {
        if (!current.get(change.id()).equals(change.expected())) {
          throw new LoopxException(
              ErrorKind.STATE_CONFLICT, "extension state changed during " + operation + "; retry");
        }
        next = next.with(change.id(), change.replacement());
      }
      StateEntries.Encoded encoded =
          StateEntries.encode(
              next, Objects.requireNonNull(lastDecoded.get(), "lastDecoded").items());
      write(encoded.bytes());
      lastDecoded.set(new Decoded(encoded.bytes(), next, Optional.empty(), encoded.items()));
      return next;
    }
  }

  /** The directory of the state file: an absolute file path always has one. */
  private Path stateDirectory() {
    return Objects.requireNonNull(stateFile.getParent(), "state directory");
  }

  private void write(byte[] bytes) {
    Path dir = stateDirectory();
    removeLeftoverTemps(dir);
    Path temp = dir.resolve(TEMP_PREFIX + HexFormat.of().formatHex(randomBytes()));
    try {
      try (FileChannel channel =
          FileChannel.open(
              temp,
              Set.of(
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.WRITE,
                  LinkOption.NOFOLLOW_LINKS),
              StateFiles.privateFileAttributes(temp))) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        observer.accept(WriteStep.TEMP_WRITTEN);
        channel.force(true);
        observer.accept(WriteStep.TEMP_FSYNCED);
      }
      rule.fileOrAbsent(temp);
      rule.fileOrAbsent(stateFile);
      Files.move(temp, stateFile, StandardCopyOption.ATOMIC_MOVE);
      observer.accept(WriteStep.RENAMED);
      StateFiles.syncDirectory(dir);
      observer.accept(WriteStep.DIRECTORY_FSYNCED);
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new LoopxException(
          ErrorKind.IO_FAILED, "cannot write extension runtime state " + stateFile + ": " + e, e);
    } catch (RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return b;
  }

  private static void removeLeftoverTemps(Path dir) {
    // A name filter, not a glob: a glob is compiled to a regular expression on every call.
    try (DirectoryStream<Path> temps =
        Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(TEMP_PREFIX))) {
      for (Path t : temps) {
        deleteQuietly(t);
      }
    } catch (IOException e) {
      // Leftovers are harmless: reads ignore them; try again on the next write.
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort
    }
  }
}
