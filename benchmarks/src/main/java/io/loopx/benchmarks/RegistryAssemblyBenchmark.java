package io.loopx.benchmarks;

import com.google.common.collect.ImmutableMap;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.InstalledExtension;
import io.loopx.registry.RegistryAssembly;
import io.loopx.runtime.Loopx;
import java.util.List;
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
 * Assembly and seal of a registry generation of 10,000 capability registrations, each with its
 * implementation, over 100 providers (50 built-in contributions registering through their
 * provider-bound {@code RegistrationContext}, 50 installed extensions; see {@link
 * RegistryFixtures}). All inputs (capability descriptors, contributions, manifests) are prebuilt in
 * setup, so both sides start from the same objects.
 *
 * <p>Measured: {@link CapabilityRegistry#assembly} + {@link RegistryAssembly#addBuiltins} + {@link
 * RegistryAssembly#install} per extension + {@link RegistryAssembly#seal()}: running every
 * contribution's {@code register} through a bound context, the conflict rules on every write, the
 * extension composition and the final integrity check, and the immutable indexes of the sealed
 * generation. Baseline: what a Java user would write for a read-only lookup table of the same
 * entries: Guava's {@code ImmutableMap.builderWithExpectedSize(10_000)} from the {@code
 * (capability, protocol)} key to the registration, built with {@code buildOrThrow()} (which, like
 * LoopX, rejects a duplicate key). Target ratio: at most 3.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RegistryAssemblyBenchmark {
  private List<BuiltinContribution> contributions;
  private List<InstalledExtension> extensions;
  private List<RegistryFixtures.Registration> registrations;

  /** Prebuilds the registration inputs. */
  @Setup(Level.Trial)
  public void setUp() {
    RegistryFixtures fixtures = new RegistryFixtures();
    contributions = List.copyOf(fixtures.contributions);
    extensions = List.copyOf(fixtures.extensions);
    registrations = List.copyOf(fixtures.registrations);
    CapabilityRegistry check = loopxAssembleAndSeal();
    if (check.implementations().size() != RegistryFixtures.CAPABILITIES
        || baselineImmutableMapBuild().size() != RegistryFixtures.CAPABILITIES) {
      throw new IllegalStateException("unexpected registry " + check);
    }
  }

  /** LoopX: assemble the 10,000 registrations and seal the generation. */
  @Benchmark
  public CapabilityRegistry loopxAssembleAndSeal() {
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(Loopx.VERSION).addBuiltins(contributions);
    for (InstalledExtension e : extensions) {
      assembly.install(e);
    }
    return assembly.seal();
  }

  /** Baseline: an immutable map of the same 10,000 entries. */
  @Benchmark
  public ImmutableMap<RegistryFixtures.ResolveKey, RegistryFixtures.Registration>
      baselineImmutableMapBuild() {
    ImmutableMap.Builder<RegistryFixtures.ResolveKey, RegistryFixtures.Registration> builder =
        ImmutableMap.builderWithExpectedSize(registrations.size());
    for (RegistryFixtures.Registration r : registrations) {
      builder.put(new RegistryFixtures.ResolveKey(r.capability().id(), r.protocol()), r);
    }
    return builder.buildOrThrow();
  }
}
