package io.loopx.runtime.internal.state;

import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.identity.CachedFile;
import io.loopx.runtime.internal.identity.IdentityCacheCodec;
import io.loopx.runtime.internal.identity.IdentityCacheStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The identity cache file {@code <state directory>/identity-cache} (docs/contract/state.md). It is
 * read and written under the state directory's StrictModes rule ({@link PrivatePaths}), but unlike
 * the state file it is only a hint: a file that is missing, a symbolic link, not a regular file,
 * not private to the effective user, larger than {@link IdentityCacheCodec#MAX_BYTES} or not
 * exactly valid loads as empty and is replaced by the next save; no failure ever reaches the
 * caller. A save never creates the state directory (it is skipped until the state file's first
 * write created it) and writes a temp file ({@code .identity-cache.tmp.<16 hex>}, mode 0600) that
 * is atomically renamed over the cache file, without fsync: a cache lost in a crash is rebuilt.
 * Thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class IdentityCacheFile implements IdentityCacheStore {
  /** The file name in the state directory. */
  public static final String NAME = "identity-cache";

  private static final String TEMP_PREFIX = ".identity-cache.tmp.";
  private static final Duration STALE_TEMP = Duration.ofMinutes(10);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path directory;
  private final Path file;
  private final PrivatePaths rule;

  private IdentityCacheFile(Path directory, PrivatePaths rule) {
    this.directory = directory.toAbsolutePath().normalize();
    this.file = this.directory.resolve(NAME);
    this.rule = rule;
  }

  /** The cache file in {@code stateDirectory}. */
  public static IdentityCacheFile in(Path stateDirectory) {
    return new IdentityCacheFile(stateDirectory, PrivatePaths.of(stateDirectory.getFileSystem()));
  }

  /** Test hook: expects {@code owner} to own the directory and the file. */
  static IdentityCacheFile in(Path stateDirectory, UserPrincipal owner) {
    return new IdentityCacheFile(stateDirectory, new PrivatePaths(Optional.of(owner)));
  }

  /** The cache file's path. */
  public Path file() {
    return file;
  }

  @Override
  public List<CachedFile> load() {
    try {
      if (!rule.directoryOrAbsent(directory) || !rule.fileOrAbsent(file)) {
        return List.of();
      }
      byte[] bytes;
      try (InputStream in =
          Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        bytes =
            in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, IdentityCacheCodec.MAX_BYTES + 1));
      }
      return IdentityCacheCodec.decode(bytes).orElse(List.of());
    } catch (IOException | LoopxException | UnsupportedOperationException | SecurityException e) {
      return List.of(); // never trusted, never an error: rebuilt by the next save
    }
  }

  @Override
  public void save(List<CachedFile> entries) {
    Path temp = directory.resolve(TEMP_PREFIX + HexFormat.of().formatHex(randomBytes()));
    try {
      if (!rule.directoryOrAbsent(directory)) {
        return; // nothing installed yet: a cache never creates the state directory
      }
      removeStaleTemps();
      byte[] bytes = IdentityCacheCodec.encode(entries);
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
      }
      rule.fileOrAbsent(temp);
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | LoopxException | UnsupportedOperationException | SecurityException e) {
      deleteQuietly(temp); // best effort: the next save tries again
    }
  }

  private void removeStaleTemps() {
    Instant cutoff = Instant.now().minus(STALE_TEMP);
    try (DirectoryStream<Path> temps =
        Files.newDirectoryStream(
            directory, p -> p.getFileName().toString().startsWith(TEMP_PREFIX))) {
      for (Path t : temps) {
        FileTime modified =
            Files.readAttributes(
                    t, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .lastModifiedTime();
        if (modified.toInstant().isBefore(cutoff)) {
          deleteQuietly(t);
        }
      }
    } catch (IOException | java.nio.file.DirectoryIteratorException e) {
      // leftovers are harmless; another save removes them
    }
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return b;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(Objects.requireNonNull(p, "p"));
    } catch (IOException ignored) {
      // best effort
    }
  }
}
