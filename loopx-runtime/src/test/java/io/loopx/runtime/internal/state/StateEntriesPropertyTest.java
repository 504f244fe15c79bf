package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.standalone;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import io.loopx.runtime.state.StateFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The file store's per-entry caches ({@link StateEntries}) never change what is written or read:
 * random sequences of lifecycle changes write files byte-identical to {@link StateFormat#encode},
 * and after any change of a cached file's bytes (random byte replacements, valid edits of one
 * entry) a read returns exactly what a fresh {@link StateFormat#decode} of the new bytes returns,
 * or fails with its very error. Versions and launcher paths hold quotes, backslashes, braces and
 * non-ASCII text, so entry boundaries are found inside strings that look like JSON.
 */
class StateEntriesPropertyTest {
  private static final String[] IDS = {"alpha", "beta", "gamma-2", "delta", "e", "zeta-x"};
  private static final String[] ODD = {"", "-\"q\"", "-\\\\", "-{}", "-[x]", "-é", "-版本", "-: ,"};

  private static FileSystem unixFs() {
    return Jimfs.newFileSystem(
        Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
  }

  private static RevisionSnapshot snapshot(String id, Random random) {
    String version = "1." + random.nextInt(1000) + ODD[random.nextInt(ODD.length)];
    String path = "/opt/" + id + ODD[random.nextInt(ODD.length)] + "/bin/" + id;
    return RevisionSnapshot.of(standalone(id, version), Optional.of(path));
  }

  /** One random lifecycle change of the state (may change nothing). */
  private static EntryChange randomChange(ActivationState state, Random random) {
    ExtensionId id = ExtensionId.of(IDS[random.nextInt(IDS.length)]);
    Optional<ExtensionRecord> before = state.get(id);
    Optional<String> proof = Optional.of(identity(random.nextInt(40)));
    if (before.isEmpty()) {
      return new EntryChange(
          id, before, Optional.of(ExtensionRecords.installed(snapshot(id.value(), random), proof)));
    }
    ExtensionRecord r = before.get();
    ExtensionRecord after =
        switch (random.nextInt(6)) {
          case 0 -> ExtensionRecords.upgradedTo(r, snapshot(id.value(), random), proof);
          case 1 -> ExtensionRecords.withEnabled(r, !r.enabled());
          case 2 -> ExtensionRecords.withVerified(r, r.activeRevision(), proof.get());
          case 3 ->
              ExtensionRecords.withRevoked(
                  r,
                  r.doctorVerifiedIdentities().isEmpty()
                      ? proof.get()
                      : r.doctorVerifiedIdentities().get(0));
          case 4 -> r.rollbackAvailable() ? ExtensionRecords.rolledBack(r, proof.get()) : r;
          default -> null;
        };
    return new EntryChange(id, before, Optional.ofNullable(after));
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a fresh decode of {@code bytes} gives: the state, or the error's kind and message. */
  private static Object freshOutcome(byte[] bytes) {
    try {
      return StateFormat.decode(bytes);
    } catch (LoopxException e) {
      return e.kind() + ": " + e.getMessage();
    }
  }

  private static Object storeOutcome(FileActivationStore store) {
    try {
      return store.read();
    } catch (LoopxException e) {
      return e.kind() + ": " + e.getMessage();
    }
  }

  /** Builds a state of several entries with history, written through {@code store}. */
  private static ActivationState populate(FileActivationStore store, Random random, int steps) {
    ActivationState state = store.read();
    for (int i = 0; i < steps; i++) {
      EntryChange change = randomChange(state, random);
      state = store.update("test", List.of(change));
    }
    return state;
  }

  @Test
  void aSplicedWriteIsByteIdenticalToAFullEncode() {
    qt().withExamples(40)
        .forAll(integers().all())
        .checkAssert(
            seed -> {
              Random random = new Random(seed);
              try (FileSystem fs = unixFs()) {
                FileActivationStore store =
                    FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
                ActivationState state = ActivationState.EMPTY;
                for (int i = 0; i < 30; i++) {
                  List<EntryChange> changes = new ArrayList<>();
                  changes.add(randomChange(state, random));
                  if (random.nextInt(4) == 0) { // sometimes two entries at once
                    EntryChange other = randomChange(state, random);
                    if (!other.id().equals(changes.get(0).id())) {
                      changes.add(other);
                    }
                  }
                  state = store.update("test", changes);
                  byte[] written = bytes(store.stateFile());
                  assertThat(written).isEqualTo(StateFormat.encode(state));
                  assertThat(StateFormat.decode(written)).isEqualTo(state);
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  @Test
  void theEncodeOfAnyStateIsByteIdenticalWithAnyPreviousItems() {
    qt().withExamples(60)
        .forAll(integers().all())
        .checkAssert(
            seed -> {
              Random random = new Random(seed);
              ActivationState a = ActivationState.EMPTY;
              ActivationState b = ActivationState.EMPTY;
              for (int i = 0; i < 12; i++) {
                EntryChange c = randomChange(a, random);
                a = a.with(c.id(), c.replacement());
                EntryChange d = randomChange(b, random);
                b = b.with(d.id(), d.replacement());
              }
              // Items of one state (decoded from a foreign file, or encoded) used for another.
              byte[] aBytes = StateFormat.encode(a);
              var decodedItems = StateEntries.items(aBytes, a);
              assertThat(decodedItems).hasSize(a.extensions().size());
              var encodedItems = StateEntries.encode(a, Map.of()).items();
              assertThat(StateEntries.encode(a, Map.of()).bytes()).isEqualTo(aBytes);
              assertThat(StateEntries.encode(b, decodedItems).bytes())
                  .isEqualTo(StateFormat.encode(b));
              assertThat(StateEntries.encode(b, encodedItems).bytes())
                  .isEqualTo(StateFormat.encode(b));
              assertThat(StateEntries.encode(a, encodedItems).bytes()).isEqualTo(aBytes);
            });
  }

  @Test
  void afterAnyByteChangeAReadIsWhatAFreshDecodeGives() {
    qt().withExamples(300)
        .forAll(integers().all())
        .checkAssert(
            seed -> {
              Random random = new Random(seed);
              try (FileSystem fs = unixFs()) {
                FileActivationStore store =
                    FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
                populate(store, random, 12);
                byte[] original = bytes(store.stateFile());
                store.read(); // the caches hold the original bytes, as the writer encoded them
                FileActivationStore reader = // and as a reader decoded them in full
                    FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
                reader.read();
                byte[] changed = original.clone();
                String alphabet = "0123456789abcdef\"\\{}[],: \ntrufalsn.-";
                int flips = 1 + random.nextInt(3);
                for (int f = 0; f < flips; f++) {
                  changed[random.nextInt(changed.length)] =
                      (byte) alphabet.charAt(random.nextInt(alphabet.length()));
                }
                Files.write(store.stateFile(), changed);
                assertThat(storeOutcome(store)).isEqualTo(freshOutcome(changed));
                assertThat(storeOutcome(reader)).isEqualTo(freshOutcome(changed));
                // And back: the original bytes read as the original state again.
                Files.write(store.stateFile(), original);
                assertThat(storeOutcome(store)).isEqualTo(freshOutcome(original));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  @Test
  void aForeignChangeOfOneEntryDecodesOnlyThatEntryAgain() throws IOException {
    try (FileSystem fs = unixFs()) {
      FileActivationStore store = FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
      FileActivationStore other = FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
      Random random = new Random(7);
      for (String id : List.of("alpha", "beta", "gamma")) {
        store.update(
            "install",
            List.of(
                new EntryChange(
                    ExtensionId.of(id),
                    Optional.empty(),
                    Optional.of(
                        ExtensionRecords.installed(
                            snapshot(id, random), Optional.of(identity(1)))))));
      }
      ActivationState before = store.read();
      // Another store (another process) disables beta.
      ExtensionRecord beta = other.read().installed(ExtensionId.of("beta"));
      other.update(
          "disable",
          List.of(
              new EntryChange(
                  beta.id(),
                  Optional.of(beta),
                  Optional.of(ExtensionRecords.withEnabled(beta, false)))));

      ActivationState after = store.read();

      assertThat(after).isEqualTo(StateFormat.decode(bytes(store.stateFile())));
      assertThat(after.installed(ExtensionId.of("beta")).enabled()).isFalse();
      assertThat(after.installed(ExtensionId.of("alpha")))
          .isSameAs(before.installed(ExtensionId.of("alpha")));
      assertThat(after.installed(ExtensionId.of("gamma")))
          .isSameAs(before.installed(ExtensionId.of("gamma")));

      // Another store installs delta (a new entry between the others) and uninstalls alpha.
      other.update(
          "install",
          List.of(
              new EntryChange(
                  ExtensionId.of("delta"),
                  Optional.empty(),
                  Optional.of(
                      ExtensionRecords.installed(snapshot("delta", random), Optional.empty()))),
              new EntryChange(
                  ExtensionId.of("alpha"),
                  Optional.of(after.installed(ExtensionId.of("alpha"))),
                  Optional.empty())));

      ActivationState third = store.read();

      assertThat(third).isEqualTo(StateFormat.decode(bytes(store.stateFile())));
      assertThat(third.extensions()).hasSize(3);
      assertThat(third.installed(ExtensionId.of("beta")))
          .isSameAs(after.installed(ExtensionId.of("beta")));
      assertThat(third.installed(ExtensionId.of("gamma")))
          .isSameAs(before.installed(ExtensionId.of("gamma")));
    }
  }

  @Test
  void anEditThatKeepsTheJsonValidIsDecodedAndCheckedAgain() throws IOException {
    try (FileSystem fs = unixFs()) {
      FileActivationStore store = FileActivationStore.inRuntimeRoot(fs.getPath("/root/.loopx"));
      store.update(
          "install",
          List.of(
              new EntryChange(
                  ExtensionId.of("alpha"),
                  Optional.empty(),
                  Optional.of(
                      ExtensionRecords.installed(
                          RevisionSnapshot.of(standalone("alpha", "1.0.0"), Optional.of("/a")),
                          Optional.of(identity(1)))))));
      ActivationState cached = store.read();
      String text = new String(bytes(store.stateFile()), UTF_8);

      // The manifest's version no longer matches the stored revision hash.
      String forged = text.replace("\"version\" : \"1.0.0\"", "\"version\" : \"1.0.1\"");
      assertThat(forged).isNotEqualTo(text);
      Files.writeString(store.stateFile(), forged);
      assertThatThrownBy(store::read)
          .isInstanceOfSatisfying(
              LoopxException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
      assertThat(storeOutcome(store)).isEqualTo(freshOutcome(forged.getBytes(UTF_8)));

      // A valid edit (another proven identity digit) reads as the new state, not the cached one.
      String edited = text.replace(identity(1), identity(2));
      Files.writeString(store.stateFile(), edited);
      ActivationState read = store.read();
      assertThat(read).isNotEqualTo(cached).isEqualTo(StateFormat.decode(edited.getBytes(UTF_8)));
    }
  }
}
