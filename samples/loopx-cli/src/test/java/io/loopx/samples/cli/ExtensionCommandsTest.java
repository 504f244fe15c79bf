package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.testkit.DocumentedKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx extension ...} in process, with shell-script providers on the real file system:
 * every command in JSON preview, JSON execute and text output, and each documented failure.
 */
class ExtensionCommandsTest {
  @TempDir Path tmp;
  Cli cli;
  Path v1;
  Path v2;
  String manifest1;
  String manifest2;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    v1 = tmp.resolve("demo-ext-1");
    v2 = tmp.resolve("demo-ext-2");
    manifest1 = Cli.writeProvider(v1, "demo-ext", "1.0.0").toString();
    manifest2 = Cli.writeProvider(v2, "demo-ext", "2.0.0").toString();
  }

  ObjectNode installExecuted() {
    return cli.json(0, "extension", "install", "--manifest", manifest1, "--execute");
  }

  static void assertDoctor(JsonNode packet, String status) {
    // A probed packet of these standalone extensions says the isolation it ran under; a preview
    // probes nothing and has no `isolation` (docs/contract/doctor.md).
    boolean probed = !status.equals("probe_required");
    assertThat(DocumentedKeys.of(packet))
        .containsExactlyElementsOf(
            probed ? Keys.isolated(DocumentedKeys.DOCTOR) : DocumentedKeys.DOCTOR);
    if (probed) {
      assertThat(packet.get("isolation").stringValue()).isEqualTo("bwrap");
    }
    assertThat(packet.get("schema_version").stringValue()).isEqualTo("loopx_extension_doctor_v0");
    assertThat(packet.get("status").stringValue()).isEqualTo(status);
    assertThat(packet.get("external_writes_performed").booleanValue()).isFalse();
  }

  // ------------------------------------------------------------------ install

  @Test
  void installPreviewPredictsAndWritesNothing() {
    ObjectNode r = cli.json(0, "extension", "install", "--manifest", manifest1);

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.ACTIVATION);
    assertThat(r.get("ok").booleanValue()).isTrue();
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_extension_operation_v0");
    assertThat(r.get("operation").stringValue()).isEqualTo("install");
    assertThat(r.get("dry_run").booleanValue()).isTrue();
    assertThat(r.get("changed").booleanValue()).isFalse();
    assertThat(r.get("extension_id").stringValue()).isEqualTo("demo-ext");
    assertThat(r.get("version").stringValue()).isEqualTo("1.0.0");
    assertThat(r.get("revision").stringValue()).matches("[0-9a-f]+");
    assertThat(r.get("previous_revision").isNull()).isTrue();
    assertThat(r.get("enabled").isNull()).isTrue();
    assertThat(r.get("rollback_available").booleanValue()).isFalse();
    assertDoctor(r.get("doctor"), "probe_required");
    assertThat(r.get("doctor").get("probed_entrypoint_identity").stringValue())
        .matches("[0-9a-f]{64}");
    assertThat(Files.exists(cli.root)).isFalse();
  }

  @Test
  void installExecuteProbesAndActivates() {
    ObjectNode r = installExecuted();

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.ACTIVATION);
    assertThat(r.get("dry_run").booleanValue()).isFalse();
    assertThat(r.get("changed").booleanValue()).isTrue();
    assertThat(r.get("enabled").booleanValue()).isTrue();
    assertDoctor(r.get("doctor"), "ready");
    assertThat(r.get("doctor").get("verified").booleanValue()).isTrue();
    assertThat(Files.isRegularFile(cli.stateFile())).isTrue();
  }

  @Test
  void installTextIsKeyValueLinesWithAPreviewReminder() {
    Cli.Result r = cli.run("extension", "install", "--manifest", manifest1);

    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout())
        .contains("operation:")
        .containsPattern("(?m)^extension_id: +demo-ext$")
        .containsPattern("(?m)^doctor\\.status: +probe_required$")
        .contains("Preview only: nothing was changed. Add --execute to apply.")
        .doesNotContain("\u001b[");
  }

  @Test
  void installTwiceIsAlreadyInstalled() {
    installExecuted();

    ObjectNode e = cli.error("already_installed", "extension", "install", "--manifest", manifest1);
    assertThat(e.get("error").stringValue()).isEqualTo("extension `demo-ext` is already installed");
  }

  @Test
  void installOfAnEnvOptionShebangIsEntrypointUnsupportedWithExitTwo() throws IOException {
    Path script = v1.resolve("bin").resolve("provider");
    Files.writeString(script, "#!/usr/bin/env -S -u decoy sh\ncat\n");

    for (String[] args :
        List.of(
            new String[] {"extension", "install", "--manifest", manifest1},
            new String[] {"extension", "install", "--manifest", manifest1, "--execute"})) {
      ObjectNode e = cli.error("entrypoint_unsupported", args);
      assertThat(e.get("error").stringValue())
          .isEqualTo(
              "entrypoint `"
                  + script
                  + "` is unsupported: its `#!` line passes options to env (`-S -u decoy sh`)");
    }
    assertThat(Files.exists(cli.stateFile())).isFalse();
  }

  @Test
  void installWithAFailingDoctorIsDoctorNotReadyAndWritesNothing() throws IOException {
    Cli.failDoctor(v1, true);

    ObjectNode e =
        cli.error("doctor_not_ready", "extension", "install", "--manifest", manifest1, "--execute");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit, exit"
                + " code 3)");
    assertThat(e.get("doctor").get("exit_code").intValue()).isEqualTo(3);
    assertThat(e.get("doctor").get("stderr_tail").stringValue())
        .isEqualTo("missing dependency libfoo\n");
    assertThat(Files.exists(cli.stateFile())).isFalse();
  }

  /** The text format shows what the failing doctor said, under the error line. */
  @Test
  void aFailingDoctorsExitCodeAndStderrAreShownInText() throws IOException {
    Cli.failDoctor(v1, true);

    Cli.Result r = cli.run("extension", "install", "--manifest", manifest1, "--execute");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .startsWith(
            "loopx: error [doctor_not_ready]: doctor of `demo-ext` is not ready:"
                + " provider_unavailable (probe_nonzero_exit, exit code 3)\n")
        .containsPattern("(?m)^failure_kind: +probe_nonzero_exit$")
        .containsPattern("(?m)^exit_code: +3$")
        .contains("stderr_tail:\n    missing dependency libfoo\n");
  }

  @Test
  void aMissingManifestIsManifestInvalid() {
    cli.error(
        "manifest_invalid",
        "extension",
        "install",
        "--manifest",
        tmp.resolve("nope/extension.toml").toString());
  }

  @Test
  void anInvalidManifestIsManifestInvalidInText() throws IOException {
    Path bad = tmp.resolve("bad.toml");
    Files.writeString(bad, "schema_version = \"loopx_extension_manifest_v9\"\n");

    Cli.Result r = cli.run("extension", "install", "--manifest", bad.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).startsWith("loopx: error [manifest_invalid]: ").contains("bad.toml");
  }

  @Test
  void everyManifestProblemIsPrintedAfterTheFirst() throws IOException {
    Path bad = tmp.resolve("several.toml");
    Files.writeString(
        bad,
        Files.readString(Path.of(manifest1))
            .replaceFirst("(?m)^id = .*$", "id = \"Bad Id\"")
            .replace("timeout_seconds = 10", "timeout_seconds = 0"));

    Cli.Result text = cli.run("extension", "install", "--manifest", bad.toString());
    ObjectNode json =
        cli.error("manifest_invalid", "extension", "install", "--manifest", bad.toString());

    assertThat(text.exitCode()).isEqualTo(2);
    List<String> lines = text.stderr().lines().toList();
    assertThat(lines.get(0))
        .isEqualTo("loopx: error [manifest_invalid]: " + json.get("error").stringValue());
    assertThat(lines.get(0)).contains(": id: invalid extension id");
    assertThat(lines.get(1))
        .startsWith("  also: " + bad + ": runtime.timeout_seconds: must be an integer 1..")
        .endsWith(", column 1)");
    assertThat(lines).hasSize(2);
    assertThat(json.get("problems")).hasSize(2);
    assertThat(json.get("problems").get(0).get("error")).isEqualTo(json.get("error"));
    assertThat(json.get("problems").get(0).get("key").stringValue()).isEqualTo("id");
    assertThat(json.get("problems").get(1).get("key").stringValue())
        .isEqualTo("runtime.timeout_seconds");
    assertThat(json.get("problems").get(1).get("line").intValue()).isPositive();
    assertThat(json.get("problems").get(1).get("column").intValue()).isEqualTo(1);
  }

  @Test
  void aSingleManifestProblemKeepsTheErrorPacketAsItWas() {
    ObjectNode e =
        cli.error(
            "manifest_invalid",
            "extension",
            "install",
            "--manifest",
            tmp.resolve("nope/extension.toml").toString());
    assertThat(e.has("problems")).isFalse();
  }

  @Test
  void anIncompatibleApiRangeIsApiIncompatible() throws IOException {
    Path m = tmp.resolve("future.toml");
    Files.writeString(m, Files.readString(Path.of(manifest1)).replace(">=1,<2", ">=2,<3"));

    cli.error("api_incompatible", "extension", "install", "--manifest", m.toString());
  }

  // ------------------------------------------------------------------ bundled

  @Test
  void installBundledPreviewAndExecute() {
    ObjectNode preview = cli.json(0, "extension", "install", "--bundled", Cli.FIXTURE_BUNDLED_ID);
    assertThat(preview.get("extension_id").stringValue()).isEqualTo(Cli.FIXTURE_BUNDLED_ID);
    assertDoctor(preview.get("doctor"), "probe_required");

    ObjectNode executed =
        cli.json(0, "extension", "install", "--bundled", Cli.FIXTURE_BUNDLED_ID, "--execute");
    assertDoctor(executed.get("doctor"), "ready");
    assertThat(executed.get("changed").booleanValue()).isTrue();
  }

  @Test
  void anUnknownBundledIdIsManifestInvalid() {
    ObjectNode e =
        cli.error("manifest_invalid", "extension", "install", "--bundled", "no-such-ext");
    assertThat(e.get("error").stringValue()).contains("no-such-ext");
  }

  // ------------------------------------------------------------------ upgrade

  @Test
  void upgradePreviewAndExecute() {
    String first = installExecuted().get("revision").stringValue();

    ObjectNode preview = cli.json(0, "extension", "upgrade", "--manifest", manifest2);
    assertThat(DocumentedKeys.of(preview)).containsExactlyElementsOf(DocumentedKeys.ACTIVATION);
    assertThat(preview.get("operation").stringValue()).isEqualTo("upgrade");
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("changed").booleanValue()).isFalse();
    assertThat(preview.get("previous_revision").stringValue()).isEqualTo(first);
    assertThat(preview.get("enabled").isNull()).isTrue();
    assertThat(preview.get("target_identity_proven").booleanValue()).isFalse();
    assertDoctor(preview.get("doctor"), "probe_required");

    ObjectNode executed = cli.json(0, "extension", "upgrade", "--manifest", manifest2, "--execute");
    assertThat(executed.get("target_identity_proven").booleanValue()).isFalse();
    assertThat(executed.get("version").stringValue()).isEqualTo("2.0.0");
    assertThat(executed.get("changed").booleanValue()).isTrue();
    assertThat(executed.get("enabled").booleanValue()).isTrue();
    assertThat(executed.get("rollback_available").booleanValue()).isTrue();
    assertDoctor(executed.get("doctor"), "ready");
  }

  @Test
  void upgradeFailures() throws IOException {
    cli.error("not_installed", "extension", "upgrade", "--manifest", manifest2);
    installExecuted();
    ObjectNode same =
        cli.error("revision_already_active", "extension", "upgrade", "--manifest", manifest1);
    assertThat(same.get("error").stringValue())
        .isEqualTo("extension `demo-ext` revision is already active");
    Cli.failDoctor(v2, true);
    cli.error("doctor_not_ready", "extension", "upgrade", "--manifest", manifest2, "--execute");
  }

  @Test
  void upgradeText() {
    installExecuted();

    Cli.Result r = cli.run("extension", "upgrade", "--manifest", manifest2, "--execute");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .containsPattern("(?m)^operation: +upgrade$")
        .containsPattern("(?m)^doctor\\.status: +ready$")
        .doesNotContain("Preview only");
  }

  // ------------------------------------------------------------------ list

  @Test
  void listWithoutStateListsNothing() {
    ObjectNode r = cli.json(0, "extension", "list");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.LIST);
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_extension_state_v0");
    assertThat(r.get("extensions").isEmpty()).isTrue();
    assertThat(cli.run("extension", "list").stdout()).isEqualTo("No extensions installed.\n");
  }

  @Test
  void listRowsAreSortedAndCarryEveryKey() throws IOException {
    Path other = Cli.writeProvider(tmp.resolve("alpha"), "alpha-ext", "0.1.0");
    installExecuted();
    cli.json(0, "extension", "install", "--manifest", other.toString(), "--execute");
    cli.json(0, "extension", "disable", "alpha-ext", "--execute");

    ObjectNode r = cli.json(0, "extension", "list");

    assertThat(r.get("extensions").values())
        .extracting(row -> row.get("id").stringValue())
        .containsExactly("alpha-ext", "demo-ext");
    JsonNode alpha = r.get("extensions").get(0);
    assertThat(DocumentedKeys.of(alpha)).containsExactlyElementsOf(DocumentedKeys.LIST_ROW);
    assertThat(alpha.get("enabled").booleanValue()).isFalse();
    assertThat(alpha.get("doctor_verified").booleanValue()).isFalse();
    JsonNode demo = r.get("extensions").get(1);
    assertThat(demo.get("doctor_verified").booleanValue()).isTrue();
    assertThat(demo.get("revision_count").intValue()).isEqualTo(1);
  }

  @Test
  void listTextIsAnAlignedTable() {
    String revision = installExecuted().get("revision").stringValue();

    Cli.Result r = cli.run("extension", "list");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout().lines())
        .containsExactly(
            "ID        ENABLED  ACTIVE REVISION   ROLLBACK  DOCTOR    REVISIONS",
            "demo-ext  true     " + revision + "  false     verified  1");
  }

  @Test
  void anUnreadableStateIsStateUnreadable() throws IOException {
    Files.createDirectories(cli.stateFile().getParent());
    Files.writeString(cli.stateFile(), "{not json");

    cli.error("state_unreadable", "extension", "list");
    Cli.Result text = cli.run("extension", "list");
    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.stderr()).startsWith("loopx: error [state_unreadable]: ");
  }

  // ------------------------------------------------------------------ doctor

  @Test
  void doctorPreviewAndExecute() {
    installExecuted();

    ObjectNode preview = cli.json(0, "extension", "doctor", "demo-ext");
    assertDoctor(preview, "probe_required");
    assertThat(preview.get("ok").booleanValue()).isTrue();
    assertThat(preview.get("verified").booleanValue()).isFalse();

    ObjectNode executed = cli.json(0, "extension", "doctor", "demo-ext", "--execute");
    assertDoctor(executed, "ready");
    assertThat(executed.get("verified").booleanValue()).isTrue();
    assertThat(executed.get("entrypoint_identity").stringValue()).matches("[0-9a-f]{64}");
  }

  @Test
  void doctorOfABrokenProviderIsStillExitZero() throws IOException {
    installExecuted();
    Cli.failDoctor(v1, true);

    ObjectNode r = cli.json(0, "extension", "doctor", "demo-ext", "--execute");

    assertDoctor(r, "provider_unavailable");
    assertThat(r.get("failure_kind").stringValue()).isEqualTo("probe_nonzero_exit");
    assertThat(r.get("available").booleanValue()).isFalse();
  }

  @Test
  void doctorTextHighlightsTheStatusOnlyWithColour() {
    installExecuted();

    assertThat(cli.run("extension", "doctor", "demo-ext").stdout())
        .containsPattern("(?m)^status: +probe_required$");
    Cli coloured = new Cli(tmp, true);
    assertThat(coloured.run("extension", "doctor", "demo-ext", "--execute").stdout())
        .contains("\u001b[32mready\u001b[0m");
  }

  @Test
  void doctorOfAnUnknownExtensionIsNotInstalled() {
    ObjectNode e = cli.error("not_installed", "extension", "doctor", "ghost-ext");
    assertThat(e.get("error").stringValue()).isEqualTo("extension `ghost-ext` is not installed");
  }

  @Test
  void doctorAllEnabledPreview() {
    installExecuted();

    ObjectNode r = cli.json(0, "extension", "doctor", "--all-enabled");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.DOCTOR_BATCH);
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_extension_doctor_batch_v0");
    assertThat(r.get("status").stringValue()).isEqualTo("probe_required");
    assertThat(r.get("execute").booleanValue()).isFalse();
    assertThat(r.get("enabled_count").intValue()).isEqualTo(1);
    assertThat(r.get("verified_count").intValue()).isZero();
    assertThat(r.get("blocked_count").intValue()).isZero();
    assertDoctor(r.get("extensions").get(0), "probe_required");
  }

  @Test
  void doctorAllEnabledWithNothingEnabledIsReady() {
    ObjectNode r = cli.json(0, "extension", "doctor", "--all-enabled", "--execute");

    assertThat(r.get("status").stringValue()).isEqualTo("ready");
    assertThat(r.get("enabled_count").intValue()).isZero();
  }

  @Test
  void doctorAllEnabledExecuteReadyThenBlockedExitsOne() throws IOException {
    installExecuted();

    ObjectNode ready = cli.json(0, "extension", "doctor", "--all-enabled", "--execute");
    assertThat(ready.get("ok").booleanValue()).isTrue();
    assertThat(ready.get("status").stringValue()).isEqualTo("ready");
    assertThat(ready.get("verified_count").intValue()).isEqualTo(1);

    Cli.failDoctor(v1, true);
    ObjectNode blocked = cli.json(1, "extension", "doctor", "--all-enabled", "--execute");
    assertThat(blocked.get("ok").booleanValue()).isFalse();
    assertThat(blocked.get("status").stringValue()).isEqualTo("blocked");
    assertThat(blocked.get("blocked_count").intValue()).isEqualTo(1);
    assertDoctor(blocked.get("extensions").get(0), "provider_unavailable");

    Cli.Result text = cli.run("extension", "doctor", "--all-enabled", "--execute");
    assertThat(text.exitCode()).isEqualTo(1);
    assertThat(text.stdout())
        .containsPattern("(?m)^status: +blocked$")
        .containsPattern("(?m)^demo-ext +1\\.0\\.0 +provider_unavailable +false +false");
  }

  // ------------------------------------------------------------------ disable / enable

  @Test
  void disablePreviewExecuteAndNoOp() {
    String revision = installExecuted().get("revision").stringValue();

    ObjectNode preview = cli.json(0, "extension", "disable", "demo-ext");
    assertThat(DocumentedKeys.of(preview)).containsExactlyElementsOf(DocumentedKeys.DISABLE);
    assertThat(preview.get("operation").stringValue()).isEqualTo("disable");
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("changed").booleanValue()).isFalse();
    assertThat(preview.get("would_change").booleanValue()).isTrue();
    assertThat(preview.get("enabled").booleanValue()).isTrue();
    assertThat(preview.get("active_revision").stringValue()).isEqualTo(revision);

    ObjectNode executed = cli.json(0, "extension", "disable", "demo-ext", "--execute");
    assertThat(executed.get("changed").booleanValue()).isTrue();
    assertThat(executed.get("enabled").booleanValue()).isFalse();

    ObjectNode again = cli.json(0, "extension", "disable", "demo-ext", "--execute");
    assertThat(again.get("changed").booleanValue()).isFalse();
    assertThat(again.get("would_change").booleanValue()).isFalse();
  }

  @Test
  void enablePreviewAndExecute() {
    installExecuted();
    cli.json(0, "extension", "disable", "demo-ext", "--execute");

    ObjectNode preview = cli.json(0, "extension", "enable", "demo-ext");
    assertThat(DocumentedKeys.of(preview)).containsExactlyElementsOf(DocumentedKeys.ENABLE);
    assertThat(preview.get("operation").stringValue()).isEqualTo("enable");
    assertThat(preview.get("would_change").booleanValue()).isTrue();
    assertThat(preview.get("enabled").booleanValue()).isFalse();
    assertDoctor(preview.get("doctor"), "probe_required");

    ObjectNode executed = cli.json(0, "extension", "enable", "demo-ext", "--execute");
    assertThat(executed.get("changed").booleanValue()).isTrue();
    assertThat(executed.get("enabled").booleanValue()).isTrue();
    assertDoctor(executed.get("doctor"), "ready");
  }

  @Test
  void enableWithAFailingDoctorIsDoctorNotReady() throws IOException {
    installExecuted();
    cli.json(0, "extension", "disable", "demo-ext", "--execute");
    Cli.failDoctor(v1, true);

    ObjectNode e = cli.error("doctor_not_ready", "extension", "enable", "demo-ext", "--execute");

    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "enable doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit,"
                + " exit code 3)");
    assertThat(
            cli.json(0, "extension", "list").get("extensions").get(0).get("enabled").booleanValue())
        .isFalse();
  }

  @Test
  void enableAndDisableText() {
    installExecuted();

    assertThat(cli.run("extension", "disable", "demo-ext", "--execute").stdout())
        .containsPattern("(?m)^enabled: +false$");
    assertThat(cli.run("extension", "enable", "demo-ext", "--execute").stdout())
        .containsPattern("(?m)^enabled: +true$")
        .containsPattern("(?m)^doctor\\.status: +ready$");
  }

  @Test
  void toggleFailures() {
    cli.error("not_installed", "extension", "enable", "ghost-ext");
    cli.error("not_installed", "extension", "disable", "ghost-ext", "--execute");
  }

  // ------------------------------------------------------------------ uninstall

  @Test
  void uninstallPreviewExecuteAndReinstall() {
    String revision = installExecuted().get("revision").stringValue();
    cli.error("extension_enabled", "extension", "uninstall", "demo-ext", "--execute");
    cli.json(0, "extension", "disable", "demo-ext", "--execute");

    ObjectNode preview = cli.json(0, "extension", "uninstall", "demo-ext");
    assertThat(DocumentedKeys.of(preview)).containsExactlyElementsOf(DocumentedKeys.UNINSTALL);
    assertThat(preview.get("operation").stringValue()).isEqualTo("uninstall");
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("changed").booleanValue()).isFalse();
    assertThat(preview.get("removed_revisions").get(0).stringValue()).isEqualTo(revision);
    assertThat(cli.json(0, "extension", "list").get("extensions")).hasSize(1);

    ObjectNode executed = cli.json(0, "extension", "uninstall", "demo-ext", "--execute");
    assertThat(executed.get("changed").booleanValue()).isTrue();
    assertThat(cli.json(0, "extension", "list").get("extensions")).isEmpty();
    cli.error("not_installed", "extension", "uninstall", "demo-ext", "--execute");

    ObjectNode again = installExecuted();
    assertThat(again.get("previous_revision").isNull()).isTrue();
  }

  @Test
  void uninstallText() {
    installExecuted();
    cli.json(0, "extension", "disable", "demo-ext", "--execute");

    Cli.Result preview = cli.run("extension", "uninstall", "demo-ext");
    assertThat(preview.exitCode()).isZero();
    assertThat(preview.stdout())
        .containsPattern("(?m)^operation: +uninstall$")
        .containsPattern("(?m)^removed_revisions: +\\[[0-9a-f]+\\]$")
        .contains("Preview only: nothing was changed. Add --execute to apply.");
    Cli.Result refused = cli.run("extension", "uninstall", "ghost-ext", "--execute");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr())
        .startsWith("loopx: error [not_installed]: extension `ghost-ext` is not installed");
  }

  // ------------------------------------------------------------------ rollback

  @Test
  void rollbackPreviewExecuteAndToggleBack() {
    String first = installExecuted().get("revision").stringValue();
    String second =
        cli.json(0, "extension", "upgrade", "--manifest", manifest2, "--execute")
            .get("revision")
            .stringValue();

    ObjectNode preview = cli.json(0, "extension", "rollback", "demo-ext");
    assertThat(DocumentedKeys.of(preview)).containsExactlyElementsOf(DocumentedKeys.ROLLBACK);
    assertThat(preview.get("operation").stringValue()).isEqualTo("rollback");
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("changed").booleanValue()).isFalse();
    assertThat(preview.get("revision").stringValue()).isEqualTo(first);
    assertThat(preview.get("previous_revision").stringValue()).isEqualTo(second);
    // Both versions' packages hold the same provider bytes: install proved them for 1.0.0.
    assertThat(preview.get("target_identity_proven").booleanValue()).isTrue();
    assertDoctor(preview.get("doctor"), "probe_required");

    ObjectNode executed = cli.json(0, "extension", "rollback", "demo-ext", "--execute");
    assertThat(executed.get("changed").booleanValue()).isTrue();
    assertThat(executed.get("version").stringValue()).isEqualTo("1.0.0");
    assertThat(executed.get("enabled").booleanValue()).isTrue();
    assertDoctor(executed.get("doctor"), "ready");

    ObjectNode back = cli.json(0, "extension", "rollback", "demo-ext", "--execute");
    assertThat(back.get("revision").stringValue()).isEqualTo(second);
    assertThat(cli.run("extension", "rollback", "demo-ext").stdout())
        .containsPattern("(?m)^operation: +rollback$");
  }

  @Test
  void rollbackAfterAnInPlaceUpdateSaysTheTargetIdentityIsUnproven() throws IOException {
    installExecuted();
    // 2.0.0 copied over 1.0.0's directory, with provider code of its own.
    Cli.writeProvider(v1, "demo-ext", "2.0.0");
    Path script = v1.resolve("bin/provider");
    Files.writeString(script, Files.readString(script) + "# 2.0.0\n");
    cli.json(0, "extension", "upgrade", "--manifest", manifest1, "--execute");
    assertThat(cli.run("extension", "rollback", "demo-ext").stdout())
        .containsPattern("(?m)^target_identity_proven: +false$");

    ObjectNode executed = cli.json(0, "extension", "rollback", "demo-ext", "--execute");

    assertThat(DocumentedKeys.of(executed)).containsExactlyElementsOf(DocumentedKeys.ROLLBACK);
    assertThat(executed.get("version").stringValue()).isEqualTo("1.0.0");
    assertThat(executed.get("target_identity_proven").booleanValue()).isFalse();
    assertDoctor(executed.get("doctor"), "ready");
    // Rolling forward: the code at the saved path is the one proven for 2.0.0.
    assertThat(
            cli.json(0, "extension", "rollback", "demo-ext")
                .get("target_identity_proven")
                .booleanValue())
        .isTrue();
  }

  @Test
  void rollbackFailures() throws IOException {
    cli.error("not_installed", "extension", "rollback", "demo-ext");
    installExecuted();
    ObjectNode none = cli.error("no_rollback_revision", "extension", "rollback", "demo-ext");
    assertThat(none.get("error").stringValue())
        .isEqualTo("extension `demo-ext` has no rollback revision");
    cli.json(0, "extension", "upgrade", "--manifest", manifest2, "--execute");
    Cli.failDoctor(v1, true);
    ObjectNode e = cli.error("doctor_not_ready", "extension", "rollback", "demo-ext", "--execute");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "rollback doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit,"
                + " exit code 3)");
  }

  // ------------------------------------------------------------------ state location

  @Test
  void stateFileOverridesTheRuntimeRoot() {
    Path file = tmp.resolve("elsewhere").resolve("my-state.json");

    cli.json(
        0,
        "extension",
        "install",
        "--manifest",
        manifest1,
        "--execute",
        "--state-file",
        file.toString());

    assertThat(Files.isRegularFile(file)).isTrue();
    assertThat(Files.exists(cli.stateFile())).isFalse();
    ObjectNode list =
        cli.raw("extension", "list", "--format", "json", "--state-file", file.toString()).json();
    assertThat(list.get("extensions").size()).isEqualTo(1);
  }

  @Test
  void theDefaultRuntimeRootIsDotLoopxUnderTheHome() {
    Cli.Result r =
        cli.raw("extension", "install", "--manifest", manifest1, "--execute", "--format", "json");

    assertThat(r.exitCode()).isZero();
    assertThat(
            Files.isRegularFile(
                tmp.resolve("home").resolve(".loopx").resolve("extensions").resolve("state.json")))
        .isTrue();
  }
}
