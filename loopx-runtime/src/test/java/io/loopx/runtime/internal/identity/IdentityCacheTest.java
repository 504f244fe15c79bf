package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The identity cache on the real file system, where inodes and change times are the kernel's. A
 * clock one hour ahead makes every file "settled", so entries are made at once and the tests show
 * that a change is still seen through the stat key alone; the racy-window test uses the real clock.
 */
class IdentityCacheTest {
  @TempDir Path tmp;

  /** A clock far enough ahead that every file written by the test is outside the racy window. */
  private static final Clock AHEAD =
      Clock.offset(Clock.systemUTC(), Duration.ofHours(1).plus(IdentityCache.RACY_MARGIN));

  /** Records what was saved, and loads it back. */
  static final class MemoryStore implements IdentityCacheStore {
    List<CachedFile> saved = new ArrayList<>();
    int saves;

    @Override
    public List<CachedFile> load() {
      return saved;
    }

    @Override
    public void save(List<CachedFile> entries) {
      saved = List.copyOf(entries);
      saves++;
    }
  }

  private Path write(String name, String content) throws IOException {
    Path file = tmp.resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private static String cached(IdentityCache cache, Path file) {
    return cache.scan(file, Shebang.LIMIT).orElseThrow().digest();
  }

  private static String fresh(Path file) {
    return FileScan.tryScan(file, Shebang.LIMIT).orElseThrow().digest();
  }

  @Test
  void anUnchangedSettledFileIsServedFromTheEntry() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "#!/bin/sh\necho one\n");

    String first = cached(cache, file);

