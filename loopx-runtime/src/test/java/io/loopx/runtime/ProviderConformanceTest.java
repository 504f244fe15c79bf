package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.conformance.CheckStatus;
import io.loopx.runtime.conformance.ConformanceCheck;
import io.loopx.runtime.conformance.ConformanceReceipt;
import io.loopx.runtime.conformance.ProviderConformance;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link ProviderConformance} with real processes: a conformant standard-library Python provider
 * passes every check that applies, and each way of breaking it (its {@code break} file) fails
 * exactly the checks that depend on what it breaks.
 */
class ProviderConformanceTest {
  private static final String WORKER = "[runtime.worker]\n";
  private static final List<String> ALL =
      List.of(
          "doctor_exits_zero",
          "doctor_writes_nothing",
          "envelope_missing_refused",
          "envelope_caller_made_refused",
          "envelope_mutations_refused",
          "effect_marker_absent",
          "request_one_json_object",
          "output_utf8",
          "answer_within_timeout",
          "request_at_size_cap",
          "worker_handshake",
          "worker_one_response_per_request",
          "worker_exits_on_eof");

  @TempDir Path tmp;

  @Test
  void aConformantStandaloneProviderPassesAndSkipsTheEnvelopeAndWorkerChecks() throws IOException {
    Path pkg = write(tmp.resolve("pkg"), false, 10, "", "");

    ConformanceReceipt receipt = standalone(pkg).verify();

    assertThat(receipt.ok()).as("%s", receipt.toJson()).isTrue();
    assertThat(receipt.checks()).extracting(ConformanceCheck::id).containsExactlyElementsOf(ALL);
    assertThat(ids(receipt, CheckStatus.SKIPPED))
        .containsExactlyInAnyOrder(
            "envelope_missing_refused",
            "envelope_caller_made_refused",
            "envelope_mutations_refused",
            "effect_marker_absent",
            "worker_handshake",
            "worker_one_response_per_request",
            "worker_exits_on_eof");
    assertThat(receipt.toJson().get("schema_version").asString())
        .isEqualTo("loopx_extension_verify_v0");
    assertThat(receipt.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(receipt.toJson().toString())
        .as("the wire: key order and dry_run unchanged")
        .startsWith(
            "{\"ok\":true,\"schema_version\":\"loopx_extension_verify_v0\",\"dry_run\":false,"
                + "\"extension_id\":\""
                + receipt.extensionId().value()
                + "\",\"checks\":[{\"id\":\"doctor_exits_zero\",\"status\":\"passed\",\"evidence\":");
  }

  @Test
  void aConformantImplementerWithAWorkerPassesEveryCheck() throws IOException {
    Path pkg = write(tmp.resolve("pkg"), true, 10, WORKER, "");
    Path marker = tmp.resolve("effect");

    ConformanceReceipt receipt = implementer(pkg, marker).verify();

    assertThat(ids(receipt, CheckStatus.PASSED))
        .as("%s", receipt.toJson())
        .isEqualTo(Set.copyOf(ALL));
    assertThat(marker).as("the valid request had its effect").exists();
  }

  static Stream<Arguments> breaks() {
    return Stream.of(
        Arguments.of("doctor_fails", false, Set.of("doctor_exits_zero")),
        Arguments.of("doctor_writes", false, Set.of("doctor_writes_nothing")),
        Arguments.of(
            "two_objects", false, Set.of("request_one_json_object", "request_at_size_cap")),
        Arguments.of(
            "latin1",
            false,
            Set.of("request_one_json_object", "output_utf8", "request_at_size_cap")),
        Arguments.of("small_cap", false, Set.of("request_at_size_cap")),
        Arguments.of(
            "slow",
            false,
            Set.of("request_one_json_object", "answer_within_timeout", "request_at_size_cap")),
        Arguments.of(
            "trusts_envelope",
            true,
            Set.of(
                "envelope_caller_made_refused",
                "envelope_mutations_refused",
                "effect_marker_absent")),
        Arguments.of(
            "trusts_envelope_as_worker",
            true,
            Set.of(
                "envelope_missing_refused",
                "envelope_caller_made_refused",
                "envelope_mutations_refused",
                "effect_marker_absent")),
        Arguments.of("bad_handshake", true, Set.of("worker_handshake")),
        Arguments.of("bad_features", true, Set.of("worker_handshake")),
        Arguments.of("double_response", true, Set.of("worker_one_response_per_request")),
        Arguments.of("no_exit_on_eof", true, Set.of("worker_exits_on_eof")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("breaks")
  void eachBrokenProviderFailsExactlyTheChecksItBreaks(
      String breaking, boolean implementsCapability, Set<String> failed) throws IOException {
    Path pkg = write(tmp.resolve("pkg"), implementsCapability, 2, WORKER, breaking);

    ConformanceReceipt receipt =
        implementsCapability
            ? implementer(pkg, tmp.resolve("effect")).verify()
            : standalone(pkg).verify();

    assertThat(receipt.ok()).isFalse();
    assertThat(ids(receipt, CheckStatus.FAILED)).as("%s", receipt.toJson()).isEqualTo(failed);
  }

  @Test
  void aPreviewListsTheChecksAndRunsNothing() throws IOException {
    Path pkg = write(tmp.resolve("pkg"), true, 10, "", "doctor_writes");
    Path marker = tmp.resolve("effect");

    ConformanceReceipt receipt = implementer(pkg, marker).preview();

    assertThat(receipt.mode()).isEqualTo(Mode.PREVIEW);
    assertThat(receipt.toJson().get("dry_run").booleanValue())
        .as("the wire keeps dry_run")
        .isTrue();
    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.checks()).extracting(ConformanceCheck::id).containsExactlyElementsOf(ALL);
    assertThat(receipt.checks()).allMatch(c -> c.status() == CheckStatus.SKIPPED);
    assertThat(receipt.checks().get(0).evidence()).startsWith("preview: would ");
    assertThat(receipt.checks().get(ALL.indexOf("worker_handshake")).evidence())
        .isEqualTo("not applicable: the manifest declares no [runtime.worker]");
    assertThat(marker).doesNotExist();
  }

  @Test
  void whatCannotBeCheckedAsGivenIsRefusedTyped() throws IOException {
    Path standalonePkg = write(tmp.resolve("standalone"), false, 10, "", "");
    Path implementerPkg = write(tmp.resolve("implementer"), true, 10, "", "");
    LoadedManifest implementerManifest = load(implementerPkg);
    Path marker = Files.writeString(tmp.resolve("marker"), "left over");

    assertRequestInvalid(
        () -> ProviderConformance.builder(implementerManifest, request()).build(),
        "implements a capability: give the action and scope");
    assertRequestInvalid(
        () ->
            ProviderConformance.builder(load(standalonePkg), request())
                .binding(ActionToken.of("demo.write"), scope())
                .build(),
        "implements no capability");
    ObjectNode withEnvelope = request();
    withEnvelope.putObject("execution_envelope");
    assertRequestInvalid(
        () -> ProviderConformance.builder(load(standalonePkg), withEnvelope).build(),
        "already holds `execution_envelope`");
    assertRequestInvalid(
        () -> implementer(implementerPkg, marker).verify(), "exists before any request");
  }

  // ------------------------------------------------------------------ fixtures

  private static void assertRequestInvalid(Runnable call, String message) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID))
        .hasMessageContaining(message);
  }

