package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.spi.Isolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@link Loopx.Builder#isolation} end to end with a real {@code sh} provider: the doctor probe and
 * the run isolated as the calls are, {@code isolation} in the run receipt and the doctor packet,
 * the tool folded into the runtime identity (a proof made without isolation is stale under it), and
 * a host whose policy is off unchanged.
 */
class IsolationFacadeTest {
  private static final ExtensionId ID = ExtensionId.of("isolated-ext");

  @TempDir Path tmp;
  private final List<Loopx> opened = new ArrayList<>();

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  /** A standalone provider that tries to append to the state file and reports who it ran as. */
  private Path writePackage(Path state) throws IOException {
    // World-traversable: the isolated provider runs as an unprivileged uid.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = Files.createDirectories(tmp.resolve("pkg").resolve("bin"));
    Files.setPosixFilePermissions(dir.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Path script = dir.resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "if [ \"$1\" = \"--doctor\" ]; then\n"
            + "  exit 0\n"
            + "fi\n"
            + "cat > /dev/null\n"
            + "if echo x >> '"
            + state
            + "' 2>/dev/null; then s=written; else s=refused; fi\n"
            + "c=$(grep CapEff /proc/self/status)\n"
            + "printf '{\"ok\":true,\"state\":\"%s\",\"uid\":\"%s\",\"cap\":\"%s\"}\\n'"
            + " \"$s\" \"$(id -u)\" \"${c#CapEff:?}\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.getParent().resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + ID
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"isolated_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\ntimeout_seconds = 30\n");
    return dir.getParent();
  }

  private Loopx host(Path root, IsolationPolicy policy) {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(root)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .isolation(policy)
            .build();
    opened.add(loopx);
    return loopx;
  }

  private static RunReceipt run(Loopx loopx) {
    return loopx.run(
        RunRequest.of(ID, "{\"schema_version\":\"isolated_v0\"}".getBytes(UTF_8)), Mode.EXECUTE);
  }

  @Test
  void anIsolatedHostProbesAndRunsIsolatedAndSaysSo() throws IOException {
    Path root = tmp.resolve("root");
    Path state = root.resolve("extensions").resolve("state.json");
    Path pkg = writePackage(state);
    Loopx isolated = host(root, IsolationPolicy.REQUIRED);
    isolated.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
    byte[] before = Files.readAllBytes(state);

    RunReceipt run = run(isolated);
    assertThat(run.ok()).as(run.toJson().toString()).isTrue();
    assertThat(run.isolation()).hasValue(Isolation.BUBBLEWRAP);
    assertThat(run.toJson().get("isolation").asString()).isEqualTo("bwrap");
    JsonNode result = run.outcome().providerResult().orElseThrow();
    assertThat(result.get("state").asString()).isEqualTo("refused");
    assertThat(result.get("uid").asString()).isNotEqualTo("0");
    assertThat(result.get("cap").asString().strip()).isEqualTo("0000000000000000");
    assertThat(Files.readAllBytes(state)).isEqualTo(before);

    DoctorReceipt doctor = isolated.doctor(ID, Mode.EXECUTE);
    assertThat(doctor.toJson().get("status").asString())
        .as(doctor.toJson().toString())
        .isEqualTo("ready");
    assertThat(doctor.isolation()).hasValue(Isolation.BUBBLEWRAP);
    assertThat(doctor.toJson().get("isolation").asString()).isEqualTo("bwrap");
    String isolatedIdentity = doctor.entrypointIdentity().orElseThrow();

    // The proof made under isolation does not cover the runtime run without it: stale.
    isolated.close();
    Loopx off = host(root, IsolationPolicy.OFF);
    assertThatThrownBy(() -> run(off))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.DOCTOR_STALE));
    // The same package on a host without isolation: another identity, and no `isolation` field.
    Loopx plain = host(tmp.resolve("plain-root"), IsolationPolicy.OFF);
    plain.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
    DoctorReceipt plainDoctor = plain.doctor(ID, Mode.EXECUTE);
    assertThat(plainDoctor.entrypointIdentity()).isPresent();
    assertThat(plainDoctor.entrypointIdentity().get()).isNotEqualTo(isolatedIdentity);
    assertThat(plainDoctor.toJson().has("isolation")).isFalse();
    // Unisolated, the same provider does overwrite the (other host's) state file: the contrast.
    RunReceipt plainRun = run(plain);
    assertThat(plainRun.isolation()).isEmpty();
    assertThat(plainRun.toJson().has("isolation")).isFalse();
    assertThat(plainRun.outcome().providerResult().orElseThrow().get("state").asString())
        .isEqualTo("written");
  }
}