    assertThat(cache.holds(file)).isTrue();
    assertThat(cached(cache, file)).isEqualTo(first).isEqualTo(fresh(file));
    FileScan hit = cache.scan(file, Shebang.LIMIT).orElseThrow();
    assertThat(hit.stamp()).isEqualTo(FileScan.tryScan(file, 0).orElseThrow().stamp());
    assertThat(hit.head()).isEqualTo(Files.readAllBytes(file));
  }

  @Test
  void aSameSizeWriteWithTheModificationTimeSetBackIsSeen() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "#!/bin/sh\necho one\n");
    String before = cached(cache, file);
    FileTime mtime = Files.getLastModifiedTime(file);
    assertThat(cache.holds(file)).isTrue();

    // touch -d back: same size, same mtime; only the change time (set by the kernel) differs
    Files.writeString(file, "#!/bin/sh\necho two\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, mtime);

    assertThat(Files.size(file)).isEqualTo("#!/bin/sh\necho one\n".length());
    assertThat(cached(cache, file)).isNotEqualTo(before).isEqualTo(fresh(file));
  }

  @Test
  void aRenameOverTheFileIsSeen() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "#!/bin/sh\necho one\n");
    String before = cached(cache, file);
    FileTime mtime = Files.getLastModifiedTime(file);
    Path other = write("other", "#!/bin/sh\necho two\n");
    Files.setLastModifiedTime(other, mtime);

    Files.move(other, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

    assertThat(cached(cache, file)).isNotEqualTo(before).isEqualTo(fresh(file));
  }

  @Test
  void aModeChangeIsSeen() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "payload");
    String before = cached(cache, file);

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    FileScan after = cache.scan(file, 0).orElseThrow();
    assertThat(after.identity().executable()).isFalse();
    assertThat(after.digest()).isNotEqualTo(before).isEqualTo(fresh(file));
  }

  @Test
  void aSymbolicLinkMovedToAnotherFileIsSeen() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path one = write("one", "#!/bin/sh\necho one\n");
    Path two = write("two", "#!/bin/sh\necho two\n");
    Path link = tmp.resolve("link");
    Files.createSymbolicLink(link, one);
    String before = cached(cache, link);

    Files.delete(link);
    Files.createSymbolicLink(link, two);

    assertThat(cached(cache, link)).isNotEqualTo(before).isEqualTo(fresh(two));
  }

  @Test
  void aFileWrittenInsideTheRacyWindowIsNotCachedSoItsNextWriteIsSeen() throws IOException {
    IdentityCache cache = IdentityCache.withClock(Clock.systemUTC(), IdentityCacheStore.NONE);
    Path file = write("tool", "#!/bin/sh\necho one\n");
    String before = cached(cache, file);

    assertThat(cache.holds(file)).isFalse(); // its change time is within the margin of now
    Files.writeString(file, "#!/bin/sh\necho two\n", StandardCharsets.UTF_8);

    assertThat(cached(cache, file)).isNotEqualTo(before).isEqualTo(fresh(file));
  }

  @Test
  void aClockBehindTheFileTimesNeverMakesAnEntry() throws IOException {
    Clock behind = Clock.fixed(Instant.parse("2000-01-01T00:00:00Z"), ZoneOffset.UTC);
    IdentityCache cache = IdentityCache.withClock(behind, IdentityCacheStore.NONE);
    Path file = write("tool", "payload");

    cached(cache, file);

    assertThat(cache.holds(file)).isFalse();
  }

  @Test
  void aMissingOrNonRegularFileDropsItsEntry() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "payload");
    cached(cache, file);

    Files.delete(file);
    assertThat(cache.scan(file, 0)).isEmpty();
    assertThat(cache.holds(file)).isFalse();

    Files.createDirectory(file);
    assertThat(cache.scan(file, 0)).isEmpty();
  }

  @Test
  void aLongerHeadThanTheEntryKeepsIsReadAgain() throws IOException {
    IdentityCache cache = IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE);
    Path file = write("tool", "#!/bin/sh\n" + "x".repeat(300));
    assertThat(cache.scan(file, 2).orElseThrow().head()).hasSize(2);

    assertThat(cache.scan(file, Shebang.LIMIT).orElseThrow().head())
        .isEqualTo(FileScan.tryScan(file, Shebang.LIMIT).orElseThrow().head());
  }

  @Test
  void savedEntriesServeAnotherCacheAndAreCheckedAgainstStat() throws IOException {
    MemoryStore store = new MemoryStore();
    IdentityCache first = IdentityCache.withClock(AHEAD, store);
    Path file = write("tool", "#!/bin/sh\necho one\n");
    String before = cached(first, file);
    first.flush();
    first.flush(); // nothing changed since: not saved again

    assertThat(store.saves).isEqualTo(1);
    assertThat(store.saved).hasSize(1);
    IdentityCache second = IdentityCache.withClock(AHEAD, store);
    assertThat(second.holds(file)).isTrue();
    assertThat(cached(second, file)).isEqualTo(before);

    FileTime mtime = Files.getLastModifiedTime(file);
    Files.writeString(file, "#!/bin/sh\necho two\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, mtime);
    assertThat(cached(second, file)).isEqualTo(fresh(file)).isNotEqualTo(before);
  }

  @Test
  void entriesFromTheFutureOrNotSettledAreNotLoaded() throws IOException {
    Path file = write("tool", "payload");
    FileStat stat = FileStat.read(file).orElseThrow();
    long now = IdentityCache.nanos(Instant.now());
    long today = Math.floorDiv(now, Duration.ofDays(1).toNanos());
    String sha = FileScan.tryScan(file, 0).orElseThrow().identity().contentSha256();
    MemoryStore store = new MemoryStore();
    store.saved =
        List.of(
            new CachedFile(
                file.toString(),
                stat,
                now + Duration.ofHours(2).toNanos(),
                today,
                sha,
                new byte[0]));
    assertThat(IdentityCache.persistedIn(store).holds(file)).isFalse();
    store.saved = List.of(new CachedFile(file.toString(), stat, now, today, sha, new byte[0]));
    assertThat(IdentityCache.persistedIn(store).holds(file)).isFalse(); // written just now: racy
  }

  @Test
  void theResolverSeesAnInPlaceChangeOfALauncherAndOfItsInterpreter() throws IOException {
    Path interpreter = tmp.resolve("interp");
    Files.copy(Path.of("/bin/sh"), interpreter);
    Files.setPosixFilePermissions(interpreter, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path launcher = write("tool", "#!" + interpreter + "\necho one\n");
    RuntimeEnvironment env = new RuntimeEnvironment("/usr/bin:/bin", Path.of("/bin/sh"), List.of());
    RuntimeResolver cached =
        RuntimeResolver.of(env).withCache(IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE));
    LaunchTarget target = new LaunchTarget.Executable("bin/tool");
    RuntimeIdentity before =
        cached.resolveSaved(target, Optional.of(launcher)).resolvedIdentity().orElseThrow();
    assertThat(cached.resolveSaved(target, Optional.of(launcher)).resolvedIdentity())
        .contains(before);

    FileTime mtime = Files.getLastModifiedTime(launcher);
    Files.writeString(launcher, "#!" + interpreter + "\necho two\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(launcher, mtime);
    RuntimeIdentity changed =
        cached.resolveSaved(target, Optional.of(launcher)).resolvedIdentity().orElseThrow();
    assertThat(changed)
        .isNotEqualTo(before)
        .isEqualTo(
            cached
                .uncached()
                .resolveSaved(target, Optional.of(launcher))
                .resolvedIdentity()
                .orElseThrow());

    byte[] bytes = Files.readAllBytes(interpreter);
    bytes[bytes.length - 1] ^= 1;
    FileTime interpreterTime = Files.getLastModifiedTime(interpreter);
    Files.write(interpreter, bytes);
    Files.setLastModifiedTime(interpreter, interpreterTime);
    assertThat(cached.resolveSaved(target, Optional.of(launcher)).resolvedIdentity())
        .isNotEqualTo(Optional.of(changed))
        .isEqualTo(
            cached.uncached().resolveSaved(target, Optional.of(launcher)).resolvedIdentity());
  }

  @Test
  void aKeptResolutionIsNotServedOnceItsInterpreterIsGoneOrAScript() throws IOException {
    Path interpreter = tmp.resolve("interp");
    Files.copy(Path.of("/bin/sh"), interpreter);
    Files.setPosixFilePermissions(interpreter, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path launcher = write("tool", "#!" + interpreter + "\necho one\n");
    RuntimeEnvironment env = new RuntimeEnvironment("/usr/bin:/bin", Path.of("/bin/sh"), List.of());
    RuntimeResolver cached =
        RuntimeResolver.of(env).withCache(IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE));
    LaunchTarget target = new LaunchTarget.Executable("bin/tool");
    assertThat(cached.resolveSaved(target, Optional.of(launcher)))
        .isInstanceOf(RuntimeResolution.Resolved.class);

    Files.delete(interpreter);
    assertThat(cached.resolveSaved(target, Optional.of(launcher)))
        .isInstanceOf(RuntimeResolution.Missing.class);

    write("interp", "#!/bin/sh\necho nested\n");
    assertThat(cached.resolveSaved(target, Optional.of(launcher)))
        .isInstanceOf(RuntimeResolution.Unsupported.class);
  }

  @Test
  void anEnvLauncherFollowsAProgramPutEarlierOnThePath() throws IOException {
    Path early = Files.createDirectory(tmp.resolve("early"));
    Path late = Files.createDirectory(tmp.resolve("late"));
    Path bin = Files.createDirectory(tmp.resolve("bin"));
    Path lateTool = late.resolve("mytool");
    Files.copy(Path.of("/bin/sh"), lateTool);
    Path launcher = bin.resolve("tool");
    Files.writeString(launcher, "#!/usr/bin/env mytool\necho one\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    RuntimeEnvironment env =
        new RuntimeEnvironment(early + ":" + late, Path.of("/bin/sh"), List.of());
    RuntimeResolver cached =
        RuntimeResolver.of(env).withCache(IdentityCache.withClock(AHEAD, IdentityCacheStore.NONE));
    LaunchTarget target = new LaunchTarget.Executable("bin/tool");
    RuntimeResolution.Resolved before =
        (RuntimeResolution.Resolved) cached.resolveSaved(target, Optional.of(launcher));
    assertThat(before.executed().orElseThrow().path()).isEqualTo(lateTool);

    Path earlyTool = early.resolve("mytool");
    Files.copy(Path.of("/bin/sh"), earlyTool);
    byte[] bytes = Files.readAllBytes(earlyTool);
    bytes[bytes.length - 1] ^= 1;
    Files.write(earlyTool, bytes);
    RuntimeResolution.Resolved after =
        (RuntimeResolution.Resolved) cached.resolveSaved(target, Optional.of(launcher));
    assertThat(after.executed().orElseThrow().path()).isEqualTo(earlyTool);
    assertThat(after.identity()).isNotEqualTo(before.identity());
  }
}
