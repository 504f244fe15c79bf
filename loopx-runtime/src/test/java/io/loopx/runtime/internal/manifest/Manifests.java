package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.manifest.ManifestException;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Shared test fixtures: a manifest that uses every table, and parse helpers. */
final class Manifests {
  static final ManifestLoader LOADER = new ManifestLoader();
  static final Path DIR = Path.of("manifests");
  static final String SOURCE = "test/extension.toml";

  /** A valid manifest that exercises every table and most keys. */
  static final String FULL =
      """
      schema_version = "loopx_extension_manifest_v0"
      id = "demo-ext"
      version = "1.2.3"
      requires_loopx_api = ">=1,<2"
      permissions = ["demo.read", "demo.write"]

      [runtime]
      protocol = "demo_provider_v0"
      entrypoint = "bin/demo"
      args = ["--serve"]
      doctor_args = ["--doctor"]
      required_permissions = ["demo.read"]
      timeout_seconds = 45

      [[presentation_surfaces]]
      id = "demo-board"
      kind = "dashboard"
      title = "Demo board"
      view_schema = "demo_view_v0"
      view_validator = "io.example.DemoView#validate"
      visibility = "public-safe"
      empty_state_title = "Nothing yet"
      empty_state_detail = "Run the demo first."

      [[provides]]
      id = "demo-cap"
      kind = "projection_sink"
      title = "Demo capability"
      status = "active"
      visibility = "public"
      real_world_anchor = "a real thing"
      user_value = "value"
      entry_command = "loopx demo run"
      next_real_step = "ship it"
      tags = ["a", "b"]

      [[implements]]
      capability_id = "semantic-preference"
      protocol = "demo_provider_v0"
      """;

  /** The golden manifest of docs/contract/manifest.md ("Golden vector"). */
  static final String GOLDEN =
      """
      schema_version = "loopx_extension_manifest_v0"
      id = "golden-example"
      version = "1.0.0"
      requires_loopx_api = ">=1,<2"
      [runtime]
      protocol = "golden_example_v0"
      entrypoint = "golden-provider"
      doctor_args = ["--doctor"]
      """;

  private Manifests() {}

  static LoadedManifest parse(String toml) {
    return LoadedManifest.parse(toml.getBytes(StandardCharsets.UTF_8), SOURCE, DIR);
  }

  static ManifestException rejection(String toml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> parse(toml));
    assertThat(e).as("expected a ManifestException for:%n%s", toml).isNotNull();
    assertThat(e.source()).isEqualTo(SOURCE);
    assertThat(e.getMessage()).startsWith(SOURCE + ": " + e.key() + ": ");
    return e;
  }

  /** Returns {@code base} with {@code from} replaced, failing if {@code from} does not occur. */
  static String edit(String base, String from, String to) {
    assertThat(base).as("fixture must contain the edited text").contains(from);
    return base.replace(from, to);
  }
}
