package io.loopx.benchmarks;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.pf4j.DefaultPluginManager;
import org.pf4j.PluginManager;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * In-process dispatch of a trivial built-in capability ({@code bench-sum}: {@code {"a":2,"b":3}} →
 * {@code {"sum":5}}, see {@link SumProvider}).
 *
 * <p>{@code loopxDispatch}: {@link Loopx#dispatch(DispatchRequest, io.loopx.runtime.Mode)} in
 * execute mode, the governed path of docs/contract/dispatch.md: parse and validate the request
 * bytes, read the activation state (one extension installed, not enabled, so that the state file
 * exists) and use the matching registry generation, resolve exactly one ready implementation, ask
 * the host's domain policy (allow all), bind the execution envelope (canonical digest of the
 * request), call the built-in handler, and build the receipt. The handler does not verify the
 * envelope (that cost is measured by {@link EnvelopeBenchmark}).
 *
 * <p>{@code baselineDirectCall}: {@link SumProvider#sum} called directly on the parsed request.
 *
 * <p>{@code baselineGovernanceFloor}: what no governed dispatch can skip (issue 36): one
 * file-system call on the state file ({@code Files.readAttributes(stateFile,
 * BasicFileAttributes.class, NOFOLLOW_LINKS)}, so that a disable by another process wins), the
 * canonical JSON bytes of the parsed request and their SHA-256 (the envelope's request digest),
 * then the direct call. Target: LoopX at most 2x this floor.
 *
 * <p>{@code peerPf4jLookupAndCall}: PF4J 3.15.0, as a PF4J host calls an extension: {@code
 * DefaultPluginManager.getExtensions(Pf4jSumPoint.class)} (finds the classpath extension indexed by
 * PF4J's annotation processor; the default factory instantiates it), then calls it on the parsed
 * request. The plugin manager has loaded and started an empty plugins directory in setup.
 *
 * <p>Target: LoopX faster than the PF4J lookup + call (ratio LoopX / peer &lt; 1).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DispatchBenchmark {
  static final CapabilityId CAPABILITY = CapabilityId.of("bench-sum");
  static final ProtocolId PROTOCOL = ProtocolId.of("bench_sum_v0");
  static final ActionToken ACTION = ActionToken.of("bench.sum");
  static final Permission PERMISSION = Permission.of("bench.compute");

  private Path dir;
  private Path stateFile;
  private Loopx loopx;
  private DispatchRequest dispatch;
  private PluginManager plugins;
  private final byte[] requestBytes =
      "{\"schema_version\":\"bench_sum_request_v0\",\"a\":2,\"b\":3}"
          .getBytes(StandardCharsets.UTF_8);
  private ObjectNode request;

  /** The host's built-in contribution: the {@code bench-sum} capability and its handler. */
  static final class SumContribution implements BuiltinContribution {
    @Override
    public String id() {
      return "bench-sum";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAPABILITY,
              KindToken.of("compute_contract"),
              "Sum",
              "active",
              Visibility.PUBLIC,
              "Adds two numbers.",
              "Dispatch one sum.",
              Optional.of("a benchmark"),
              Optional.of("loopx bench sum"),
              Map.of()));
      context.addImplementation(CAPABILITY, PROTOCOL, SumProvider::sum);
    }
  }

  /** A host with the {@code bench-sum} built-in, an allow-all policy and a runtime root in dir. */
  static Loopx host(Path dir) {
    return Loopx.builder()
        .runtimeRoot(dir.resolve("root"))
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .builtin(new SumContribution())
        .domainPolicy(DomainPolicy.allowAll())
        .build();
  }

  /** A PF4J plugin manager over an empty plugins directory in dir, loaded and started. */
  static PluginManager startedPf4j(Path dir) throws IOException {
    PluginManager manager = new DefaultPluginManager(Files.createDirectory(dir.resolve("plugins")));
    manager.loadPlugins();
    manager.startPlugins();
    return manager;
  }

  /** Builds the facade, the request, and the PF4J plugin manager; checks all three agree. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = LifecycleWriteBenchmark.traversableTempDirectory("loopx-bench-dispatch");
    loopx = host(dir);
    // One installed (not enabled) extension, so that the state file exists as on a real host.
    Path pkg = LifecycleWriteBenchmark.providerPackage(dir.resolve("pkg"));
    loopx.install(
        LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    stateFile = dir.resolve("root").resolve("extensions").resolve("state.json");
    if (!Files.isRegularFile(stateFile)) {
      throw new IllegalStateException("the install left no state file at " + stateFile);
    }
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", CAPABILITY.value());
    scope.put("operation", "sum");
    dispatch =
        DispatchRequest.builder(CAPABILITY, PROTOCOL, ACTION)
            .scope(scope)
            .permission(PERMISSION)
            .input(requestBytes)
            .build();
    request = StrictJson.parseObject(requestBytes);
    plugins = startedPf4j(dir);
    ObjectNode expected = baselineDirectCall();
    DispatchReceipt receipt = loopxDispatch();
    if (!receipt.ok() || !receipt.toJson().toString().contains("\"sum\":5")) {
      throw new IllegalStateException("LoopX dispatch failed: " + receipt.toJson());
    }
    if (plugins.getExtensions(Pf4jSumPoint.class).size() != 1
        || !peerPf4jLookupAndCall().equals(expected)) {
      throw new IllegalStateException("PF4J did not find exactly one classpath extension");
    }
  }

  /** Stops PF4J and removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    plugins.stopPlugins();
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** LoopX: governed in-process dispatch of the built-in, from request bytes to receipt. */
  @Benchmark
  public DispatchReceipt loopxDispatch() {
    return loopx.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** Baseline: the provider logic called directly. */
  @Benchmark
  public ObjectNode baselineDirectCall() {
    return SumProvider.sum(request);
  }

  /**
   * Baseline: the floor of a governed dispatch: one stat of the state file, the request's canonical
   * bytes and their SHA-256, then the direct call.
   */
  @Benchmark
  public ObjectNode baselineGovernanceFloor() throws IOException, NoSuchAlgorithmException {
    BasicFileAttributes attributes =
        Files.readAttributes(stateFile, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(CanonicalJson.toBytes(request));
    if (attributes.size() == 0 || digest.length != 32) {
      throw new IllegalStateException("empty state file");
    }
    return SumProvider.sum(request);
  }

  /** Peer: PF4J extension lookup by type, then the call. */
  @Benchmark
  public ObjectNode peerPf4jLookupAndCall() {
    List<Pf4jSumPoint> extensions = plugins.getExtensions(Pf4jSumPoint.class);
    return extensions.get(0).handle(request);
  }
}
