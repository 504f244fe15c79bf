package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.assertFails;
import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.run.RunFixture.Spec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The preconditions of docs/contract/run.md, in order, in previews and executes alike, all before
 * any process starts (every provider here writes a marker when it starts).
 */
class RunPreconditionsTest {
  static final byte[] REQUEST = utf8("{\"text\":\"hi\"}");
  static final String OK_BODY = "echo '{\"ok\":true}'";
  static final String PROVIDES =
      """
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
      """;
  static final String IMPLEMENTS =
      """
      [[implements]]
      capability_id = "demo-cap"
      protocol = "demo_run_v0"
      """;

  @TempDir Path tmp;

  RunFixture fixture;

  void assertRunFails(ExtensionId id, ErrorKind kind, String message) {
    for (Mode mode : Mode.values()) {
      assertFails(() -> fixture.loopx.run(RunRequest.of(id, REQUEST), mode), kind, message);
    }
  }

  @Test
  void anUninstalledExtensionIsNotInstalledAndNothingIsCreated() {
    fixture = new RunFixture(tmp);

    assertRunFails(
        ExtensionId.of("demo-run"),
        ErrorKind.NOT_INSTALLED,
        "extension `demo-run` is not installed");
    assertThat(tmp.resolve("root")).doesNotExist();
  }

  @Test
  void aDisabledExtensionIsRejectedBeforeStaleness() throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY));
    fixture.loopx.disable(id, Mode.EXECUTE);
    Files.writeString(fixture.script("demo-run"), "\n# changed\n", StandardOpenOption.APPEND);

    assertRunFails(id, ErrorKind.EXTENSION_DISABLED, "extension `demo-run` is disabled");
    assertThat(fixture.startedMarker("demo-run")).doesNotExist();
  }

  @Test
  void aChangedLauncherMakesTheProofStaleUntilTheDoctorRunsAgain() throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY));
    Files.writeString(fixture.script("demo-run"), "\n# changed\n", StandardOpenOption.APPEND);
    String stale =
        "extension `demo-run` doctor readiness is stale; run the doctor of extension `demo-run`"
            + " with execute";

    assertRunFails(id, ErrorKind.DOCTOR_STALE, stale);
    assertThat(fixture.startedMarker("demo-run")).doesNotExist();

    fixture.loopx.doctor(id, Mode.EXECUTE);
    assertThat(fixture.loopx.run(RunRequest.of(id, REQUEST), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void aMissingLauncherIsStale() throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY));
    Files.delete(fixture.script("demo-run"));

    assertRunFails(id, ErrorKind.DOCTOR_STALE, "doctor readiness is stale");
  }

  @Test
  void aLauncherMadeNonExecutableIsStale() throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY));
    Files.setPosixFilePermissions(
        fixture.script("demo-run"), PosixFilePermissions.fromString("rw-r--r--"));

    assertRunFails(id, ErrorKind.DOCTOR_STALE, "doctor readiness is stale");
    assertThat(fixture.startedMarker("demo-run")).doesNotExist();
  }

  static Stream<Arguments> notStandalone() {
    return Stream.of(
        Arguments.of(PROVIDES, "[[provides]]"),
        Arguments.of(PROVIDES + IMPLEMENTS, "[[provides]] and [[implements]]"));
  }

  @ParameterizedTest
  @MethodSource("notStandalone")
  void aCapabilityProviderIsNotRunHereEvenWithPermissions(String tables, String declared)
      throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id =
        fixture.install(
            Spec.of("demo-run", OK_BODY)
                .tables(tables)
                .permissions(List.of("demo.read"), List.of("demo.read")));

    assertRunFails(
        id,
        ErrorKind.RESOLUTION_FAILED,
        "run only accepts standalone extensions; invoke capability providers through their"
            + " capability or domain command (extension `demo-run` declares "
            + declared
            + ")");
    assertThat(fixture.startedMarker("demo-run")).doesNotExist();
  }

  @Test
  void aStaleCapabilityProviderReportsStalenessFirst() throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY).tables(PROVIDES));
    Files.delete(fixture.script("demo-run"));

    assertRunFails(id, ErrorKind.DOCTOR_STALE, "doctor readiness is stale");
  }

  static Stream<Arguments> permissionStrings() {
    return Stream.of(
        Arguments.of(List.of("read"), List.of()),
        Arguments.of(List.of("write"), List.of("write")),
        Arguments.of(List.of("send"), List.of()),
        Arguments.of(List.of("publish"), List.of("publish")),
        Arguments.of(List.of("manage"), List.of()),
        Arguments.of(List.of("semantic_preference.read"), List.of()),
        Arguments.of(List.of("lark.message.send", "lark.inbox.read"), List.of("lark.inbox.read")),
        Arguments.of(List.of("x"), List.of()),
        Arguments.of(List.of("a permission with spaces"), List.of()),
        Arguments.of(List.of("日本語.読み取り"), List.of()),
        Arguments.of(List.of("*"), List.of("*")),
        Arguments.of(List.of("none"), List.of()),
        Arguments.of(List.of("effects:all/any-thing"), List.of()));
  }

  /**
   * The seed's named test ({@code test_extension_run_rejects_any_declared_permission_before_
   * invocation}): any declared permission, in the manifest or also required by the runtime, is
   * rejected, and the marker proves the provider never started.
   */
  @ParameterizedTest
  @MethodSource("permissionStrings")
  void aPermissionedExtensionIsRejectedBeforeInvocation(
      List<String> declared, List<String> required) throws IOException {
    fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", OK_BODY).permissions(declared, required));

    assertRunFails(id, ErrorKind.PERMISSION_DENIED, "standalone extension run grants no");
    assertRunFails(
        id,
        ErrorKind.PERMISSION_DENIED,
        "extension `demo-run` declares permissions " + declared + ";");
    assertThat(fixture.startedMarker("demo-run")).doesNotExist();
  }
}
