package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Importing a {@code state.json} into the PostgreSQL store. */
class StateImportTest {
  static final ExtensionId A = ExtensionId.of("alpha-ext");
  static final ExtensionId B = ExtensionId.of("beta-ext");

  @TempDir Path dir;
  Path stateFile;
  PostgresActivationStore target;

  @BeforeEach
  void setUp() {
    stateFile = dir.resolve("extensions").resolve("state.json");
    FileActivationStore.at(stateFile)
        .update("install", List.of(Records.install("alpha-ext"), Records.install("beta-ext")));
    target = PostgresActivationStore.of(EmbeddedPostgres.shared().freshSchema());
    target.migrate();
  }

  @Test
  void previewWritesNothingAndExecuteWritesEveryEntry() {
    StateImport.Plan preview = StateImport.fromStateFile(stateFile, target, Mode.PREVIEW);
    assertThat(preview.added()).containsExactly(A, B);
    assertThat(preview.executed()).isFalse();
    assertThat(target.read().isEmpty()).isTrue();

    StateImport.Plan done = StateImport.fromStateFile(stateFile, target, Mode.EXECUTE);
    assertThat(done.executed()).isTrue();
    assertThat(target.read()).isEqualTo(FileActivationStore.at(stateFile).read());

    StateImport.Plan again = StateImport.fromStateFile(stateFile, target, Mode.EXECUTE);
    assertThat(again.added()).isEmpty();
    assertThat(again.identical()).containsExactly(A, B);
    assertThat(again.executed()).isFalse();
  }

  @Test
  void aDifferingTargetEntryRefusesTheWholeImport() {
    ExtensionRecord a = Records.installed("alpha-ext");
    target.update(
        "disable",
        List.of(
            new EntryChange(
                A, Optional.empty(), Optional.of(ExtensionRecords.withEnabled(a, false)))));
    long generation = target.generation();

    for (Mode mode : Mode.values()) {
      assertThatThrownBy(() -> StateImport.fromStateFile(stateFile, target, mode))
          .isInstanceOfSatisfying(
              LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_CONFLICT))
          .hasMessageContaining("`alpha-ext`");
    }
    assertThat(target.read().extensions().keySet()).containsExactly(A);
    assertThat(target.generation()).isEqualTo(generation);
  }
}
