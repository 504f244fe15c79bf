package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The StrictModes rule of the state directory (docs/contract/state.md): {@code extensions/} and the
 * state and lock files are refused with {@code STATE_UNREADABLE}, naming the path and the reason,
 * when they are symbolic links, not owned by the effective user, or group- or world-writable, on
 * every read and write, and nothing is changed. On Jimfs (with POSIX views, the owner named through
 * the test hook) and on the real file system, where the machine's root user hands files to another
 * uid.
 */
class PrivateStateDirectoryTest {
  private static final int OTHER_UID = 4242;

  private final FileSystem jimfs =
      Jimfs.newFileSystem(
          Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());

  @AfterEach
  void closeFs() throws IOException {
    jimfs.close();
  }

  private static EntryChange install(String id) {
    return new EntryChange(
        ExtensionId.of(id),
        Optional.empty(),
        Optional.of(ExtensionRecords.installed(snapshot(id, "1.0.0"), Optional.of(identity(1)))));
  }

  /** Which path of the state directory a case spoils. */
  enum Target {
    DIRECTORY,
    STATE_FILE,
    LOCK_FILE
  }

  /** One way to spoil a path, and the reason the refusal must name. */
  enum Spoil {
    GROUP_WRITABLE("is group-writable"),
    WORLD_WRITABLE("is world-writable"),
    OTHER_OWNER("is not owned by the effective user");

    final String reason;

    Spoil(String reason) {
      this.reason = reason;
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Target t : Target.values()) {
      for (Spoil s : Spoil.values()) {
        all.add(Arguments.of(t, s));
      }
    }
    return all.stream();
  }

  // ---------------------------------------------------------------- Jimfs (unit)

