package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end on a real PostgreSQL server: the real {@code target/loopx.jar} with {@code
 * --state-jdbc-url} (or {@code LOOPX_STATE_JDBC_URL}) keeps its activation state in the database,
 * so separate invocations with separate runtime roots (separate hosts) share one state; {@code
 * state migrate} and {@code state import} preview unless {@code --execute}.
 */
class StatePostgresIT {
  @TempDir Path tmp;
  JarProcess loopx;
  String url;
  String manifest;

  @BeforeEach
  void setUp() throws IOException {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    url = pg.url("postgres") + "&currentSchema=" + pg.newSchema();
    loopx = new JarProcess(tmp, Map.of("LC_ALL", "C", "LANG", "C"));
    manifest = Cli.writeProvider(tmp.resolve("v1"), "demo-ext", "1.0.0").toString();
  }

  ObjectNode json(int exitCode, String... args) throws IOException, InterruptedException {
    return json(loopx, exitCode, args);
  }

  static ObjectNode json(JarProcess process, int exitCode, String... args)
      throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--format", "json"));
    Cli.Result r = process.run(all);
    assertThat(r.exitCode()).as("loopx %s: %s %s", all, r.stdout(), r.stderr()).isEqualTo(exitCode);
    assertThat(r.stderr()).isEmpty();
    return r.json();
  }

  @Test
  void migrateThenEveryInvocationSharesTheDatabaseState() throws Exception {
    ObjectNode unmigrated = json(2, "extension", "list", "--state-jdbc-url", url);
    assertThat(unmigrated.get("kind").stringValue()).isEqualTo("state_unreadable");
    assertThat(unmigrated.get("error").stringValue()).contains("migrate()");

    ObjectNode preview = json(0, "state", "migrate", "--state-jdbc-url", url);
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("schema_current").booleanValue()).isFalse();
    ObjectNode migrated = json(0, "state", "migrate", "--state-jdbc-url", url, "--execute");
    assertThat(migrated.get("installed_schema_version").intValue()).isEqualTo(1);
    ObjectNode after = json(0, "state", "migrate", "--state-jdbc-url", url);
    assertThat(after.get("schema_current").booleanValue()).isTrue();

    // host A installs with the option; host B (another runtime root) reads through the variable
    ObjectNode installed =
        json(
            0,
            "extension",
            "install",
            "--manifest",
            manifest,
            "--execute",
            "--state-jdbc-url",
            url,
            "--runtime-root",
            tmp.resolve("host-a").toString());
    assertThat(installed.get("changed").booleanValue()).isTrue();
    JarProcess hostB = new JarProcess(tmp, Map.of("LOOPX_STATE_JDBC_URL", url));
    JsonNode row = json(hostB, 0, "extension", "list").get("extensions").get(0);
    assertThat(row.get("id").stringValue()).isEqualTo("demo-ext");
    assertThat(row.get("enabled").booleanValue()).isTrue();

    ObjectNode disabled = json(hostB, 0, "extension", "disable", "demo-ext", "--execute");
    assertThat(disabled.get("enabled").booleanValue()).isFalse();
    JsonNode seenByA =
        json(0, "extension", "list", "--state-jdbc-url", url).get("extensions").get(0);
    assertThat(seenByA.get("enabled").booleanValue()).isFalse();
    // no state file anywhere: the state is in the database
    assertThat(tmp.resolve("host-a").resolve("extensions/state.json")).doesNotExist();
  }

  @Test
  void importMovesAStateFileIntoTheDatabaseOnce() throws Exception {
    Path root = tmp.resolve("file-host");
    json(
        0,
        "extension",
        "install",
        "--manifest",
        manifest,
        "--execute",
        "--runtime-root",
        "" + root);
    String stateFile = root.resolve("extensions/state.json").toString();
    json(0, "state", "migrate", "--execute", "--state-jdbc-url", url);

    ObjectNode preview = json(0, "state", "import", stateFile, "--state-jdbc-url", url);
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("added").get(0).stringValue()).isEqualTo("demo-ext");
    assertThat(json(0, "extension", "list", "--state-jdbc-url", url).get("extensions")).isEmpty();

    ObjectNode executed =
        json(0, "state", "import", stateFile, "--execute", "--state-jdbc-url", url);
    assertThat(executed.get("executed").booleanValue()).isTrue();
    ObjectNode again = json(0, "state", "import", stateFile, "--execute", "--state-jdbc-url", url);
    assertThat(again.get("added")).isEmpty();
    assertThat(again.get("identical").get(0).stringValue()).isEqualTo("demo-ext");
    assertThat(json(0, "extension", "list", "--state-jdbc-url", url).get("extensions")).hasSize(1);
  }

  @Test
  void misuseIsAUsageErrorAndAnUnreachableServerIsIoFailed() throws Exception {
    assertThat(json(2, "state", "migrate").get("kind").stringValue()).isEqualTo("usage");
    ObjectNode both =
        json(
            2, "extension", "list", "--state-jdbc-url", url, "--state-file", "" + tmp.resolve("s"));
    assertThat(both.get("kind").stringValue()).isEqualTo("usage");
    ObjectNode mysql = json(2, "extension", "list", "--state-jdbc-url", "jdbc:mysql://x/y");
    assertThat(mysql.get("kind").stringValue()).isEqualTo("usage");
    // a closed port: the connection is refused at once
    ObjectNode unreachable =
        json(2, "extension", "list", "--state-jdbc-url", "jdbc:postgresql://127.0.0.1:1/postgres");
    assertThat(unreachable.get("kind").stringValue()).isEqualTo("io_failed");
  }
}
