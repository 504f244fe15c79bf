package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Uninstall (docs/contract/lifecycle.md#uninstall) through the facade, real files and probes. */
class UninstallTest {
  static final ExtensionId ID = LifecycleTest.ID;

  @TempDir Path tmp;
  Path root;
  Loopx loopx;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("runtime-root");
    loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(root)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
  }

  LoadedManifest version(String version) throws IOException {
    Path dir = tmp.resolve("demo-ext-" + version);
    LifecycleTest.writeProvider(dir, version);
    return LoadedManifest.load(dir.resolve("extension.toml"));
  }

  byte[] stateBytes() throws IOException {
    return Files.readAllBytes(root.resolve("extensions").resolve("state.json"));
  }

  @Test
  void previewPredictsExecuteRemovesTheEntryAndItsHistory() throws IOException {
    Revision first = loopx.install(version("1.0.0"), Mode.EXECUTE).revision().orElseThrow();
    Revision second = loopx.upgrade(version("2.0.0"), Mode.EXECUTE).revision().orElseThrow();
    loopx.disable(ID, Mode.EXECUTE);
    byte[] before = stateBytes();

    LifecycleReceipt preview = loopx.uninstall(ID, Mode.PREVIEW);
    assertThat(preview.mode()).isEqualTo(Mode.PREVIEW);
    assertThat(preview.changed()).isFalse();
    assertThat(preview.removedRevisions()).containsExactly(first, second);
    assertThat(stateBytes()).isEqualTo(before);

    LifecycleReceipt executed = loopx.uninstall(ID, Mode.EXECUTE);
    assertThat(executed.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(executed.changed()).isTrue();
    assertThat(executed.removedRevisions()).containsExactly(first, second);
    assertThat(loopx.state().get(ID)).isEmpty();
    assertThat(loopx.list().extensions()).isEmpty();
    assertThat(loopx.registry().provider(io.loopx.api.ProviderId.of(ID.value()))).isEmpty();

    ObjectNode json = executed.toJson();
    assertThat(json.toString())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_extension_operation_v0\","
                + "\"operation\":\"uninstall\",\"dry_run\":false,\"changed\":true,"
                + "\"extension_id\":\"demo-ext\",\"removed_revisions\":[\""
                + first.value()
                + "\",\""
                + second.value()
                + "\"]}");
  }

  @Test
  void refusedWhileEnabledAndForAnUnknownIdWithTheStateUntouched() throws IOException {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    byte[] before = stateBytes();

    for (Mode mode : Mode.values()) {
      LifecycleTest.assertFails(
          () -> loopx.uninstall(ID, mode),
          ErrorKind.EXTENSION_ENABLED,
          "extension `demo-ext` is enabled; disable it before uninstalling");
      LifecycleTest.assertFails(
          () -> loopx.uninstall(ExtensionId.of("ghost-ext"), mode),
          ErrorKind.NOT_INSTALLED,
          "extension `ghost-ext` is not installed");
    }
    assertThat(stateBytes()).isEqualTo(before);
    assertThat(ErrorKind.EXTENSION_ENABLED.wireName()).isEqualTo("extension_enabled");
  }

  @Test
  void aPreviewOnAMissingStateCreatesNothing() {
    LifecycleTest.assertFails(
        () -> loopx.uninstall(ID, Mode.PREVIEW),
        ErrorKind.NOT_INSTALLED,
        "extension `demo-ext` is not installed");
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void aLaterInstallStartsFresh() throws IOException {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    Revision second = loopx.upgrade(version("2.0.0"), Mode.EXECUTE).revision().orElseThrow();
    loopx.disable(ID, Mode.EXECUTE);
    loopx.uninstall(ID, Mode.EXECUTE);

    var again = loopx.install(version("2.0.0"), Mode.EXECUTE);

    assertThat(again.previousRevision()).isEmpty();
    assertThat(again.rollbackAvailable()).contains(false);
    ExtensionRecord fresh = loopx.state().installed(ID);
    assertThat(fresh.enabled()).isTrue();
    assertThat(fresh.activeRevision()).isEqualTo(second);
    assertThat(fresh.rollbackRevision()).isEmpty();
    assertThat(fresh.revisions()).hasSize(1);
    assertThat(fresh.revisions().get(0).provenIdentities()).hasSize(1);
    assertThat(loopx.list().extensions().get(0).revisionCount()).isEqualTo(1);
    assertThat(fresh.doctorVerifiedIdentities()).hasSize(1);
  }
}
