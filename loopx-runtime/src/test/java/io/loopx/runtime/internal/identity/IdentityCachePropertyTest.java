package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of file mutations and lookups: a lookup through the cache always returns what a
 * fresh hash returns. The world is Jimfs with a simulated kernel: a clock the test advances, and
 * modification and change times with a coarse one-second granularity (the worst case the racy rule
 * must survive), set by every mutation the way the kernel sets them; "touch back" sets the
 * modification time to an old value and keeps the size.
 */
class IdentityCachePropertyTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  /** The simulated world. */
  private static final class World {
    final FileSystem fs = TestFiles.unixFs();
    final Random random;
    long now = 1_700_000_000L * SECOND;
    final Map<Path, long[]> times = new HashMap<>(); // path -> {mtime, ctime} of the file there
    final Map<Object, long[]> byFile = new HashMap<>(); // file key -> times (moves with renames)
    final IdentityCache cache;

    World(long seed) {
      random = new Random(seed);
      Clock clock =
          new Clock() {
            @Override
            public ZoneId getZone() {
              return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
              return this;
            }

            @Override
            public Instant instant() {
              return Instant.ofEpochSecond(0, now);
            }
          };
      cache = IdentityCache.simulated(clock, this::stat, IdentityCacheStore.NONE);
    }

    long coarseNow() {
      return now - Math.floorMod(now, SECOND);
    }

    Optional<FileStat> stat(Path file) throws IOException {
      if (!Files.exists(file)) {
        return Optional.empty();
      }
      PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class);
      long[] t = byFile.get(a.fileKey());
      int mode = a.isRegularFile() ? 0100000 : 0040000;
      for (PosixFilePermission p : a.permissions()) {
        mode |= 1 << (8 - p.ordinal());
      }
      return Optional.of(
          new FileStat(
              1,
              ((Number) a.fileKey()).longValue(),
              a.size(),
              mode,
              FileTime.from(t == null ? 0 : t[0], TimeUnit.NANOSECONDS),
              FileTime.from(t == null ? 0 : t[1], TimeUnit.NANOSECONDS)));
    }

    Object key(Path file) throws IOException {
      return Files.readAttributes(file, PosixFileAttributes.class).fileKey();
    }

    void touched(Path file, long mtime) throws IOException {
      byFile.put(key(file), new long[] {mtime, coarseNow()});
    }

    byte[] bytes(int size) {
      byte[] b = new byte[size];
      random.nextBytes(b);
      if (size >= 2 && random.nextBoolean()) {
        b[0] = '#';
        b[1] = '!';
      }
      return b;
    }

    void apply(int op, Path file) throws IOException {
      now += random.nextInt(1_500) * 1_000_000L; // 0 to 1.5 s
      boolean exists = Files.exists(file);
      switch (op) {
        case 0 -> { // write, same size when it exists
          int size = exists ? (int) Files.size(file) : 1 + random.nextInt(300);
          Files.write(file, bytes(size));
          touched(file, coarseNow());
        }
        case 1 -> { // write another size
          Files.write(file, bytes(1 + random.nextInt(300)));
          touched(file, coarseNow());
        }
        case 2 -> { // same-size write, then touch the modification time back
          if (exists) {
            long[] old = byFile.get(key(file));
            Files.write(file, bytes((int) Files.size(file)));
            touched(file, old == null ? 0 : old[0]);
          }
        }
        case 3 -> { // chmod
          if (exists) {
            boolean x =
                Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_EXECUTE);
            Files.setPosixFilePermissions(
                file, PosixFilePermissions.fromString(x ? "rw-r--r--" : "rwxr-xr-x"));
            long[] old = byFile.get(key(file));
            touched(file, old == null ? coarseNow() : old[0]);
          }
        }
        case 4 -> { // rename another file over it, keeping size and modification time
          Path other = file.resolveSibling(file.getFileName() + ".new");
          int size = exists ? (int) Files.size(file) : 1 + random.nextInt(300);
          long[] old = exists ? byFile.get(key(file)) : null;
          Files.write(other, bytes(size));
          touched(other, old == null ? coarseNow() : old[0]);
          long[] t = byFile.get(key(other));
          Files.move(other, file, StandardCopyOption.REPLACE_EXISTING);
          t[1] = coarseNow(); // a rename changes the moved inode's change time
        }
        case 5 -> Files.deleteIfExists(file);
        case 6 -> now += 10 * SECOND; // time passes: entries settle
        default -> lookUp(file);
      }
    }

    void lookUp(Path file) {
      int head = random.nextBoolean() ? Shebang.LIMIT : 2;
      Optional<FileScan> viaCache = cache.scan(file, head);
      Optional<FileScan> fresh = FileScan.tryScan(file, head);
      assertThat(viaCache.isPresent()).isEqualTo(fresh.isPresent());
      if (fresh.isPresent()) {
        assertThat(viaCache.orElseThrow().identity()).isEqualTo(fresh.get().identity());
        assertThat(viaCache.orElseThrow().digest()).isEqualTo(fresh.get().identity().digest());
        assertThat(viaCache.orElseThrow().head()).isEqualTo(fresh.get().head());
      }
    }
  }

  @Test
  void lookupsThroughTheCacheAlwaysEqualAFreshHash() {
    qt().withExamples(150)
        .forAll(
            lists().of(integers().between(0, 10_000)).ofSizeBetween(1, 60),
            integers().allPositive())
        .checkAssert(
            (ops, seed) -> {
              World w = new World(seed);
              try {
                Path dir = w.fs.getPath("/opt");
                Files.createDirectories(dir);
                List<Path> files = List.of(dir.resolve("a"), dir.resolve("b"));
                for (int op : ops) {
                  Path file = files.get(op % 2);
                  w.apply((op / 2) % 10, file); // ops 7..9 are lookups
                  w.lookUp(files.get((op / 20) % 2));
                }
                w.fs.close();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }
}
