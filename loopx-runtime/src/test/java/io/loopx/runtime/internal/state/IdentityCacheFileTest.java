package io.loopx.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.runtime.internal.identity.CachedFile;
import io.loopx.runtime.internal.identity.FileStat;
import io.loopx.runtime.internal.identity.IdentityCacheCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The identity cache file under the state directory's StrictModes rule: a file that is not private,
 * not regular or not valid loads as empty (never an error) and is replaced by the next save, which
 * writes a 0600 file atomically; a save never creates the state directory.
 */
class IdentityCacheFileTest {
  private final FileSystem jimfs =
      Jimfs.newFileSystem(
          Configuration.unix().toBuilder().setAttributeViews("basic", "owner", "posix").build());
  private final Path dir = jimfs.getPath("/root/extensions");

  @AfterEach
  void closeFs() throws IOException {
    jimfs.close();
  }

  private static CachedFile entry(String path) {
    FileStat stat =
        new FileStat(
            1,
            7,
            3,
            0100755,
            FileTime.from(1_000, TimeUnit.SECONDS),
            FileTime.from(1_000, TimeUnit.SECONDS));
    return new CachedFile(path, stat, 2_000_000_000_000L, 1, "cd".repeat(32), new byte[0]);
  }

  private IdentityCacheFile cacheFile() throws IOException {
    UserPrincipal user = jimfs.getUserPrincipalLookupService().lookupPrincipalByName("user");
    return IdentityCacheFile.in(dir, user);
  }

  private void privateDirectory() throws IOException {
    Files.createDirectories(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  @Test
  void savesAPrivateFileAndLoadsItBack() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();

    file.save(List.of(entry("/a"), entry("/b")));

    assertThat(file.load()).containsExactly(entry("/a"), entry("/b"));
    assertThat(Files.getPosixFilePermissions(file.file()))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).containsExactly(file.file()); // no temp file left
    }
  }

  @Test
  void aSaveNeverCreatesTheStateDirectory() throws IOException {
    IdentityCacheFile file = cacheFile();

    file.save(List.of(entry("/a")));

    assertThat(Files.exists(dir)).isFalse();
    assertThat(file.load()).isEmpty();
  }

  @Test
  void aCorruptFileIsIgnoredAndRebuilt() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();
    byte[] valid = IdentityCacheCodec.encode(List.of(entry("/a")));
    Files.write(
        file.file(),
        java.util.Arrays.copyOf(valid, valid.length - 3),
        java.nio.file.StandardOpenOption.CREATE_NEW);
    Files.setPosixFilePermissions(file.file(), PosixFilePermissions.fromString("rw-------"));

    assertThat(file.load()).isEmpty();
    file.save(List.of(entry("/b")));
    assertThat(file.load()).containsExactly(entry("/b"));
  }

  @Test
  void aGroupOrWorldWritableFileIsIgnoredAndReplaced() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();
    for (String mode : List.of("rw-rw----", "rw-r--rw-")) {
      file.save(List.of(entry("/a")));
      Files.setPosixFilePermissions(file.file(), PosixFilePermissions.fromString(mode));

      assertThat(file.load()).as(mode).isEmpty();
      file.save(List.of(entry("/a")));
      assertThat(Files.getPosixFilePermissions(file.file()))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(file.load()).containsExactly(entry("/a"));
    }
  }

  @Test
  void aFileOfAnotherOwnerIsIgnored() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();
    file.save(List.of(entry("/a")));
    Files.setOwner(
        file.file(), jimfs.getUserPrincipalLookupService().lookupPrincipalByName("mallory"));

    assertThat(file.load()).isEmpty();
    file.save(List.of(entry("/a")));
    assertThat(file.load()).containsExactly(entry("/a"));
  }

  @Test
  void aSymbolicLinkIsNotFollowed() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();
    Path elsewhere = jimfs.getPath("/elsewhere");
    Files.write(elsewhere, IdentityCacheCodec.encode(List.of(entry("/a"))));
    Files.createSymbolicLink(file.file(), elsewhere);

    assertThat(file.load()).isEmpty();
    file.save(List.of(entry("/b")));
    assertThat(Files.isSymbolicLink(file.file())).isFalse();
    assertThat(file.load()).containsExactly(entry("/b"));
    assertThat(Files.readAllBytes(elsewhere))
        .isEqualTo(IdentityCacheCodec.encode(List.of(entry("/a")))); // the target is untouched
  }

  @Test
  void aDirectoryOrGarbageAtThePathIsNeverAnError() throws IOException {
    privateDirectory();
    IdentityCacheFile file = cacheFile();
    Files.createDirectory(file.file());
    assertThat(file.load()).isEmpty();
    file.save(List.of(entry("/a"))); // cannot replace a directory: ignored
    Files.delete(file.file());

    Files.writeString(file.file(), "{\"not\": \"a cache\"}", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file.file(), PosixFilePermissions.fromString("rw-------"));
    assertThat(file.load()).isEmpty();
  }

  @Test
  void aStateDirectoryThatIsNotPrivateIsNeitherReadNorWritten() throws IOException {
    Files.createDirectories(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    IdentityCacheFile file = cacheFile();

    file.save(List.of(entry("/a")));

    assertThat(Files.exists(file.file())).isFalse();
    assertThat(file.load()).isEmpty();
  }
}