  private FileActivationStore jimfsStore(Path root) throws IOException {
    UserPrincipal user = jimfs.getUserPrincipalLookupService().lookupPrincipalByName("user");
    return FileActivationStore.inRuntimeRoot(root).withOwner(user);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void jimfsRefusesASpoiledPathOnReadAndWriteAndChangesNothing(Target target, Spoil spoil)
      throws IOException {
    Path root = jimfs.getPath("/home/user/.loopx");
    FileActivationStore store = jimfsStore(root);
    store.update("install", List.of(install("alpha")));
    Path path = pathOf(store, target);
    spoil(path, spoil, jimfs.getUserPrincipalLookupService().lookupPrincipalByName("mallory"));

    assertRefusedAndUntouched(store, path, spoil.reason, target != Target.LOCK_FILE);
  }

  @Test
  void jimfsRefusesASymlinkedStateDirectoryWithoutWritingThroughIt() throws IOException {
    Path root = jimfs.getPath("/home/user/.loopx");
    Path open = Files.createDirectories(jimfs.getPath("/tmp/open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.createDirectories(root);
    Files.createSymbolicLink(root.resolve("extensions"), open);
    FileActivationStore store = jimfsStore(root);

    assertRefusedAndUntouched(
        store, root.resolve("extensions"), "is a symbolic link", /* readRefused= */ true);
    assertThat(listing(open)).isEmpty();
  }

  @Test
  void jimfsRefusesSymlinkedStateAndLockFiles() throws IOException {
    Path root = jimfs.getPath("/home/user/.loopx");
    FileActivationStore store = jimfsStore(root);
    store.update("install", List.of(install("alpha")));
    Path elsewhere = Files.write(jimfs.getPath("/tmp-lock"), new byte[0]);
    Files.delete(store.lockFile());
    Files.createSymbolicLink(store.lockFile(), elsewhere);

    assertRefusedAndUntouched(store, store.lockFile(), "is a symbolic link", false);

    Files.delete(store.lockFile());
    Path copy = Files.copy(store.stateFile(), jimfs.getPath("/copy.json"));
    Files.delete(store.stateFile());
    Files.createSymbolicLink(store.stateFile(), copy);
    assertRefusedAndUntouched(store, store.stateFile(), "is a symbolic link", true);
  }

  @Test
  void jimfsCreatesThePrivateDirectoryAndFilesWithPrivateModes() throws IOException {
    Path root = jimfs.getPath("/home/user/.loopx");
    List<String> tempModes = new ArrayList<>();
    FileActivationStore store =
        jimfsStore(root)
            .withObserver(
                step -> {
                  if (step == WriteStep.TEMP_WRITTEN) {
                    tempModes.addAll(tempModes(root.resolve("extensions")));
                  }
                });

    store.update("install", List.of(install("alpha")));

    assertThat(mode(root.resolve("extensions"))).isEqualTo("rwx------");
    assertThat(mode(store.stateFile())).isEqualTo("rw-------");
    assertThat(mode(store.lockFile())).isEqualTo("rw-------");
    assertThat(tempModes).containsExactly("rw-------");
  }

  @Test
  void jimfsAcceptsASymlinkedRuntimeRootAndReadOnlyModes() throws IOException {
    Path real = Files.createDirectories(jimfs.getPath("/data/loopx"));
    Path root = Files.createSymbolicLink(jimfs.getPath("/home-loopx"), real);
    FileActivationStore store = jimfsStore(root);
    ActivationState written = store.update("install", List.of(install("alpha")));
    Files.setPosixFilePermissions(
        root.resolve("extensions"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(store.stateFile(), PosixFilePermissions.fromString("r--r--r--"));

    assertThat(jimfsStore(root).read()).isEqualTo(written);
    assertThat(Files.exists(real.resolve("extensions").resolve("state.json"))).isTrue();
  }

  @Test
  void withoutPosixAttributesOnlySymlinksAreRefused() throws IOException {
    try (FileSystem basic = Jimfs.newFileSystem(Configuration.unix())) {
      Path root = basic.getPath("/home/user/.loopx");
      FileActivationStore store = FileActivationStore.inRuntimeRoot(root);
      ActivationState written = store.update("install", List.of(install("alpha")));
      assertThat(store.read()).isEqualTo(written);

      Path moved = Files.move(root.resolve("extensions"), basic.getPath("/elsewhere"));
      Files.createSymbolicLink(root.resolve("extensions"), moved);
      assertRefusedAndUntouched(store, root.resolve("extensions"), "is a symbolic link", true);
    }
  }

  @Test
  void onJimfsWithoutATestOwnerTheOwnerIsNotChecked() throws IOException {
    Path root = jimfs.getPath("/home/user/.loopx");
    FileActivationStore store = FileActivationStore.inRuntimeRoot(root);
    ActivationState written = store.update("install", List.of(install("alpha")));
    Files.setOwner(
        store.stateFile(), jimfs.getUserPrincipalLookupService().lookupPrincipalByName("mallory"));

    assertThat(FileActivationStore.inRuntimeRoot(root).read()).isEqualTo(written);
  }

  // ---------------------------------------------------------------- the real file system

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void realFileSystemRefusesASpoiledPathOnReadAndWriteAndChangesNothing(
      Target target, Spoil spoil, @TempDir Path tmp) throws IOException {
    Path root = tmp.resolve("root");
    FileActivationStore store = FileActivationStore.inRuntimeRoot(root);
    store.update("install", List.of(install("alpha")));
    Path path = pathOf(store, target);
    if (spoil == Spoil.OTHER_OWNER) {
      assumeTrue(chown(path, OTHER_UID), "handing a file to another uid needs root");
    } else {
      spoil(path, spoil, null);
    }

    assertRefusedAndUntouched(
        FileActivationStore.inRuntimeRoot(root), path, spoil.reason, target != Target.LOCK_FILE);
  }

  @Test
  void realFileSystemRefusesASymlinkToAWorldWritableDirectory(@TempDir Path tmp)
      throws IOException {
    Path open = Files.createDirectories(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.createSymbolicLink(root.resolve("extensions"), open);
    FileActivationStore store = FileActivationStore.inRuntimeRoot(root);

    assertRefusedAndUntouched(store, root.resolve("extensions"), "is a symbolic link", true);
    assertThat(listing(open)).isEmpty();
  }

  @Test
  void realFileSystemAcceptsASymlinkedRuntimeRoot(@TempDir Path tmp) throws IOException {
    Path real = Files.createDirectories(tmp.resolve("real"));
    Path root = Files.createSymbolicLink(tmp.resolve("root"), real);
    ActivationState written =
        FileActivationStore.inRuntimeRoot(root).update("install", List.of(install("alpha")));

    assertThat(FileActivationStore.inRuntimeRoot(root).read()).isEqualTo(written);
    assertThat(mode(real.resolve("extensions"))).isEqualTo("rwx------");
    assertThat(mode(real.resolve("extensions").resolve("state.json"))).isEqualTo("rw-------");
    assertThat(mode(real.resolve("extensions").resolve("state.json.lock"))).isEqualTo("rw-------");
  }

  @Test
  void realFileSystemRefusesAStateDirectoryHandedToAnotherUserBeforeCreatingAnything(
      @TempDir Path tmp) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("root").resolve("extensions"));
    assumeTrue(chown(dir, OTHER_UID), "handing a directory to another uid needs root");

    assertRefusedAndUntouched(
        FileActivationStore.inRuntimeRoot(tmp.resolve("root")),
        dir,
        "is not owned by the effective user",
        true);
    assertThat(listing(dir)).isEmpty();
  }

  // ---------------------------------------------------------------- helpers

  private static Path pathOf(FileActivationStore store, Target target) {
    return switch (target) {
      case DIRECTORY -> store.stateFile().getParent();
      case STATE_FILE -> store.stateFile();
      case LOCK_FILE -> store.lockFile();
    };
  }

  private static void spoil(Path path, Spoil spoil, UserPrincipal other) throws IOException {
    boolean dir = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
    switch (spoil) {
      case GROUP_WRITABLE ->
          Files.setPosixFilePermissions(
              path, PosixFilePermissions.fromString(dir ? "rwxrwx---" : "rw-rw----"));
      case WORLD_WRITABLE ->
          Files.setPosixFilePermissions(
              path, PosixFilePermissions.fromString(dir ? "rwx---rwx" : "rw----rw-"));
      case OTHER_OWNER -> Files.setOwner(path, other);
    }
  }

  /** Hands {@code path} to {@code uid}; false where this process may not. */
  private static boolean chown(Path path, int uid) throws IOException {
    try {
      Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
      return true;
    } catch (FileSystemException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * Asserts that a write (and, with {@code readRefused}, a read) fails with {@code
   * STATE_UNREADABLE} naming {@code path} and {@code reason}, and that the directory holding the
   * state is byte for byte as before.
   */
  private static void assertRefusedAndUntouched(
      FileActivationStore store, Path path, String reason, boolean readRefused) throws IOException {
    Path dir = store.stateFile().getParent();
    Map<String, String> before = snapshotOf(dir);
    if (readRefused) {
      assertRefused(store::read, path, reason);
    } else {
      store.read(); // the lock file guards writes only
    }
    assertRefused(() -> store.update("install", List.of(install("beta"))), path, reason);
    assertThat(snapshotOf(dir)).isEqualTo(before);
  }

  private static void assertRefused(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, Path path, String reason) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE);
              assertThat(e.getMessage()).contains(path.toString() + " " + reason);
            });
  }

  /** Names, modes and contents of what is in {@code dir} (not following links); empty if absent. */
  private static Map<String, String> snapshotOf(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return out;
    }
    out.put(".", mode(dir));
    if (!Files.isDirectory(dir)) {
      return out;
    }
    for (Path p : listing(dir)) {
      String value =
          Files.isSymbolicLink(p)
              ? "-> " + Files.readSymbolicLink(p)
              : mode(p) + " " + Arrays.toString(Files.readAllBytes(p));
      out.put(p.getFileName().toString(), value);
    }
    return out;
  }

  private static List<Path> listing(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  private static List<String> tempModes(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(".state.json.tmp."))
          .map(PrivateStateDirectoryTest::mode)
          .toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String mode(Path p) {
    if (!p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return "(no posix view)";
    }
    try {
      return PosixFilePermissions.toString(
          Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
