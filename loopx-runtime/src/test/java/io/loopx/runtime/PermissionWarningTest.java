package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code warnings} of install and upgrade receipts (docs/contract/lifecycle.md): an extension
 * with {@code [[implements]]} whose runtime requires none of its permissions installs, with a
 * warning, and is then refused by every dispatch's permission contract.
 */
class PermissionWarningTest {
  static final String WARNING =
      "extension `beta` implements `demo-recall` but its runtime requires none of its"
          + " permissions, so no dispatch can pass the permission contract: name the permission an"
          + " operation needs in both `permissions` and `runtime.required_permissions`";

  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();

  @BeforeEach
  void setUp() {
    host.tmp = tmp;
  }

  @Test
  void anImplementationWhoseRuntimeRequiresNoPermissionIsInstalledWithAWarning()
      throws IOException {
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    Path beta = host.provider("beta", "[\"demo.read\"]", "[]");
    LoadedManifest manifest = LoadedManifest.load(beta.resolve("extension.toml"));

    LifecycleReceipt preview = loopx.install(manifest, Mode.PREVIEW);
    assertThat(preview.warnings()).containsExactly(WARNING);
    LifecycleReceipt installed = loopx.install(manifest, Mode.EXECUTE);
    assertThat(installed.warnings()).containsExactly(WARNING);
    assertThat(installed.toJson().get("warnings").get(0).stringValue()).isEqualTo(WARNING);
    assertThat(installed.doctor().orElseThrow().ready()).isTrue();

    // What the warning predicts: the permission contract refuses every dispatch.
    DispatchTest.assertFails(
        () ->
            loopx.dispatch(
                DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE),
        ErrorKind.PERMISSION_DENIED,
        "extension `beta` runtime does not require permission `demo.read`");
    assertThat(Files.exists(beta.resolve("stdin.json"))).isFalse();

    // The upgrade that names the permission in both lists has no warning and dispatches.
    String toml = Files.readString(beta.resolve("extension.toml"));
    Files.writeString(
        beta.resolve("extension.toml"),
        toml.replace("version = \"1.0.0\"", "version = \"1.1.0\"")
            .replace("required_permissions = []", "required_permissions = [\"demo.read\"]"));
    LifecycleReceipt upgraded =
        loopx.upgrade(LoadedManifest.load(beta.resolve("extension.toml")), Mode.EXECUTE);
    assertThat(upgraded.warnings()).isEmpty();
    assertThat(upgraded.toJson().get("warnings").isArray()).isTrue();
    assertThat(upgraded.toJson().get("warnings").isEmpty()).isTrue();
    assertThat(
            loopx
                .dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE)
                .ok())
        .isTrue();
  }

  @Test
  void anExtensionWithoutImplementationsGetsNoWarning() throws IOException {
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    Path gamma = host.provider("gamma", "[]", "[]");
    Path toml = gamma.resolve("extension.toml");
    String text = Files.readString(toml);
    Files.writeString(toml, text.substring(0, text.indexOf("[[implements]]")));
    assertThat(loopx.install(LoadedManifest.load(toml), Mode.EXECUTE).warnings()).isEmpty();
  }
}
