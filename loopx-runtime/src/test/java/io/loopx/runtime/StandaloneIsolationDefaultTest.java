package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.spi.Isolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The default isolation of a host that never calls {@link Loopx.Builder#isolation}
 * (docs/process.md#isolation): standalone extensions (doctor probe, one-shot run, warm worker) run
 * isolated where bubblewrap is usable, as a non-root uid that cannot see the runtime root, and say
 * {@code "isolation": "bwrap"}; the same extension on a host that set {@link IsolationPolicy#OFF}
 * runs as the host's user without an {@code isolation} field; capability providers on the default
 * host run unisolated as before. Real {@code /usr/bin/python3} providers; on this machine kind
 * (root, bubblewrap installed) the isolated provider runs as {@code nobody}.
 */
class StandaloneIsolationDefaultTest {
  private static final ExtensionId SOLO = ExtensionId.of("solo-default");
  private static final ExtensionId WARM = ExtensionId.of("solo-warm");
  private static final ExtensionId CAPABILITY = ExtensionId.of("cap-default");
  private static final Duration BOUND = Duration.ofSeconds(30);

  /**
   * A standard-library Python provider: {@code --doctor} exits 0; one-shot it answers with who it
   * runs as, whether it sees the planted file (argument 1 of its environment's {@code PLANTED}) and
   * whether it could append to the state file; as a warm worker it answers each frame alike.
   */
  private static final String PROVIDER =
      "#!/usr/bin/python3\n"
          + "import json, os, sys\n"
          + "PLANTED = %s\n"
          + "STATE = %s\n"
          + "def answer():\n"
          + "    state = 'writable' if os.access(STATE, os.W_OK) else 'refused'\n"
          + "    return {'ok': True, 'uid': os.getuid(), 'planted': os.path.exists(PLANTED),"
          + " 'state': state, 'pid': os.getpid()}\n"
          + "if len(sys.argv) > 1 and sys.argv[1] == '--doctor':\n"
          + "    sys.exit(0)\n"
          + "if os.environ.get('LOOPX_WORKER_PROTOCOL'):\n"
          + "    print(json.dumps({'schema_version': 'loopx_worker_handshake_v0',"
          + " 'protocol': 'solo_v0', 'pid': os.getpid()}), flush=True)\n"
          + "    for line in sys.stdin:\n"
          + "        frame = json.loads(line)\n"
          + "        print(json.dumps({'id': frame['id'], 'response': answer()}), flush=True)\n"
          + "    sys.exit(0)\n"
          + "sys.stdin.read()\n"
          + "print(json.dumps(answer()))\n";

  @TempDir Path tmp;
  private final List<Loopx> opened = new ArrayList<>();
  private Path planted;

  @BeforeEach
  void openToTheSandboxUid() throws IOException {
    // The isolated provider runs as an unprivileged uid: the package must be reachable by it.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  /** Builds a host over {@code root}, with {@code policy} when given, else none set. */
  private Loopx host(Path root, IsolationPolicy... policy) {
    Loopx.Builder b =
        Loopx.builder()
            .runtimeRoot(root)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new DispatchTest.Contract());
    for (IsolationPolicy p : policy) {
      b.isolation(p);
    }
    Loopx loopx = b.build();
    opened.add(loopx);
    return loopx;
  }

  /**
   * Writes the package of {@code id} (world-readable), planting a file in the state directory of
   * {@code root} that the provider looks for; {@code tables} ends the manifest.
   */
  private LoadedManifest write(ExtensionId id, Path root, String tables) throws IOException {
    Path stateDir = Files.createDirectories(root.resolve("extensions"));
    planted = Files.writeString(stateDir.resolve("planted-secret"), "secret");
    Path dir = Files.createDirectories(tmp.resolve(id.value()).resolve("bin"));
    Files.setPosixFilePermissions(dir.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Path script = dir.resolve("provider");
    Files.writeString(
        script,
        String.format(
            PROVIDER,
            pyString(planted.toString()),
            pyString(stateDir.resolve("state.json").toString())));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path manifest = dir.getParent().resolve("extension.toml");
    Files.writeString(
        manifest,
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + tables);
    return LoadedManifest.load(manifest);
  }

  private static String pyString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  private static final String STANDALONE_RUNTIME =
      "[runtime]\nprotocol = \"solo_v0\"\nentrypoint = \"bin/provider\"\n"
          + "doctor_args = [\"--doctor\"]\ntimeout_seconds = 30\n";

  private static RunReceipt run(Loopx loopx, ExtensionId id) {
    return loopx.run(
        RunRequest.of(id, "{\"schema_version\":\"solo_v0\"}".getBytes(UTF_8)), Mode.EXECUTE);
  }

  private static long hostUid() throws IOException {
    return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
  }

  @Test
  void aStandaloneExtensionOnAHostWithoutAPolicyIsProbedAndRunIsolated() throws IOException {
    Path root = tmp.resolve("root");
    LoadedManifest manifest = write(SOLO, root, STANDALONE_RUNTIME);
    Loopx loopx = host(root);
    LifecycleReceipt installed = loopx.install(manifest, Mode.EXECUTE);
    assertThat(installed.toJson().toString()).contains("\"isolation\":\"bwrap\"");
    byte[] state = Files.readAllBytes(root.resolve("extensions/state.json"));

    RunReceipt run = run(loopx, SOLO);

    assertThat(run.ok()).as(run.toJson().toString()).isTrue();
    assertThat(run.isolation()).hasValue(Isolation.BUBBLEWRAP);
    assertThat(run.toJson().get("isolation").asString()).isEqualTo("bwrap");
    JsonNode result = run.outcome().providerResult().orElseThrow();
    assertThat(result.get("uid").longValue()).isNotZero();
    assertThat(result.get("planted").booleanValue()).as("the state directory is hidden").isFalse();
    assertThat(result.get("state").asString()).isEqualTo("refused");
    assertThat(Files.readAllBytes(root.resolve("extensions/state.json"))).isEqualTo(state);
    DoctorReceipt doctor = loopx.doctor(SOLO, Mode.EXECUTE);
    assertThat(doctor.toJson().get("status").asString())
        .as(doctor.toJson().toString())
        .isEqualTo("ready");
    assertThat(doctor.isolation()).hasValue(Isolation.BUBBLEWRAP);
    assertThat(doctor.toJson().get("isolation").asString()).isEqualTo("bwrap");
    // Lists and the catalog judge the proof with the standalone side's identity: fresh.
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();

    // The same package on a host that set OFF: the host's user, the host's view, no field.
    Path offRoot = tmp.resolve("off-root");
    LoadedManifest again = write(SOLO, offRoot, STANDALONE_RUNTIME);
    Loopx off = host(offRoot, IsolationPolicy.OFF);
    off.install(again, Mode.EXECUTE);
    RunReceipt plain = run(off, SOLO);
    assertThat(plain.ok()).as(plain.toJson().toString()).isTrue();
    assertThat(plain.isolation()).isEmpty();
    assertThat(plain.toJson().has("isolation")).isFalse();
    JsonNode plainResult = plain.outcome().providerResult().orElseThrow();
    assertThat(plainResult.get("uid").longValue()).isEqualTo(hostUid());
    assertThat(plainResult.get("planted").booleanValue()).isTrue();
    DoctorReceipt plainDoctor = off.doctor(SOLO, Mode.EXECUTE);
    assertThat(plainDoctor.toJson().has("isolation")).isFalse();
    // Isolation folds the tool into the identity: the two hosts proved different identities.
    assertThat(plainDoctor.entrypointIdentity()).isNotEqualTo(doctor.entrypointIdentity());
  }

  @Test
  void aCapabilityProviderOnAHostWithoutAPolicyStillRunsUnisolated() throws IOException {
    Path root = tmp.resolve("root");
    LoadedManifest manifest =
        write(
            CAPABILITY,
            root,
            "permissions = [\"demo.read\"]\n[runtime]\nprotocol = \"demo_recall_v0\"\n"
                + "entrypoint = \"bin/provider\"\ndoctor_args = [\"--doctor\"]\n"
                + "required_permissions = [\"demo.read\"]\n"
                + "[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
    Loopx loopx = host(root);
    LifecycleReceipt installed = loopx.install(manifest, Mode.EXECUTE);
    assertThat(installed.toJson().toString()).doesNotContain("\"isolation\"");

    DispatchReceipt receipt =
        loopx.dispatch(
            DispatchTest.request().input(DispatchTest.REQUEST).oneShot().build(), Mode.EXECUTE);

    assertThat(receipt.ok()).as(receipt.toJson().toString()).isTrue();
    assertThat(receipt.isolation()).isEmpty();
    assertThat(receipt.toJson().has("isolation")).isFalse();
    JsonNode result = receipt.outcome().providerResult().orElseThrow();
    assertThat(result.get("uid").longValue()).isEqualTo(hostUid());
    assertThat(result.get("planted").booleanValue()).isTrue();
    assertThat(loopx.doctor(CAPABILITY, Mode.EXECUTE).toJson().has("isolation")).isFalse();
  }

  @Test
  void aStandaloneWarmWorkerRunsIsolatedOnItsOwnLaunchPathAndEndsWithClose() throws IOException {
    Path root = tmp.resolve("root");
    LoadedManifest manifest = write(WARM, root, STANDALONE_RUNTIME + "[runtime.worker]\n");
    Loopx loopx = host(root);
    loopx.install(manifest, Mode.EXECUTE);

    RunReceipt first = run(loopx, WARM);
    RunReceipt second = run(loopx, WARM);

    assertThat(first.ok()).as(first.toJson().toString()).isTrue();
    assertThat(second.toJson().get("isolation").asString()).isEqualTo("bwrap");
    JsonNode result = second.outcome().providerResult().orElseThrow();
    assertThat(result.get("uid").longValue()).isNotZero();
    assertThat(result.get("planted").booleanValue()).isFalse();
    // One worker served both (the same pid inside its namespace), on the standalone launch path.
    assertThat(result.get("pid"))
        .isEqualTo(first.outcome().providerResult().orElseThrow().get("pid"));
    List<Long> pids = loopx.standaloneWorkers().orElseThrow().pids(WARM);
    assertThat(pids).hasSize(1);
    assertThat(loopx.workers().orElseThrow().pids(WARM)).isEmpty();
    assertThat(loopx.workerPools()).hasSize(1);

    loopx.close();

    assertThat(WorkerFixture.eventually(BOUND, () -> WorkerFixture.gone(pids.get(0))))
        .as("the isolated worker ended with close()")
        .isTrue();
    assertThat(loopx.workerPools()).isEmpty();
  }
}
