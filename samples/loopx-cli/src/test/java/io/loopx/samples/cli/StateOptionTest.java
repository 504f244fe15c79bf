package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which state an invocation uses (docs/contract/cli.md#postgresql-state), without a server: a URL
 * on a closed port shows the PostgreSQL state was chosen ({@code io_failed}), an empty list that
 * the file state was. The end-to-end cases on a real server are {@code StatePostgresIT}.
 */
class StateOptionTest {
  static final String CLOSED = "jdbc:postgresql://127.0.0.1:1/postgres";

  @TempDir Path tmp;

  ObjectNode run(Map<String, String> variables, int exitCode, String... args) {
    CliEnvironment environment =
        new CliEnvironment(
            tmp.resolve("home"), false, Map.of(), Optional.empty(), tmp, false, variables);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoopxCli.execute(args, out, err, () -> environment);
    Cli.Result r =
        new Cli.Result(
            code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    assertThat(r.exitCode()).as("%s %s", List.of(args), r.stdout()).isEqualTo(exitCode);
    return r.json();
  }

  @Test
  void theVariableNamesTheDatabaseWhenNoStateOptionIsGiven() {
    Map<String, String> variables = Map.of("LOOPX_STATE_JDBC_URL", CLOSED);
    ObjectNode viaVariable = run(variables, 2, "extension", "list", "--format", "json");
    assertThat(viaVariable.get("kind").stringValue()).isEqualTo("io_failed");
    assertThat(viaVariable.get("error").stringValue()).contains("PostgreSQL");

    ObjectNode fileState =
        run(variables, 0, "extension", "list", "--runtime-root", "" + tmp, "--format", "json");
    assertThat(fileState.get("extensions")).isEmpty();

    ObjectNode viaOption =
        run(
            Map.of(),
            2,
            "--state-jdbc-url",
            CLOSED,
            "extension",
            "list",
            "--runtime-root",
            "" + tmp,
            "--format",
            "json");
    assertThat(viaOption.get("kind").stringValue()).isEqualTo("io_failed");
  }

  @Test
  void misuseIsAUsageError() {
    for (List<String> args :
        List.of(
            List.of("extension", "list", "--state-jdbc-url", CLOSED, "--state-file", "s.json"),
            List.of("extension", "list", "--state-jdbc-url", "jdbc:mysql://localhost/x"),
            List.of("state", "migrate"),
            List.of("state", "import", "state.json", "--runtime-root", "" + tmp))) {
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of("--format", "json"));
      ObjectNode packet = run(Map.of(), 2, all.toArray(new String[0]));
      assertThat(packet.get("kind").stringValue()).as("%s", args).isEqualTo("usage");
    }
  }
}
