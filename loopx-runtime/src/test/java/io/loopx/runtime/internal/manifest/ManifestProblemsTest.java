package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.SOURCE;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.ManifestProblem;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Every problem at once: a manifest that parsed reports each of its independent problems, in the
 * documented order, with key, line and column; the exception is the first of them. A TOML syntax
 * error is the one problem.
 */
class ManifestProblemsTest {
  private static final String SEVERAL =
      """
      schema_version = "loopx_extension_manifest_v0"
      id = "Bad Id"
      version = "1.0.0"
      requires_loopx_api = ">=1,<2"
      permissions = ["fs.read", "fs.read"]

      [runtime]
      protocol = "demo_v0"
      entrypoint = "provider"
      timeout_seconds = 0
      colour = "blue"

      [[provides]]
      id = "demo-read"
      kind = "tool"
      title = "Read"
      status = "ready"
      user_value = "reads"
      next_real_step = "none"
      visibility = "secret"
      """;

  @Test
  void aManifestWithSeveralProblemsReportsThemAllInOrderWithKeysAndPositions() {
    ManifestException e = rejection(SEVERAL);

    assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    assertThat(e.key()).isEqualTo("id");
    assertThat(e.getMessage()).startsWith(SOURCE + ": id: invalid extension id `Bad Id`");
    List<ManifestProblem> problems = e.problems();
    assertThat(problems)
        .extracting(ManifestProblem::key)
        .containsExactly(
            "id",
            "permissions[1]",
            "runtime.colour",
            "runtime.timeout_seconds",
            "provides[0].visibility");
    assertThat(problems.get(0).message()).isEqualTo(e.getMessage());
    assertThat(problems)
        .extracting(p -> p.line().orElse(-1) + ":" + p.column().orElse(-1))
        .containsExactly("2:1", "5:27", "11:1", "10:1", "20:1");
    assertThat(problems.get(1).message())
        .isEqualTo(SOURCE + ": permissions[1]: duplicate permission `fs.read`");
    assertThat(problems.get(3).message())
        .isEqualTo(SOURCE + ": runtime.timeout_seconds: must be an integer 1..120, got 0");
    assertThat(problems.get(2).message()).isEqualTo(SOURCE + ": runtime.colour: unknown key");
    assertThat(problems.get(4).message())
        .isEqualTo(
            SOURCE + ": provides[0].visibility: must be `public` or `internal`, got `secret`");
    // Each further problem is the one a manifest with only that fault reports.
    String onlyTimeout =
        SEVERAL
            .replace("\"Bad Id\"", "\"good-id\"")
            .replace(", \"fs.read\"]", "]")
            .replace("colour = \"blue\"\n", "")
            .replace("\"secret\"", "\"public\"\nreal_world_anchor = \"a\"\nentry_command = \"b\"");
    assertThat(rejection(onlyTimeout).getMessage()).isEqualTo(problems.get(3).message());
  }

  @Test
  void theFirstProblemIsTodaysMessageAndKind() {
    ManifestException e =
        rejection(Manifests.GOLDEN.replace(">=1,<2", ">=7") + "timeout_seconds = 99999\n");
    assertThat(e.kind()).isEqualTo(ErrorKind.API_INCOMPATIBLE);
    assertThat(e.problems()).hasSize(2);
    assertThat(e.problems().get(0).message()).isEqualTo(e.getMessage());
    assertThat(e.problems().get(1).key()).isEqualTo("runtime.timeout_seconds");
    assertThat(e.problems().get(1).line()).isEqualTo(OptionalInt.of(9));
  }

  @Test
  void aMissingKeyIsPlacedAtItsTableAlsoAnImplicitOne() {
    ManifestException e =
        rejection(
            Manifests.GOLDEN.substring(0, Manifests.GOLDEN.indexOf("[runtime]"))
                + "\n[runtime.worker]\nmax_in_flight = 0\n");

    assertThat(e.problems())
        .extracting(p -> p.key() + "@" + p.line().orElse(-1) + ":" + p.column().orElse(-1))
        .containsExactly("runtime.protocol@6:1", "runtime@6:1", "runtime.worker.max_in_flight@7:1");
  }

  @Test
  void aSyntaxErrorIsTheOneProblem() {
    ManifestException e =
        rejection(SEVERAL.replace("timeout_seconds = 0", "timeout_seconds = = 0"));

    assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
    assertThat(e.getMessage())
        .isEqualTo(
            SOURCE + ": (file): is not valid TOML: line 10, column 19: expected a value, got '='");
    assertThat(e.problems())
        .containsExactly(
            new ManifestProblem(
                ManifestException.FILE_KEY,
                OptionalInt.of(10),
                OptionalInt.of(19),
                e.getMessage()));
  }

  @Test
  void aSingleProblemIsReportedAlone() {
    ManifestException e = rejection(Manifests.GOLDEN + "timeout_seconds = -1\n");
    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).message()).isEqualTo(e.getMessage());
    assertThat(e.problems().get(0).line()).isEqualTo(OptionalInt.of(9));
    assertThat(e.problems().get(0).column()).isEqualTo(OptionalInt.of(1));
  }

  @Test
  void aSnapshotReportsEveryProblemWithoutPositions() {
    ManifestException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ManifestException.class,
            () ->
                new ManifestLoader()
                    .fromNormalizedJson(
                        tools.jackson.databind.json.JsonMapper.builder()
                            .build()
                            .readTree(
                                "{\"schema_version\":\"loopx_extension_manifest_v0\",\"id\":\"Bad"
                                    + " Id\",\"version\":\"1\",\"requires_loopx_api\":\">=1\","
                                    + "\"permissions\":[7],\"runtime\":null,\"provides\":[],"
                                    + "\"implements\":[],\"presentation_surfaces\":[]}"),
                        "state"));
    // The snapshot declares nothing: a problem of its own, after the others.
    assertThat(e.problems())
        .extracting(ManifestProblem::key)
        .containsExactly("id", "permissions[0]", ManifestException.FILE_KEY);
    assertThat(e.problems()).allMatch(p -> p.line().isEmpty() && p.column().isEmpty());
  }

  @Test
  void theExceptionRefusesProblemsThatDoNotStartWithItsOwn() {
    ManifestException first = new ManifestException("m.toml", "id", "bad");
    ManifestProblem other =
        new ManifestProblem(
            "version", OptionalInt.empty(), OptionalInt.empty(), "m.toml: version: x");
    assertThatThrownBy(() -> new ManifestException(first, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ManifestException(first, List.of(other)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ManifestException(first, List.of(first.problems().get(0), other)).problems())
        .hasSize(2);
    assertThatThrownBy(
            () ->
                new ManifestProblem("id", OptionalInt.empty(), OptionalInt.of(3), "m.toml: id: x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ManifestProblem("a\nb", OptionalInt.of(1), OptionalInt.of(1), "x\ty").key())
        .isEqualTo("a\\u000Ab");
  }
}
