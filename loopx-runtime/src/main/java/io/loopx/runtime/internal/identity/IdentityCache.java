package io.loopx.runtime.internal.identity;

import io.loopx.runtime.internal.process.FileStamp;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A stat-keyed cache of file identities (docs/contract/state.md, identity cache): a file is hashed
 * again only when one of its device, inode, size, mode, modification time or change time (with
 * nanoseconds) differs from when it was hashed. An entry is only ever made when the file's
 * modification and change times are older than the moment the file was first examined minus {@link
 * #RACY_MARGIN} (git's "racy" rule): a write after that moment gets a change time the kernel takes
 * from its clock, later than the recorded one, so it cannot leave every value as it was, even if it
 * keeps the size and sets the modification time back. A file changed within the margin is hashed on
 * every use until it has been quiet for longer than the margin.
 *
 * <p>Only files on the default file system of a system with the {@code unix} attribute view (real
 * change times) are cached; any other file is hashed every time. Every lookup stats the file; a
 * missing or non-regular file drops its entry.
 *
 * <p>Bound: at most {@link #MAX_ENTRIES} entries; an entry not used for {@link #MAX_IDLE_DAYS} days
 * is dropped, and beyond the bound the least recently used ones are. Thread-safe. Entries are
 * loaded from the {@link IdentityCacheStore} at first use and saved by {@link #flush()} when they
 * changed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class IdentityCache {
  /** A file whose times are this close to (or after) the moment it was examined is not cached. */
  public static final Duration RACY_MARGIN = Duration.ofSeconds(2);

  /** The most entries kept (in memory and on disk). */
  public static final int MAX_ENTRIES = 10_000;

  /** An entry not used for this many days is dropped. */
  public static final int MAX_IDLE_DAYS = 30;

  /** The most first bytes an entry keeps (the shebang limit). */
  public static final int MAX_HEAD_BYTES = Shebang.LIMIT;

  private static final boolean UNIX_VIEW =
      FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
  private static final long NANOS_PER_DAY = Duration.ofDays(1).toNanos();

  /** How a file is stat-ed: the {@code unix} view in production, a simulation in tests. */
  @FunctionalInterface
  interface StatSource {
    Optional<FileStat> stat(Path file) throws IOException;
  }

  /** An entry with what its hits compute once: the identity digest and the file's stamp. */
  private record Slot(
      CachedFile file, FileIdentity identity, @Nullable String digest, @Nullable FileStamp stamp) {
    Slot(CachedFile file, @Nullable String digest, @Nullable FileStamp stamp) {
      this(file, file.identity(), digest, stamp);
    }
  }

  private final Clock clock;
  private final StatSource stats;
  private final boolean anyFileSystem;
  private final IdentityCacheStore store;
  private final ConcurrentHashMap<String, Slot> entries = new ConcurrentHashMap<>();
  private final AtomicBoolean dirty = new AtomicBoolean();
  private final Object lock = new Object();
  private volatile boolean loaded;

  private IdentityCache(
      Clock clock, StatSource stats, boolean anyFileSystem, IdentityCacheStore store) {
    this.clock = clock;
    this.stats = stats;
    this.anyFileSystem = anyFileSystem;
    this.store = store;
  }

  /** A cache kept in memory only. */
  public static IdentityCache inMemory() {
    return persistedIn(IdentityCacheStore.NONE);
  }

  /** A cache loaded from and saved to {@code store}. */
  public static IdentityCache persistedIn(IdentityCacheStore store) {
    return new IdentityCache(Clock.systemUTC(), FileStat::read, false, store);
  }

  /** Test seam: another clock (production: the system clock). */
  static IdentityCache withClock(Clock clock, IdentityCacheStore store) {
    return new IdentityCache(clock, FileStat::read, false, store);
  }

  /** Test seam: simulated stats, which make files of any file system cacheable. */
  static IdentityCache simulated(Clock clock, StatSource stats, IdentityCacheStore store) {
    return new IdentityCache(clock, stats, true, store);
  }

  /**
   * Returns the scan of {@code file} as {@link FileScan#tryScan} would, from the cache when the
   * file has not changed; empty when it is missing or not a regular file.
   *
   * @throws io.loopx.api.LoopxException of kind {@code IO_FAILED} for an I/O failure
   */
  Optional<FileScan> scan(Path file, int headBytes) {
    if (!file.isAbsolute() || !(anyFileSystem || (UNIX_VIEW && isDefault(file)))) {
      return FileScan.tryScan(file, headBytes);
    }
    load();
    long observedAt = nanos(clock.instant());
    String key = file.toString();
    Optional<FileStat> before = stat(file);
    if (before.isEmpty() || !before.get().regular()) {
      forget(key);
      return Optional.empty();
    }
    Slot slot = entries.get(key);
    if (slot != null && slot.file().stat().equals(before.get()) && slot.file().serves(headBytes)) {
      long today = Math.floorDiv(observedAt, NANOS_PER_DAY);
      String digest = slot.digest();
      if (digest == null) {
        digest = slot.identity().digest();
      }
      // The same stat gives the same stamp (its times as text): built once per entry and path.
      FileStamp stamp = slot.stamp();
      if (stamp == null || !stamp.path().equals(file)) {
        stamp = before.get().stamp(file);
      }
      if (slot.file().lastSeenDay() != today || slot.digest() == null || slot.stamp() != stamp) {
        if (slot.file().lastSeenDay() != today) {
          dirty.set(true);
        }
        entries.replace(key, slot, new Slot(slot.file().seenOn(today), digest, stamp));
      }
      return Optional.of(
          FileScan.cached(slot.file().identity(), slot.file().head(headBytes), stamp, digest));
    }
    int head =
        Math.min(MAX_HEAD_BYTES, Math.max(headBytes, slot == null ? 0 : slot.file().head().length));
    Optional<FileScan> scan = FileScan.tryScan(file, Math.max(head, headBytes));
    if (scan.isEmpty()) {
      forget(key);
      return scan;
    }
    remember(key, file, before.get(), scan.get(), observedAt, headBytes > MAX_HEAD_BYTES);
    return Optional.of(scan.get().withHeadOf(headBytes));
  }

  /**
   * Makes an entry when the file's stat after the hash equals its stat before it, agrees with what
   * was hashed, and is settled (older than the racy margin before {@code observedAt}).
   */
  private void remember(
      String key, Path file, FileStat before, FileScan scan, long observedAt, boolean headTooLong) {
    Optional<FileStat> after = stat(file);
    FileIdentity identity = scan.identity();
    if (headTooLong
        || after.isEmpty()
        || !after.get().equals(before)
        || after.get().size() != identity.size()
        || after.get().executable() != identity.executable()
        || !after.get().settledBefore(observedAt, RACY_MARGIN.toNanos())) {
      forget(key); // changed while hashed, or too recent to be trusted: hash it next time too
      return;
    }
    CachedFile entry =
        new CachedFile(
            key,
            after.get(),
            observedAt,
            Math.floorDiv(observedAt, NANOS_PER_DAY),
            identity.contentSha256(),
            scan.headUnsafe());
    entries.put(key, new Slot(entry, scan.digest(), null));
    dirty.set(true);
    if (entries.size() > 2 * MAX_ENTRIES) {
      synchronized (lock) {
        prune(nanos(clock.instant()));
      }
    }
  }

  private void forget(String key) {
    if (entries.remove(key) != null) {
      dirty.set(true);
    }
  }

  private Optional<FileStat> stat(Path file) {
    try {
      return stats.stat(file);
    } catch (IOException e) {
      throw FileScan.ioFailed(file, e);
    }
  }

  /** Saves the entries to the store if they changed since the last save; never throws. */
  public void flush() {
    if (!dirty.get()) {
      return;
    }
    synchronized (lock) {
      if (!dirty.getAndSet(false)) {
        return;
      }
      prune(nanos(clock.instant()));
      List<CachedFile> out = new ArrayList<>(entries.size());
      for (Slot s : entries.values()) {
        out.add(s.file());
      }
      out.sort(Comparator.comparing(CachedFile::path));
      store.save(out);
    }
  }

  /** The number of entries (for tests and diagnostics). */
  public int size() {
    load();
    return entries.size();
  }

  /** Whether {@code file} has an entry (for tests). */
  boolean holds(Path file) {
    load();
    return entries.containsKey(file.toString());
  }

  private void prune(long now) {
    long oldestDay = Math.floorDiv(now, NANOS_PER_DAY) - MAX_IDLE_DAYS;
    entries.values().removeIf(s -> s.file().lastSeenDay() < oldestDay);
    if (entries.size() > MAX_ENTRIES) {
      List<Slot> slots = new ArrayList<>(entries.values());
      slots.sort(
          Comparator.comparingLong((Slot s) -> s.file().lastSeenDay())
              .thenComparingLong(s -> s.file().observedAtNanos())
              .reversed());
      for (Slot s : slots.subList(MAX_ENTRIES, slots.size())) {
        entries.remove(s.file().path(), s);
      }
    }
  }

  private void load() {
    if (loaded) {
      return;
    }
    synchronized (lock) {
      if (loaded) {
        return;
      }
      long now = nanos(clock.instant());
      long today = Math.floorDiv(now, NANOS_PER_DAY);
      for (CachedFile f : store.load()) {
        // Re-checked even from a valid file: settled, not from the future, not too old.
        if (f.stat().settledBefore(f.observedAtNanos(), RACY_MARGIN.toNanos())
            && f.observedAtNanos() <= now + RACY_MARGIN.toNanos()
            && f.lastSeenDay() <= today + 1
            && f.lastSeenDay() >= today - MAX_IDLE_DAYS
            && f.stat().regular()
            && entries.size() < MAX_ENTRIES) {
          entries.putIfAbsent(f.path(), new Slot(f, null, null));
        }
      }
      loaded = true;
    }
  }

  private static boolean isDefault(Path file) {
    return file.getFileSystem() == FileSystems.getDefault();
  }

  /** {@code instant} in nanoseconds since the epoch, saturated. */
  public static long nanos(Instant instant) {
    try {
      return Math.addExact(
          Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    } catch (ArithmeticException e) {
      return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
