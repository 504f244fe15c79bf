package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FileActivationStoreTest {
  private final FileSystem fs =
      Jimfs.newFileSystem(
          Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
  private final Path root = fs.getPath("/home/user/.loopx");
  private final FileActivationStore store = FileActivationStore.inRuntimeRoot(root);

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  private static EntryChange install(String id) {
    return new EntryChange(
        ExtensionId.of(id),
        Optional.empty(),
        Optional.of(ExtensionRecords.installed(snapshot(id, "1.0.0"), Optional.of(identity(1)))));
  }

  @Test
  void missingStateReadsEmptyAndCreatesNothing() {
    assertThat(store.read()).isEqualTo(ActivationState.EMPTY);
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void writeThenReadRoundTripsWithPrivateModes() throws IOException {
    ActivationState written = store.update("install", List.of(install("alpha"), install("beta")));

    assertThat(store.read()).isEqualTo(written);
    assertThat(written.extensions().keySet())
        .containsExactly(ExtensionId.of("alpha"), ExtensionId.of("beta"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store.stateFile())))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(store.stateFile().getParent())))
        .isEqualTo("rwx------");
    assertThat(new String(Files.readAllBytes(store.stateFile()), UTF_8))
        .contains("\"schema_version\" : \"loopx_extension_state_v0\"");
  }

  @Test
  void theDecodeCacheNeverHidesAChangedFile() throws IOException {
    ActivationState written = store.update("install", List.of(install("alpha")));
    byte[] alphaBytes = Files.readAllBytes(store.stateFile());
    // What the writer keeps is what a fresh reader decodes from the file.
    assertThat(FileActivationStore.inRuntimeRoot(root).read()).isEqualTo(written);
    assertThat(store.read()).isEqualTo(written);

    ActivationState other =
        FileActivationStore.inRuntimeRoot(root).update("install", List.of(install("beta")));
    assertThat(store.read()).isEqualTo(other);

    Files.write(
        store.stateFile(), new String(alphaBytes, UTF_8).replace("1.0.0", "1.0.1").getBytes(UTF_8));
    assertThatThrownBy(store::read)
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));

    Files.write(store.stateFile(), alphaBytes);
    assertThat(store.read()).isEqualTo(written);
  }

  @Test
  void conflictingEntryFailsWithStateConflictAndWritesNothing() throws IOException {
    store.update("install", List.of(install("alpha")));
    byte[] before = Files.readAllBytes(store.stateFile());

    assertThatThrownBy(() -> store.update("install", List.of(install("alpha"))))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STATE_CONFLICT);
              assertThat(e).hasMessage("extension state changed during install; retry");
            });
    assertThat(Files.readAllBytes(store.stateFile())).isEqualTo(before);
  }

  @Test
  void unchangedEntriesAreNotWritten() {
    assertThat(store.update("disable", List.of())).isEqualTo(ActivationState.EMPTY);
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void leftoverTempFilesAreIgnoredByReadsAndRemovedByTheNextWrite() throws IOException {
    store.update("install", List.of(install("alpha")));
    Path leftover = store.stateFile().resolveSibling(".state.json.tmp.deadbeef");
    Files.write(leftover, "garbage".getBytes(UTF_8));

    assertThat(store.read().get(ExtensionId.of("alpha"))).isPresent();
    store.update("install", List.of(install("beta")));
    assertThat(Files.exists(leftover)).isFalse();
  }

  static Stream<String> corruptStates() {
    return Stream.of(
        "",
        "{",
        "{\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":{}",
        "[]",
        "{\"schema_version\":\"loopx_extension_state_v1\",\"extensions\":{}}",
        "{\"schema_version\":\"loopx_extension_state_v0\"}",
        "{\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":[]}",
        "{\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":{},\"x\":1}",
        "{\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":{\"Bad\":{}}}",
        "{\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":{\"a\":{\"id\":\"a\"}}}");
  }

  @ParameterizedTest
  @MethodSource("corruptStates")
  void corruptStateFailsClosedAndIsNeverOverwritten(String content) throws IOException {
    Files.createDirectories(store.stateFile().getParent());
    Files.write(store.stateFile(), content.getBytes(UTF_8));

    assertThatThrownBy(store::read)
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
    assertThatThrownBy(() -> store.update("install", List.of(install("alpha"))))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
    assertThat(new String(Files.readAllBytes(store.stateFile()), UTF_8)).isEqualTo(content);
  }

  @Test
  void invalidUtf8IsUnreadable() throws IOException {
    Files.createDirectories(store.stateFile().getParent());
    Files.write(store.stateFile(), new byte[] {'{', (byte) 0xC3, '}'});

    assertThatThrownBy(store::read).hasMessageContaining("extension runtime state is unreadable");
  }

  @Test
  void snapshotWhoseRevisionIsNotItsManifestHashIsAnInvalidEntry() throws IOException {
    store.update("install", List.of(install("alpha")));
    String text = new String(Files.readAllBytes(store.stateFile()), UTF_8);
    String tampered = text.replace("\"version\" : \"1.0.0\"", "\"version\" : \"9.9.9\"");
    assertThat(tampered).isNotEqualTo(text);
    Files.write(store.stateFile(), tampered.getBytes(UTF_8));

    assertThatThrownBy(store::read)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE);
              assertThat(e).hasMessageContaining("invalid entry `alpha`");
            });
  }

  @Test
  void createdStateDirectoriesAreMadeDurableInTheirParents(@TempDir Path tmp) throws IOException {
    Path base = tmp.toAbsolutePath().normalize();
    Path dir = base.resolve("root").resolve("extensions");

    assertThat(StateFiles.createPrivateDirectories(dir))
        .as("every directory that gained an entry is fsynced, deepest first")
        .containsExactly(base.resolve("root"), base);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(StateFiles.createPrivateDirectories(dir))
        .as("nothing created, nothing synced")
        .isEmpty();
  }

  @Test
  void symlinkAtTheStatePathIsRefusedWithoutFollowingIt(@TempDir Path tmp) throws IOException {
    Path target = tmp.resolve("elsewhere.json");
    Files.write(target, "{}".getBytes(UTF_8));
    Path state = tmp.resolve("extensions").resolve("state.json");
    Files.createDirectories(state.getParent());
    Files.createSymbolicLink(state, target);
    FileActivationStore real = FileActivationStore.at(state);

    assertThatThrownBy(real::read)
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
    assertThatThrownBy(() -> real.update("install", List.of(install("alpha"))))
        .isInstanceOf(LoopxException.class);
    assertThat(new String(Files.readAllBytes(target), UTF_8)).isEqualTo("{}");
    assertThat(Files.isSymbolicLink(state)).isTrue();
  }

  @Test
  void fifoAtTheStateOrLockPathIsRefusedWithoutBlocking(@TempDir Path tmp) throws Exception {
    Path state = tmp.resolve("state.json");
    mkfifo(state);
    assertThatThrownBy(FileActivationStore.at(state)::read)
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));

    Path other = tmp.resolve("other.json");
    mkfifo(tmp.resolve("other.json.lock"));
    assertThatThrownBy(() -> FileActivationStore.at(other).update("install", List.of(install("a"))))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
    assertThat(Files.exists(other)).isFalse();
  }

  private static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

  @Test
  void lockHeldElsewhereTimesOutWithStateLocked(@TempDir Path tmp) throws Exception {
    FileActivationStore real =
        FileActivationStore.at(tmp.resolve("state.json")).withLockTimeout(Duration.ofMillis(200));
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              try (StateLock lock = StateLock.acquire(real.lockFile(), Duration.ofSeconds(5))) {
                held.countDown();
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    holder.start();
    held.await();
    try {
      assertThatThrownBy(() -> real.update("install", List.of(install("alpha"))))
          .isInstanceOfSatisfying(
              LoopxException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.STATE_LOCKED);
                assertThat(e).hasMessage("extension runtime state is locked by another process");
              });
    } finally {
      release.countDown();
      holder.join();
    }
    assertThat(real.update("install", List.of(install("alpha"))).extensions()).hasSize(1);
  }
}
