package io.loopx.benchmarks;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cost of the read paths with many installed extensions
 * (docs/PERFORMANCE.md#cost-with-many-installed-extensions).
 *
 * <p>Setup, through the public API only: a runtime root with {@code installed} extensions, each
 * installed with {@code Loopx.install(…, EXECUTE)} (which probes its doctor and enables it), each
 * with its own package directory and a {@code #!/usr/bin/python3} launcher (a {@code #!/bin/sh} one
 * where python3 is absent). Extension 0 implements the host capability {@code bench-ext}; the
 * others implement {@code bench-other}. The root is kept in {@code
 * target/many-extensions-<installed>} and reused by later forks and runs when it holds exactly
 * those extensions, because installing 1,000 probed extensions takes minutes; a reused root has
 * settled files (outside the identity cache's racy window), which is the steady state the benchmark
 * measures: nothing changed.
 *
 * <ul>
 *   <li>{@code builtinDispatch}: {@code Loopx.dispatch} in execute mode of the built-in {@code
 *       bench-sum} (as {@link DispatchBenchmark}); run with {@code installed=0} and {@code 1000}.
 *   <li>{@code extensionDispatch}: {@code Loopx.dispatch} in execute mode of {@code bench-ext},
 *       which starts extension 0's provider; run with {@code installed=1} and {@code 1000}.
 *   <li>{@code registry}: the full {@code Loopx.registry()} read (state read, every enabled
 *       extension's freshness), nothing changed.
 *   <li>{@code baselineStatLoop}: what that read must at least do: one {@code stat} (the {@code
 *       unix} attributes device, inode, size, mode, modification and change time) of each distinct
 *       file it depends on: the state file, each extension's launcher, and the interpreter they
 *       share.
 *   <li>{@code list}: {@code Loopx.list()} (the state read, every enabled extension's runtime
 *       observed through the identity cache, one row each), nothing changed.
 *   <li>{@code lifecycleWrite}: {@code Loopx.disable} in execute mode of extension 0 (no probe: the
 *       whole executed write path, as {@link LifecycleWriteBenchmark}); before every invocation
 *       (untimed) the extension is enabled again through the store's compare-and-set.
 *   <li>{@code readAfterForeignWrite}: {@code Loopx.state()} after another store of the same file
 *       (another process) toggled extension 0's enabled bit (untimed, before every invocation): the
 *       read of a state file whose one entry changed.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ManyExtensionsBenchmark {
  static final CapabilityId EXT = CapabilityId.of("bench-ext");
  static final CapabilityId OTHER = CapabilityId.of("bench-other");
  static final ProtocolId EXT_PROTOCOL = ProtocolId.of("bench_ext_v0");
  static final Permission READ = Permission.of("bench.read");
  static final String UNIX = "unix:dev,ino,size,mode,lastModifiedTime,ctime";

  @Param({"0", "1", "1000"})
  public int installed;

  private Loopx loopx;
  private Path stateFile;
  private DispatchRequest builtin;
  private DispatchRequest extension;
  private final Set<Path> dependedOn = new LinkedHashSet<>();
  private final byte[] sumRequest =
      "{\"schema_version\":\"bench_sum_request_v0\",\"a\":2,\"b\":3}"
          .getBytes(StandardCharsets.UTF_8);
  private final byte[] extRequest =
      "{\"schema_version\":\"bench_ext_request_v0\",\"q\":\"x\"}".getBytes(StandardCharsets.UTF_8);

  /** The host's catalog: {@code bench-sum} with its handler, and two contracts for extensions. */
  static final class Contracts implements BuiltinContribution {
    @Override
    public String id() {
      return "bench-contracts";
    }

    @Override
    public void register(RegistrationContext context) {
      new DispatchBenchmark.SumContribution().register(context);
      context.addCapability(contract(EXT));
      context.addCapability(contract(OTHER));
    }
  }

  static ProvidedCapability contract(CapabilityId id) {
    return new ProvidedCapability(
        id,
        KindToken.of("bench_contract"),
        "Bench contract",
        "active",
        Visibility.PUBLIC,
        "A contract extensions implement.",
        "Dispatch one call.",
        Optional.of("a benchmark"),
        Optional.of("loopx bench"),
        Map.of());
  }

  static Loopx host(Path root) {
    return Loopx.builder()
        .runtimeRoot(root)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .builtin(new Contracts())
        .domainPolicy(DomainPolicy.allowAll())
        .build();
  }

  static String interpreter() {
    return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "/bin/sh";
  }

  static String script(String interpreter) {
    if (interpreter.endsWith("python3")) {
      return "#!/usr/bin/python3\n"
          + "import sys\n"
          + "if '--doctor' in sys.argv:\n"
          + "    sys.exit(0)\n"
          + "sys.stdin.buffer.read()\n"
          + "sys.stdout.write('{\"ok\":true}')\n";
    }
    return "#!/bin/sh\n[ \"$1\" = \"--doctor\" ] && exit 0\ncat > /dev/null\necho '{\"ok\":true}'\n";
  }

  static String manifest(String id, CapabilityId capability, ProtocolId protocol) {
    return "schema_version = \"loopx_extension_manifest_v0\"\n"
        + "id = \""
        + id
        + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
        + "permissions = [\"bench.read\"]\n"
        + "[runtime]\nprotocol = \""
        + protocol.value()
        + "\"\nentrypoint = \"bin/provider\"\n"
        + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"bench.read\"]\n"
        + "timeout_seconds = 30\n"
        + "[[implements]]\ncapability_id = \""
        + capability.value()
        + "\"\nprotocol = \""
        + protocol.value()
        + "\"\n";
  }

  static String id(int i) {
    return String.format(java.util.Locale.ROOT, "bench-ext-%04d", i);
  }

  /** Creates (or reuses) the root and checks every path once. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path base = Path.of("benchmarks", "target").toAbsolutePath();
    if (!Files.isDirectory(base)) {
      base = Path.of("target").toAbsolutePath();
    }
    Path dir = base.resolve("many-extensions-" + installed);
    Path root = dir.resolve("root");
    loopx = host(root);
    if (loopx.state().extensions().size() != installed) {
      LifecycleWriteBenchmark.deleteTree(dir);
      Files.createDirectories(dir);
      loopx = host(root);
      String interpreter = interpreter();
      for (int i = 0; i < installed; i++) {
        Path pkg = dir.resolve("packages").resolve(id(i));
        Files.createDirectories(pkg.resolve("bin"));
        Path launcher = pkg.resolve("bin").resolve("provider");
        Files.writeString(launcher, script(interpreter), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(
            pkg.resolve("extension.toml"),
            manifest(
                id(i),
                i == 0 ? EXT : OTHER,
                i == 0 ? EXT_PROTOCOL : ProtocolId.of("bench_other_v0")),
            StandardCharsets.UTF_8);
        DoctorStatus status =
            loopx
                .install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE)
                .doctor()
                .orElseThrow()
                .status();
        if (status != DoctorStatus.READY) {
          throw new IllegalStateException(id(i) + " is not ready: " + status);
        }
      }
    }
    stateFile = root.resolve("extensions").resolve("state.json");
    dependedOn.add(stateFile);
    for (ExtensionRecord r : loopx.state().extensions().values()) {
      Path launcher = Path.of(r.active().entrypointPath().orElseThrow());
      dependedOn.add(launcher);
      String first = Files.readAllLines(launcher, StandardCharsets.UTF_8).get(0);
      dependedOn.add(Path.of(first.substring(2).trim()));
    }
    ObjectNode sumScope = JsonNodeFactory.instance.objectNode();
    sumScope.put("capability_id", DispatchBenchmark.CAPABILITY.value());
    sumScope.put("operation", "sum");
    builtin =
        DispatchRequest.builder(
                DispatchBenchmark.CAPABILITY, DispatchBenchmark.PROTOCOL, DispatchBenchmark.ACTION)
            .scope(sumScope)
            .permission(DispatchBenchmark.PERMISSION)
            .input(sumRequest)
            .build();
    ObjectNode extScope = JsonNodeFactory.instance.objectNode();
    extScope.put("capability_id", EXT.value());
    extScope.put("operation", "call");
    extension =
        DispatchRequest.builder(EXT, EXT_PROTOCOL, ActionToken.of("bench.call"))
            .scope(extScope)
            .permission(READ)
            .input(extRequest)
            .build();
    if (!builtinDispatch().ok()) {
      throw new IllegalStateException("built-in dispatch failed");
    }
    if (installed > 0) {
      DispatchReceipt receipt = extensionDispatch();
      if (!receipt.ok()) {
        throw new IllegalStateException("extension dispatch failed: " + receipt.toJson());
      }
      if (!registry().provider(io.loopx.api.ProviderId.of(id(0))).orElseThrow().state().ready()) {
        throw new IllegalStateException("extension 0 is not ready in the registry");
      }
    }
  }

  /** Built-in dispatch (execute) with {@code installed} extensions of other capabilities. */
  @Benchmark
  public DispatchReceipt builtinDispatch() {
    return loopx.dispatch(builtin, Mode.EXECUTE);
  }

  /** Extension dispatch (execute) of extension 0; with {@code installed=0}, the built-in one. */
  @Benchmark
  public DispatchReceipt extensionDispatch() {
    return installed == 0 ? builtinDispatch() : loopx.dispatch(extension, Mode.EXECUTE);
  }

  /** The full registry read, nothing changed. */
  @Benchmark
  public CapabilityRegistry registry() {
    return loopx.registry();
  }

  /** Baseline: one stat of every file the registry read depends on. */
  @Benchmark
  public void baselineStatLoop(Blackhole bh) throws IOException {
    for (Path p : dependedOn) {
      bh.consume(Files.readAttributes(p, UNIX));
    }
  }

  /** The installed extensions in execute mode, one row each, nothing changed. */
  @Benchmark
  public ListReceipt list() {
    return loopx.list();
  }

  /** Executed disable of extension 0 (re-enabled before every invocation, untimed). */
  @Benchmark
  public LifecycleReceipt lifecycleWrite(Writer writer) {
    LifecycleReceipt receipt = loopx.disable(extensionZero(), Mode.EXECUTE);
    if (!receipt.changed()) {
      throw new IllegalStateException("disable changed nothing");
    }
    return receipt;
  }

  /** The state read after another store changed one entry (untimed, before every invocation). */
  @Benchmark
  public ActivationState readAfterForeignWrite(Writer writer) {
    return loopx.state();
  }

  /**
   * Another store of the same state file (as another process has): before every invocation it
   * enables extension 0 again with the same proof, or, for {@code readAfterForeignWrite}, toggles
   * its enabled bit; after the trial extension 0 is left enabled.
   */
  @State(Scope.Benchmark)
  public static class Writer {
    FileActivationStore store;
    ExtensionRecord enabled;
    boolean toggle;

    /** Records extension 0's enabled record. */
    @Setup(Level.Trial)
    public void setUp(ManyExtensionsBenchmark bench, org.openjdk.jmh.infra.BenchmarkParams params) {
      if (bench.installed == 0) {
        throw new IllegalStateException(
            "lifecycleWrite and readAfterForeignWrite need installed > 0");
      }
      store = FileActivationStore.at(bench.stateFile);
      enabled = ExtensionRecords.withEnabled(store.read().installed(extensionZero()), true);
      toggle = params.getBenchmark().endsWith("readAfterForeignWrite");
    }

    /** Enables extension 0 again (lifecycleWrite) or toggles it (readAfterForeignWrite). */
    @Setup(Level.Invocation)
    public void beforeInvocation() {
      ExtensionRecord current = store.read().installed(extensionZero());
      if (toggle || !current.enabled()) {
        ExtensionRecord next =
            current.enabled() ? ExtensionRecords.withEnabled(current, false) : enabled;
        store.update(
            "enable",
            List.of(new EntryChange(extensionZero(), Optional.of(current), Optional.of(next))));
      }
    }

    /** Leaves extension 0 enabled, as a reused root must be. */
    @TearDown(Level.Trial)
    public void tearDown() {
      ExtensionRecord current = store.read().installed(extensionZero());
      if (!current.enabled()) {
        store.update(
            "enable",
            List.of(new EntryChange(extensionZero(), Optional.of(current), Optional.of(enabled))));
      }
    }
  }

  /** Used by the check in setup. */
  static ExtensionId extensionZero() {
    return ExtensionId.of(id(0));
  }
}