  private ProviderConformance standalone(Path pkg) {
    return ProviderConformance.builder(load(pkg), request()).build();
  }

  private ProviderConformance implementer(Path pkg, Path marker) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("EFFECT_MARKER", marker.toString());
    return ProviderConformance.builder(load(pkg), request())
        .binding(ActionToken.of("demo.write"), scope())
        .effectMarker(marker)
        .hostEnvironment(env)
        .build();
  }

  private static Set<String> ids(ConformanceReceipt receipt, CheckStatus status) {
    return receipt.checks().stream()
        .filter(c -> c.status() == status)
        .map(ConformanceCheck::id)
        .collect(Collectors.toSet());
  }

  private static ObjectNode request() {
    return StrictJson.parseObject(
        "{\"schema_version\":\"demo_write_request_v0\",\"text\":\"hello\",\"count\":3}"
            .getBytes(StandardCharsets.UTF_8));
  }

  private static ObjectNode scope() {
    return StrictJson.parseObject("{\"target\":\"notes\"}".getBytes(StandardCharsets.UTF_8));
  }

  private static LoadedManifest load(Path pkg) {
    return LoadedManifest.load(pkg.resolve("extension.toml"));
  }

  /** Writes the Python provider's package; {@code breaking} names the one thing it breaks. */
  private static Path write(
      Path dir, boolean implementsCapability, int timeoutSeconds, String worker, String breaking)
      throws IOException {
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    try (InputStream in =
        Objects.requireNonNull(
            ProviderConformanceTest.class.getResourceAsStream(
                "/io/loopx/runtime/conformance/provider.py"))) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("break"), breaking);
    if (implementsCapability) {
      Files.writeString(dir.resolve("implements"), "");
    }
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \"conformance-demo\"\nversion = \"1.0.0\"\n"
            + "requires_loopx_api = \">=1,<2\"\npermissions = [\"demo.write\"]\n"
            + "[runtime]\nprotocol = \"demo_write_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"demo.write\"]\n"
            + "timeout_seconds = "
            + timeoutSeconds
            + "\n"
            + worker
            + (implementsCapability
                ? "\n[[implements]]\ncapability_id = \"demo-write\"\nprotocol = \"demo_write_v0\"\n"
                : ""));
    return dir;
  }
}
