package io.loopx.runtime.internal.process;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.CanonicalJson;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.internal.identity.FileIdentity;
import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.internal.isolation.IsolationBind;
import io.loopx.runtime.internal.isolation.IsolationPlan;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.state.JavaCommand;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Kernel-enforced isolation (docs/process.md#isolation) against a hostile provider: real processes
 * under bubblewrap, as the host's root and as {@code nobody} (a child JVM under {@code setpriv}).
 * The machine kind this runs on has {@code /usr/bin/bwrap} ({@code .ci/run} installs it) and runs
 * as root; nothing here skips.
 */
class IsolationTest {
  /** A hostile provider: tries everything the isolation must refuse, prints what it found. */
  static final String HOSTILE =
      String.join(
          "\n",
          "#!/usr/bin/python3",
          "import json, os, socket, sys, ctypes",
          "args = json.loads(sys.stdin.read())",
          "out = {}",
          "def attempt(name, f):",
          "    try:",
          "        out[name] = 'ok:' + str(f())",
          "    except Exception as e:",
          "        out[name] = 'refused:' + type(e).__name__",
          "def write(path):",
          "    with open(path, 'wb') as f:",
          "        f.write(b'hostile')",
          "    return path",
          "def read(path):",
          "    with open(path, 'rb') as f:",
          "        return len(f.read())",
          "def connect():",
          "    s = socket.create_connection(('127.0.0.1', args['port']), timeout=5)",
          "    s.close()",
          "    return 'connected'",
          "def mount_cgroup():",
          "    os.makedirs('/tmp/cg', exist_ok=True)",
          "    libc = ctypes.CDLL(None, use_errno=True)",
          "    if libc.mount(b'none', b'/tmp/cg', b'cgroup2', 0, None) != 0:",
          "        raise OSError(ctypes.get_errno(), 'mount')",
          "    return 'mounted'",
          "attempt('state', lambda: write(args['state']))",
          "attempt('proof', lambda: write(args['proof']))",
          "attempt('credentials', lambda: read(args['credentials']))",
          "attempt('shadow', lambda: read('/etc/shadow'))",
          "attempt('connect', connect)",
          "attempt('write_usr', lambda: write('/usr/hostile'))",
          "attempt('write_package', lambda: write(args['package'] + '/hostile'))",
          "attempt('scratch_seen', lambda: read('/tmp/' + args['marker']))",
          "attempt('write_scratch', lambda: write('/tmp/' + args['marker']))",
          "attempt('write_home', lambda: write(os.environ['HOME'] + '/h'))",
          "attempt('cgroup_fs', lambda: os.listdir('/sys/fs/cgroup'))",
          "attempt('memory_max', lambda: write('/sys/fs/cgroup/memory.max'))",
          "attempt('mount_cgroup', mount_cgroup)",
          "status = open('/proc/self/status').read().splitlines()",
          "out['uid'] = [l.split()[1] for l in status if l.startswith('Uid:')][0]",
          "out['cap_eff'] = [l.split()[1] for l in status if l.startswith('CapEff:')][0]",
          "out['cwd'] = os.getcwd()",
          "out['home'] = os.environ.get('HOME')",
          "out['pid1'] = open('/proc/1/cmdline', 'rb').read().split(b'\\0')[0].decode()",
          "print(json.dumps(out))",
          "");

  private static final ObjectMapper JSON = new ObjectMapper();

  private Path base;
  private Path pkg;
  private Path provider;
  private Path state;
  private Path proof;
  private Path credentials;

  @BeforeEach
  void setUp() throws IOException {
    // World-traversable, so that the unprivileged uid of the isolated provider can read the
    // package.
    base = Files.createTempDirectory("loopx-isolation-");
    open(base);
    pkg = Files.createDirectories(base.resolve("pkg"));
    open(pkg);
    provider = pkg.resolve("hostile.py");
    Files.writeString(provider, HOSTILE);
    Files.setPosixFilePermissions(provider, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path root = Files.createDirectories(base.resolve("runtime-root"));
    open(root);
    state = root.resolve("state.json");
    Files.writeString(state, "{\"state\":\"original\"}\n");
    Files.createDirectories(root.resolve("proofs"));
    open(root.resolve("proofs"));
    proof = root.resolve("proofs").resolve("proof.json");
    Files.writeString(proof, "{\"proof\":\"original\"}\n");
    Path aws = Files.createDirectories(base.resolve("home").resolve(".aws"));
    open(base.resolve("home"));
    open(aws);
    credentials = aws.resolve("credentials");
    Files.writeString(credentials, "[default]\naws_secret_access_key = planted\n");
  }

  @AfterEach
  void tearDown() throws IOException {
    try (Stream<Path> walk = Files.walk(base)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static void open(Path dir) throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void aHostileProviderIsRefusedEverythingUnderIsolationAsRoot() throws Exception {
    OsProcessLauncher launcher = isolated(IsolationPolicy.REQUIRED);
    assertThat(launcher.isolation()).isEqualTo(Isolation.BUBBLEWRAP);
    byte[] stateBefore = Files.readAllBytes(state);
    byte[] proofBefore = Files.readAllBytes(proof);
    String marker = "loopx-scratch-" + UUID.randomUUID();
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      JsonNode found = run(launcher, IsolationPlan.NONE_DECLARED, server.getLocalPort(), marker);
      assertRefusedEverything(found);
      assertThat(found.get("connect").asString()).startsWith("refused:");
      // The scratch is private and gone after the call: not on the host, not seen by the next call.
      assertThat(Files.exists(Path.of("/tmp", marker))).isFalse();
      JsonNode second = run(launcher, IsolationPlan.NONE_DECLARED, server.getLocalPort(), marker);
      assertThat(second.get("scratch_seen").asString()).startsWith("refused:");
    }
    assertThat(Files.readAllBytes(state)).isEqualTo(stateBefore);
    assertThat(Files.readAllBytes(proof)).isEqualTo(proofBefore);
  }

  @Test
  void aPlanWithNetworkReachesTheLoopbackServer() throws Exception {
    OsProcessLauncher launcher = isolated(IsolationPolicy.REQUIRED);
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  s.getInputStream().read();
                } catch (IOException e) {
                  // The test ends the server.
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      JsonNode found =
          run(
              launcher,
              new IsolationPlan(true, List.of()),
              server.getLocalPort(),
              "loopx-scratch-" + UUID.randomUUID());
      assertThat(found.get("connect").asString()).isEqualTo("ok:connected");
      // Everything else stays refused.
      assertThat(found.get("state").asString()).startsWith("refused:");
      assertThat(found.get("cap_eff").asString()).isEqualTo("0000000000000000");
    }
  }

  @Test
  void aWritableBindIsTheOnlyHostDirectoryTheProviderMayWrite() throws Exception {
    Path data = Files.createDirectories(base.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path script = pkg.resolve("writer.sh");
    Files.writeString(script, "#!/bin/sh\necho x > \"$1/written\" && echo wrote\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    LaunchResult result =
        isolated(IsolationPolicy.REQUIRED)
            .launch(
                LaunchRequestBuilder.of(List.of(script.toString(), data.toString()))
                    .environment(ProcessFixtures.ENV)
                    .isolation(new IsolationPlan(false, List.of(new IsolationBind(data, true))))
                    .build());
    assertThat(new String(result.stdout(), UTF_8)).as(describe(result)).isEqualTo("wrote\n");
    assertThat(data.resolve("written")).exists();
  }

  @Test
  void theExecutedFileCheckSeesTheProviderNotTheTool() throws Exception {
    // The provider's own interpreter is what the check must find: the stamp of python3.
    Path python = Path.of("/usr/bin/python3").toRealPath();
    FileStamp stamp = FileStamp.read(python).orElseThrow();
    Path sh = pkg.resolve("sleepy.py");
    Files.writeString(sh, "#!/usr/bin/python3\nimport sys\nsys.stdin.read()\nprint('ran')\n");
    Files.setPosixFilePermissions(sh, PosixFilePermissions.fromString("rwxr-xr-x"));
    ContainedStart.Result start =
        ContainedStart.start(
            LaunchRequestBuilder.of(List.of(sh.toString()))
                .environment(ProcessFixtures.ENV)
                .executable(stamp)
                .build(),
            base,
            List.of(),
            LaunchSupport.findTool("setsid").orElseThrow(),
            isolated(IsolationPolicy.REQUIRED)
                .sandbox(LaunchRequestBuilder.of(List.of(sh.toString())).build()),
            Enclosure.ProcessGroupOnly.INSTANCE,
            0,
            "call's",
            java.util.Optional.empty());
    ContainedStart.Started started = (ContainedStart.Started) start;
    try {
      ExecutedFile.Verdict verdict =
          started.executed(
              ExecutedFile.forThisJvm(),
              LaunchRequestBuilder.of(List.of(sh.toString())).executable(stamp).build(),
              System.nanoTime());
      assertThat(verdict).isInstanceOf(ExecutedFile.Verdict.Verified.class);
      // A wrong expectation (the tool's own bytes are a stage, never the provider) is refused.
      FileStamp other = FileStamp.read(Path.of("/usr/bin/env").toRealPath()).orElseThrow();
      assertThat(ExecutedFile.grandchild(started.process().pid(), Long.MAX_VALUE)).isPresent();
      ExecutedFile.Verdict wrong =
          started.executed(
              ExecutedFile.forThisJvm(),
              LaunchRequestBuilder.of(List.of(sh.toString())).executable(other).build(),
              System.nanoTime());
      assertThat(wrong).isNotInstanceOf(ExecutedFile.Verdict.Verified.class);
    } finally {
      started.process().getOutputStream().close();
      started.process().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void requiredWithoutTheToolFailsBeforeAnythingRuns() throws Exception {
    Path marker = base.resolve("marker");
    Path script = pkg.resolve("marker.sh");
    Files.writeString(script, "#!/bin/sh\necho ran > \"$1\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    OsProcessLauncher launcher =
        OsProcessLauncher.builder()
            .isolation(IsolationPolicy.REQUIRED)
            .isolationTool(base.resolve("no-such-bwrap"), Bubblewrap.SETPRIV)
            .build();
    assertThat(launcher.isolationUnavailable()).get().asString().contains("no-such-bwrap");
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(script.toString(), marker.toString()))
                .environment(ProcessFixtures.ENV)
                .build());
    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(
            launcher.startLongLived(
                LaunchRequestBuilder.of(List.of(script.toString(), marker.toString()))
                    .environment(ProcessFixtures.ENV)
                    .build()))
        .isInstanceOf(LongLivedProcess.Start.NotStarted.class);
    assertThat(marker).doesNotExist();
    // When available: the same host runs it unisolated and says so.
    OsProcessLauncher lenient =
        OsProcessLauncher.builder()
            .isolation(IsolationPolicy.WHEN_AVAILABLE)
            .isolationTool(base.resolve("no-such-bwrap"), Bubblewrap.SETPRIV)
            .build();
    assertThat(lenient.isolation()).isEqualTo(Isolation.NONE);
    assertThat(lenient.isolationUnavailable()).isEmpty();
  }

  @Test
  void requiredWithoutTheToolIsTypedOnTheProviderLaunchPath() {
    OsProcessLauncher launcher =
        OsProcessLauncher.builder()
            .isolation(IsolationPolicy.REQUIRED)
            .isolationTool(base.resolve("no-such-bwrap"), Bubblewrap.SETPRIV)
            .build();
    ProviderLaunch providers = new ProviderLaunch(launcher, Map.of(), "", false);
    assertThatThrownBy(providers::requireIsolation)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.ISOLATION_UNAVAILABLE));
    assertThat(providers.reportedIsolation()).hasValue(Isolation.NONE);
    // A host that did not opt in reports nothing: its receipts are unchanged.
    assertThat(
            new ProviderLaunch(OsProcessLauncher.create(), Map.of(), "", false).reportedIsolation())
        .isEmpty();
    assertThat(
            new ProviderLaunch(isolated(IsolationPolicy.WHEN_AVAILABLE), Map.of(), "", false)
                .reportedIsolation())
        .hasValue(Isolation.BUBBLEWRAP);
  }

  @Test
  void theToolJoinsTheRuntimeIdentityOnlyWhenIsolationApplies() throws Exception {
    Bubblewrap tool = isolated(IsolationPolicy.REQUIRED).isolator().orElseThrow();
    String base = "0".repeat(64);
    String isolatedIdentity = CanonicalJson.sha256Hex(tool.isolatedRecord(base));
    assertThat(isolatedIdentity).isNotEqualTo(base).hasSize(64);
    assertThat(tool.isolatedRecord(base).get("bwrap").asString())
        .isEqualTo(FileIdentity.of(Bubblewrap.BWRAP).digest());
    assertThat(OsProcessLauncher.create().isolator()).isEmpty();
  }

  @Test
  void aWorkerRunsUnderTheSameRules() throws Exception {
    Path worker = pkg.resolve("worker.py");
    Files.writeString(
        worker,
        HOSTILE
            .replace(
                "args = json.loads(sys.stdin.read())", "args = json.loads(sys.stdin.readline())")
            .replace(
                "print(json.dumps(out))", "print(json.dumps(out), flush=True)\nsys.stdin.read()"));
    Files.setPosixFilePermissions(worker, PosixFilePermissions.fromString("rwxr-xr-x"));
    OsProcessLauncher launcher = isolated(IsolationPolicy.REQUIRED);
    byte[] stateBefore = Files.readAllBytes(state);
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      LongLivedProcess.Start start =
          launcher.startLongLived(
              LaunchRequestBuilder.of(List.of(worker.toString()))
                  .environment(env())
                  .executable(
                      FileStamp.read(Path.of("/usr/bin/python3").toRealPath()).orElseThrow())
                  .memoryLimit(256L << 20)
                  .build());
      assertThat(start).isInstanceOf(LongLivedProcess.Start.Running.class);
      LongLivedProcess process = ((LongLivedProcess.Start.Running) start).process();
      try {
        OutputStream in = process.stdin();
        in.write(
            (arguments(server.getLocalPort(), "loopx-scratch-" + UUID.randomUUID()) + "\n")
                .getBytes(UTF_8));
        in.flush();
        String line = new BufferedReader(new InputStreamReader(process.stdout(), UTF_8)).readLine();
        JsonNode found = JSON.readTree(line);
        assertRefusedEverything(found);
        assertThat(found.get("connect").asString()).startsWith("refused:");
      } finally {
        process.terminate(Duration.ofMillis(300));
      }
    }
    assertThat(Files.readAllBytes(state)).isEqualTo(stateBefore);
  }

  @Test
  void theSameHoldsWhenTheHostItselfRunsAsNobody() throws Exception {
    // A child JVM under setpriv as nobody, its class path copied where nobody can read it.
    Path cp = Files.createDirectories(base.resolve("cp"));
    open(cp);
    List<String> command =
        new ArrayList<>(JavaCommand.of(IsolatedHostMain.class, OsProcessLauncher.class));
    int at = command.indexOf("-cp") + 1;
    List<String> entries = new ArrayList<>();
    int n = 0;
    for (String entry : command.get(at).split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isRegularFile(p)) {
        Path copy = cp.resolve((n++) + ".jar");
        Files.copy(p, copy);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        entries.add(copy.toString());
      } else if (Files.isDirectory(p)) {
        Path copy = cp.resolve("d" + (n++));
        copyTree(p, copy);
        entries.add(copy.toString());
      }
    }
    command.set(at, String.join(java.io.File.pathSeparator, entries));
    List<String> asNobody =
        new ArrayList<>(
            List.of(
                Bubblewrap.SETPRIV.toString(),
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--"));
    asNobody.addAll(command);
    String marker = "loopx-scratch-" + UUID.randomUUID();
    byte[] stateBefore = Files.readAllBytes(state);
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      asNobody.add(provider.toString());
      asNobody.add(arguments(server.getLocalPort(), marker));
      ProcessBuilder builder = new ProcessBuilder(asNobody).directory(base.toFile());
      builder.environment().put("HOME", base.resolve("home").toString());
      builder.redirectError(ProcessBuilder.Redirect.INHERIT);
      Process host = builder.start();
      String line = JavaCommand.firstLine(host);
      assertThat(host.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(line).as("the nobody host's answer").startsWith("{");
      JsonNode found = JSON.readTree(line);
      assertThat(found.get("host_uid").asString()).isEqualTo("65534");
      assertThat(found.get("isolation").asString()).isEqualTo("bwrap");
      assertRefusedEverything(found.get("provider"));
      assertThat(found.get("provider").get("connect").asString()).startsWith("refused:");
    }
    assertThat(Files.readAllBytes(state)).isEqualTo(stateBefore);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.copy(p, target);
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }

  private void assertRefusedEverything(JsonNode found) {
    assertThat(found.get("state").asString()).startsWith("refused:");
    assertThat(found.get("proof").asString()).startsWith("refused:");
    assertThat(found.get("credentials").asString()).startsWith("refused:");
    assertThat(found.get("shadow").asString()).startsWith("refused:");
    assertThat(found.get("write_usr").asString()).startsWith("refused:");
    assertThat(found.get("write_package").asString()).startsWith("refused:");
    assertThat(found.get("scratch_seen").asString()).startsWith("refused:");
    assertThat(found.get("write_scratch").asString()).startsWith("ok:");
    assertThat(found.get("write_home").asString()).startsWith("ok:");
    assertThat(found.get("cgroup_fs").asString()).startsWith("refused:");
    assertThat(found.get("memory_max").asString()).startsWith("refused:");
    assertThat(found.get("mount_cgroup").asString()).startsWith("refused:");
    assertThat(found.get("uid").asString()).isNotEqualTo("0");
    assertThat(found.get("cap_eff").asString()).isEqualTo("0000000000000000");
    assertThat(found.get("cwd").asString()).isEqualTo(Bubblewrap.SCRATCH);
    assertThat(found.get("home").asString()).isEqualTo(Bubblewrap.SCRATCH);
  }

  private static OsProcessLauncher isolated(IsolationPolicy policy) {
    return OsProcessLauncher.builder().isolation(policy).build();
  }

  private Map<String, String> env() {
    Map<String, String> env = new LinkedHashMap<>(ProcessFixtures.ENV);
    env.put("HOME", base.resolve("home").toString());
    return env;
  }

  private String arguments(int port, String marker) {
    return "{\"state\":\""
        + state
        + "\",\"proof\":\""
        + proof
        + "\",\"credentials\":\""
        + credentials
        + "\",\"port\":"
        + port
        + ",\"package\":\""
        + pkg
        + "\",\"marker\":\""
        + marker
        + "\"}";
  }

  private JsonNode run(OsProcessLauncher launcher, IsolationPlan plan, int port, String marker)
      throws Exception {
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(provider.toString()))
                .environment(env())
                .stdin(arguments(port, marker).getBytes(UTF_8))
                .executable(FileStamp.read(Path.of("/usr/bin/python3").toRealPath()).orElseThrow())
                .memoryLimit(256L << 20)
                .isolation(plan)
                .timeout(Duration.ofSeconds(60))
                .build());
    assertThat(result.outcome()).as(describe(result)).isEqualTo(LaunchOutcome.EXITED);
    assertThat(result.exitCode()).as(describe(result)).hasValue(0);
    return JSON.readTree(new String(result.stdout(), UTF_8));
  }

  private static String describe(LaunchResult result) {
    return result
        + " stdout="
        + new String(result.stdout(), UTF_8)
        + " stderr="
        + new String(result.stderr(), UTF_8);
  }
}
