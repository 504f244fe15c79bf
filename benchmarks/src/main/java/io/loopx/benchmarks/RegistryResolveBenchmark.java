package io.loopx.benchmarks;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.RegistryAssembly;
import io.loopx.registry.Resolution;
import io.loopx.runtime.Loopx;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Resolution of a (capability, protocol) pair on a sealed registry of 10,000 capabilities over 100
 * providers (50 built-in contributions, 50 installed, enabled, doctor-ready extensions; see {@link
 * RegistryFixtures}), built once through the public {@link RegistryAssembly} API.
 *
 * <p>Measured: {@link CapabilityRegistry#resolve(CapabilityId, ProtocolId)} returning the {@link
 * Resolution.ResolvedCapability} outcome (capability lookup, implementations of the capability,
 * provider readiness and API compatibility, protocol match, ambiguity check). Baseline: {@link
 * HashMap#get} on a map from a {@code (CapabilityId, ProtocolId)} record key to the same
 * registrations. Both sides look up the same rotating sequence of 1,024 existing keys, whose id
 * strings are fresh copies (equal, not identical, as in a caller's request). Target ratio: at most
 * 2.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RegistryResolveBenchmark {
  private static final int KEYS = 1024;

  private CapabilityRegistry registry;
  private Map<RegistryFixtures.ResolveKey, RegistryFixtures.Registration> baseline;
  private CapabilityId[] capabilities;
  private ProtocolId[] protocols;
  private RegistryFixtures.ResolveKey[] keys;
  private int next;

  /** Assembles and seals the registry, builds the baseline map and the lookup keys. */
  @Setup(Level.Trial)
  public void setUp() {
    RegistryFixtures fixtures = new RegistryFixtures();
    RegistryAssembly assembly = CapabilityRegistry.assembly(Loopx.VERSION);
    assembly.addBuiltins(fixtures.contributions);
    fixtures.extensions.forEach(assembly::install);
    registry = assembly.seal();
    baseline = new HashMap<>();
    for (RegistryFixtures.Registration r : fixtures.registrations) {
      baseline.put(new RegistryFixtures.ResolveKey(r.capability().id(), r.protocol()), r);
    }
    List<RegistryFixtures.ResolveKey> lookups = fixtures.lookupKeys(KEYS);
    keys = lookups.toArray(new RegistryFixtures.ResolveKey[0]);
    capabilities = new CapabilityId[KEYS];
    protocols = new ProtocolId[KEYS];
    for (int k = 0; k < KEYS; k++) {
      capabilities[k] = keys[k].capability();
      protocols[k] = keys[k].protocol();
      if (!registry.resolve(capabilities[k], protocols[k]).isResolved()
          || baseline.get(keys[k]) == null) {
        throw new IllegalStateException("fixture key does not resolve: " + keys[k]);
      }
    }
    if (registry.capabilities(io.loopx.registry.CatalogScope.INCLUDE_INTERNAL).size()
        != RegistryFixtures.CAPABILITIES) {
      throw new IllegalStateException("unexpected registry " + registry);
    }
  }

  /** LoopX: resolve the next key on the sealed registry. */
  @Benchmark
  public Resolution loopxResolve() {
    int k = next++ & (KEYS - 1);
    return registry.resolve(capabilities[k], protocols[k]);
  }

  /** Baseline: {@code HashMap.get} of the same key. */
  @Benchmark
  public RegistryFixtures.Registration baselineHashMapGet() {
    int k = next++ & (KEYS - 1);
    return baseline.get(keys[k]);
  }
}
