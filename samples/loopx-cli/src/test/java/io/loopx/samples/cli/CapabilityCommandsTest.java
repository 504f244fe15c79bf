package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.testkit.DocumentedKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code loopx capability list|show}: the sample catalog, declarations, installed extensions. */
class CapabilityCommandsTest {
  @TempDir Path tmp;
  Cli cli;
  Path implementer;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    implementer = tmp.resolve("recall-pkg");
    Cli.writeProvider(implementer, "recall-ext", "1.0.0");
    Files.writeString(
        implementer.resolve("extension.toml"),
        """
        [[implements]]
        capability_id = "semantic-preference"
        protocol = "demo_ext_v0"
        [[provides]]
        id = "recall-notes"
        kind = "note_index"
        title = "Recall notes"
        status = "experimental"
        user_value = "Find notes by meaning."
        next_real_step = "Index the notes folder."
        real_world_anchor = "A user searches last week's meeting notes."
        entry_command = "loopx capability show recall-notes"
        """,
        StandardOpenOption.APPEND);
  }

  String manifest() {
    return implementer.resolve("extension.toml").toString();
  }

  static JsonNode capability(ObjectNode catalog, String id) {
    for (JsonNode c : catalog.get("capabilities").values()) {
      if (c.get("id").stringValue().equals(id)) {
        return c;
      }
    }
    throw new AssertionError("no capability " + id + " in " + catalog);
  }

  @Test
  void thePublicCatalogListsTheSampleContractOnly() {
    ObjectNode r = cli.json(0, "capability", "list");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.CATALOG);
    assertThat(r.get("ok").booleanValue()).isTrue();
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_capability_catalog_v0");
    assertThat(r.get("capabilities").values())
        .extracting(c -> c.get("id").stringValue())
        .containsExactly("semantic-preference");
    JsonNode c = r.get("capabilities").get(0);
    assertThat(DocumentedKeys.of(c)).containsExactlyElementsOf(DocumentedKeys.CAPABILITY);
    assertThat(DocumentedKeys.of(c.get("provider_state")))
        .containsExactlyElementsOf(DocumentedKeys.PROVIDER_STATE);
    assertThat(c.get("origin").stringValue()).isEqualTo("builtin");
    assertThat(c.get("visibility").stringValue()).isEqualTo("public");
    assertThat(c.get("provider_id").stringValue()).isEqualTo("loopx-core");
    assertThat(c.get("implementation_provider_count").intValue()).isZero();
    assertThat(c.get("entry_command").stringValue()).startsWith("loopx semantic-preference recall");
    JsonNode p = r.get("providers").get(0);
    assertThat(DocumentedKeys.of(p)).containsExactlyElementsOf(DocumentedKeys.PROVIDER);
    assertThat(p.get("id").stringValue()).isEqualTo("loopx-core");
    assertThat(p.get("ready").booleanValue()).isTrue();
  }

  @Test
  void includeInternalAddsTheInternalCapability() {
    ObjectNode r = cli.json(0, "capability", "list", "--include-internal");

    assertThat(r.get("capabilities").values())
        .extracting(c -> c.get("id").stringValue())
        .containsExactly("semantic-preference", "catalog-health");
    JsonNode internal = capability(r, "catalog-health");
    assertThat(internal.get("visibility").stringValue()).isEqualTo("internal");
    assertThat(internal.get("real_world_anchor").isNull()).isTrue();
    assertThat(internal.get("entry_command").isNull()).isTrue();
  }

  @Test
  void declaredManifestsJoinTheCatalogWithoutInstalling() {
    ObjectNode r = cli.json(0, "capability", "list", "--extension-manifest", manifest());

    JsonNode notes = capability(r, "recall-notes");
    assertThat(notes.get("origin").stringValue()).isEqualTo("extension");
    assertThat(notes.get("provider_id").stringValue()).isEqualTo("recall-ext");
    assertThat(notes.get("provider_state").get("declared").booleanValue()).isTrue();
    assertThat(notes.get("provider_state").get("installed").booleanValue()).isFalse();
    assertThat(capability(r, "semantic-preference").get("implementation_provider_count").intValue())
        .isEqualTo(1);
    assertThat(Files.exists(cli.root)).isFalse();
  }

  @Test
  void theExtensionManifestOptionRepeats() throws IOException {
    Path other = Cli.writeProvider(tmp.resolve("other"), "other-ext", "1.0.0");

    ObjectNode r =
        cli.json(
            0,
            "capability",
            "list",
            "--extension-manifest",
            manifest(),
            "--extension-manifest",
            other.toString());

    assertThat(r.get("providers").values())
        .extracting(p -> p.get("id").stringValue())
        .containsExactly("loopx-core", "recall-ext", "other-ext");
  }

  @Test
  void installedExtensionsAreReadyInTheCatalog() {
    cli.json(0, "extension", "install", "--manifest", manifest(), "--execute");

    ObjectNode r = cli.json(0, "capability", "list");

    JsonNode state = capability(r, "recall-notes").get("provider_state");
    assertThat(state.get("installed").booleanValue()).isTrue();
    assertThat(state.get("enabled").booleanValue()).isTrue();
    assertThat(state.get("ready").booleanValue()).isTrue();
  }

  @Test
  void aConflictingDeclarationIsCatalogConflict() throws IOException {
    Path dup = tmp.resolve("dup");
    Cli.writeProvider(dup, "dup-ext", "1.0.0");
    Files.writeString(
        dup.resolve("extension.toml"),
        """
        [[provides]]
        id = "semantic-preference"
        kind = "recall_contract"
        title = "Another"
        status = "x"
        visibility = "internal"
        user_value = "x"
        next_real_step = "x"
        """,
        StandardOpenOption.APPEND);

    cli.error(
        "catalog_conflict",
        "capability",
        "list",
        "--extension-manifest",
        dup.resolve("extension.toml").toString());
  }

  @Test
  void listText() {
    Cli.Result r = cli.run("capability", "list", "--include-internal");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout().lines())
        .contains(
            "Capabilities",
            "Providers",
            "PROVIDER    ORIGIN   DECLARED  INSTALLED  ENABLED  READY  VERSION")
        .anySatisfy(
            l ->
                assertThat(l)
                    .matches(
                        "semantic-preference +public +builtin +loopx-core +true +0 +Semantic preference recall"))
        .anySatisfy(l -> assertThat(l).startsWith("catalog-health       internal"));
  }

  @Test
  void showAPublicCapability() {
    ObjectNode r =
        cli.json(
            0, "capability", "show", "semantic-preference", "--extension-manifest", manifest());

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.DETAIL);
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_capability_detail_v0");
    JsonNode c = r.get("capability");
    assertThat(DocumentedKeys.of(c))
        .startsWith(DocumentedKeys.CAPABILITY.toArray(new String[0]))
        .endsWith("kind", "provider_version", "implementation_providers");
    assertThat(c.get("kind").stringValue()).isEqualTo("recall_contract");
    JsonNode impl = c.get("implementation_providers").get(0);
    assertThat(DocumentedKeys.of(impl)).containsExactlyElementsOf(DocumentedKeys.IMPLEMENTATION);
    assertThat(impl.get("provider_id").stringValue()).isEqualTo("recall-ext");
    assertThat(impl.get("protocol").stringValue()).isEqualTo("demo_ext_v0");
  }

  @Test
  void showAnInternalCapabilityNeedsIncludeInternal() {
    ObjectNode e = cli.error("resolution_failed", "capability", "show", "catalog-health");
    assertThat(e.get("error").stringValue()).isEqualTo("unknown capability `catalog-health`");

    ObjectNode r = cli.json(0, "capability", "show", "catalog-health", "--include-internal");
    assertThat(r.get("capability").get("visibility").stringValue()).isEqualTo("internal");
  }

  @Test
  void showAnUnknownCapability() {
    cli.error("resolution_failed", "capability", "show", "no-such-capability");
    Cli.Result text = cli.run("capability", "show", "no-such-capability");
    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.stderr())
        .isEqualTo("loopx: error [resolution_failed]: unknown capability `no-such-capability`\n");
  }

  @Test
  void showText() {
    Cli.Result r = cli.run("capability", "show", "semantic-preference");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .containsPattern("(?m)^id: +semantic-preference$")
        .containsPattern("(?m)^kind: +recall_contract$")
        .containsPattern("(?m)^provider_state\\.ready: +true$");
  }

  @Test
  void anUnreadableStateFailsTheCatalog() throws IOException {
    Files.createDirectories(cli.stateFile().getParent());
    Files.writeString(cli.stateFile(), "[]");

    cli.error("state_unreadable", "capability", "list");
    cli.error("state_unreadable", "capability", "show", "semantic-preference");
  }
}
