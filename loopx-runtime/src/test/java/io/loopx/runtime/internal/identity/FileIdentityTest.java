package io.loopx.runtime.internal.identity;

import static io.loopx.runtime.internal.identity.TestFiles.expectedFileIdentity;
import static io.loopx.runtime.internal.identity.TestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FileIdentityTest {
  private final FileSystem fs = TestFiles.unixFs();

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  @Test
  void goldenDigestMatchesTheSpecRecord() {
    // Pinned from an independent computation (Python hashlib over the hand-written record).
    Path file = write(fs.getPath("/opt/tool"), "#!/bin/sh\necho hi\n", true);

    FileIdentity identity = FileIdentity.of(file);

    assertThat(identity.executable()).isTrue();
    assertThat(identity.size()).isEqualTo(18);
    assertThat(identity.contentSha256())
        .isEqualTo("299001868fb8c02fd431c336c6d058f5558c5dff5b5af5e6fe04b870a6a9cbba");
    assertThat(identity.digest())
        .isEqualTo("f4f7507134d521e935984dc6bd4cf332668fb49db8270b7332ab46c3f86c3a04");
  }

  @Test
  void copyAtAnotherPathHasTheSameIdentity() throws IOException {
    Path original = write(fs.getPath("/a/tool"), "payload", true);
    Path copy = fs.getPath("/elsewhere/deeper/other-name");
    Files.createDirectories(copy.getParent());
    Files.copy(original, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));

    assertThat(FileIdentity.of(copy)).isEqualTo(FileIdentity.of(original));
    assertThat(FileIdentity.of(copy).digest()).isEqualTo(FileIdentity.of(original).digest());
  }

  @Test
  void oneChangedByteChangesTheIdentity() {
    Path a = write(fs.getPath("/a"), "payload-1", true);
    Path b = write(fs.getPath("/b"), "payload-2", true);

    assertThat(FileIdentity.of(a).digest()).isNotEqualTo(FileIdentity.of(b).digest());
  }

  @Test
  void executableBitChangesTheIdentity() throws IOException {
    Path file = write(fs.getPath("/tool"), "payload", false);
    String before = FileIdentity.of(file).digest();

    Files.setPosixFilePermissions(file, EnumSet.of(PosixFilePermission.OTHERS_EXECUTE));

    FileIdentity after = FileIdentity.of(file);
    assertThat(after.executable()).isTrue();
    assertThat(after.digest()).isNotEqualTo(before);
  }

  @Test
  void symlinkIsFollowedToItsTarget() throws IOException {
    Path target = write(fs.getPath("/real/tool"), "payload", true);
    Path link = fs.getPath("/link");
    Files.createSymbolicLink(link, target);

    assertThat(FileIdentity.of(link)).isEqualTo(FileIdentity.of(target));
  }

  @Test
  void largeFileIsStreamedAcrossManyBuffers() {
    byte[] content = new byte[3 * 64 * 1024 + 17];
    new Random(7).nextBytes(content);
    Path file = write(fs.getPath("/big"), content, false);

    FileIdentity identity = FileIdentity.of(file);

    assertThat(identity.size()).isEqualTo(content.length);
    assertThat(identity.digest()).isEqualTo(expectedFileIdentity(content, false));
  }

  @Test
  void missingFileOrDirectoryIsIoFailedNamingThePath() throws IOException {
    Files.createDirectories(fs.getPath("/dir"));

    assertThatThrownBy(() -> FileIdentity.of(fs.getPath("/nope")))
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining("/nope")
        .extracting(e -> ((LoopxException) e).kind())
        .isEqualTo(ErrorKind.IO_FAILED);
    assertThatThrownBy(() -> FileIdentity.of(fs.getPath("/dir")))
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining("/dir");
  }

  @Test
  void invalidComponentsAreRejected() {
    assertThatThrownBy(() -> new FileIdentity(true, -1, "0".repeat(64)))
        .isInstanceOf(LoopxException.class)
        .extracting(e -> ((LoopxException) e).kind())
        .isEqualTo(ErrorKind.INVALID_VALUE);
    assertThatThrownBy(() -> new FileIdentity(true, 1, "ABC"))
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining("ABC");
  }

  @Test
  void identityIsAPureFunctionOfContentAndExecutableBit() {
    qt().withExamples(100)
        .forAll(
            lists()
                .of(integers().between(0, 255))
                .ofSizeBetween(0, 2000)
                .map(FileIdentityTest::toBytes),
            booleans().all(),
            strings().betweenCodePoints('a', 'z').ofLengthBetween(1, 12),
            strings().betweenCodePoints('a', 'z').ofLengthBetween(1, 12))
        .checkAssert(
            (content, executable, dirName, fileName) -> {
              Path first = write(fs.getPath("/p1", dirName, fileName), content, executable);
              Path second = write(fs.getPath("/p2", fileName, dirName, "x"), content, executable);
              assertThat(FileIdentity.of(first).digest())
                  .isEqualTo(FileIdentity.of(second).digest())
                  .isEqualTo(expectedFileIdentity(content, executable));
            });
  }

  private static byte[] toBytes(List<Integer> values) {
    byte[] bytes = new byte[values.size()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) values.get(i).intValue();
    }
    return bytes;
  }

  @Test
  void identityJsonHasExactlyTheSpecFields() {
    FileIdentity identity =
        new FileIdentity(false, 3, TestFiles.sha256Hex("abc".getBytes(StandardCharsets.UTF_8)));

    assertThat(identity.toJson().propertyNames())
        .containsExactlyInAnyOrder(
            "schema_version", "kind", "executable", "size", "content_sha256");
    assertThat(identity.digest())
        .isEqualTo(expectedFileIdentity("abc".getBytes(StandardCharsets.UTF_8), false));
  }
}
