package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx extension verify --bundled ID --execute} with the real {@code target/loopx.jar}:
 * every sample provider passes every check that applies, and nothing is installed.
 */
class ExtensionVerifyIT {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"loopx-text-stats", "semantic-preference-local"})
  void everySampleProviderPasses(String id) throws Exception {
    Path root = tmp.resolve("runtime-root");
    JarProcess loopx = new JarProcess(tmp, Map.of());
    List<String> args =
        new ArrayList<>(
            List.of(
                "extension",
                "verify",
                "--bundled",
                id,
                "--execute",
                "--runtime-root",
                root.toString(),
                "--format",
                "json"));

    Cli.Result r = loopx.run(args);

    assertThat(r.exitCode()).as("%s %s", r.stdout(), r.stderr()).isZero();
    ObjectNode receipt = r.json();
    assertThat(receipt.get("ok").booleanValue()).isTrue();
    List<String> passed = new ArrayList<>();
    for (JsonNode check : receipt.get("checks").values()) {
      assertThat(check.get("status").stringValue()).as("%s", check).isNotEqualTo("failed");
      if (check.get("status").stringValue().equals("passed")) {
        passed.add(check.get("id").stringValue());
      }
    }
    assertThat(passed)
        .contains(
            "doctor_exits_zero",
            "doctor_writes_nothing",
            "request_one_json_object",
            "output_utf8",
            "answer_within_timeout",
            "request_at_size_cap");
    if (id.equals("semantic-preference-local")) {
      assertThat(passed)
          .contains(
              "envelope_missing_refused",
              "envelope_caller_made_refused",
              "envelope_mutations_refused");
    }
    assertThat(root).as("nothing was installed").doesNotExist();
  }
}
