package io.loopx.benchmarks;

import io.loopx.api.ApiRange;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.registry.InstalledExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The shared input of the registry benchmarks: {@value #PROVIDERS} providers with {@value
 * #CAPABILITIES_PER_PROVIDER} capabilities each (10,000 in all), every capability implemented by
 * its own provider over the provider's protocol. The first half of the providers are built-in
 * contributions (in-process handlers), the second half installed, enabled, doctor-ready extensions,
 * so every capability resolves to exactly one ready provider.
 *
 * <p>Ids look like real ones: providers {@code core-mail-0} (built-in) or {@code mail-plugin-2}
 * (extension), capabilities {@code mail-thread-search-p0-c17}, protocols {@code
 * mail_0_provider_v1}. Every tenth capability is internal.
 */
final class RegistryFixtures {
  static final int PROVIDERS = 100;
  static final int CAPABILITIES_PER_PROVIDER = 100;
  static final int CAPABILITIES = PROVIDERS * CAPABILITIES_PER_PROVIDER;
  static final int BUILTIN_PROVIDERS = PROVIDERS / 2;

  private static final String[] DOMAINS = {
    "mail", "calendar", "notes", "tasks", "contacts", "files", "photos", "music", "maps", "weather",
    "finance", "health", "travel", "news", "chat", "search", "code", "docs", "sheets", "slides"
  };
  private static final String[] NOUNS = {
    "thread", "event", "summary", "reminder", "draft", "index", "tag", "share", "archive", "digest"
  };
  private static final String[] VERBS = {
    "search",
    "summarize",
    "classify",
    "export",
    "import",
    "sync",
    "preview",
    "translate",
    "rank",
    "suggest"
  };

  /** One registration: a capability, its implementing provider and protocol. */
  record Registration(
      ProviderId provider,
      ProtocolId protocol,
      ProvidedCapability capability,
      Optional<BuiltinProvider> handler) {}

  /** The (capability, protocol) pair a caller resolves, as a hash key for the baselines. */
  record ResolveKey(CapabilityId capability, ProtocolId protocol) {}

  /** A built-in contribution that registers prebuilt capabilities and implementations. */
  static final class Contribution implements BuiltinContribution {
    private final String id;
    private final ProviderId providerId;
    private final ProtocolId protocol;
    private final List<ProvidedCapability> capabilities;
    private final BuiltinProvider handler;

    Contribution(
        String id,
        ProviderId providerId,
        ProtocolId protocol,
        List<ProvidedCapability> capabilities,
        BuiltinProvider handler) {
      this.id = id;
      this.providerId = providerId;
      this.protocol = protocol;
      this.capabilities = List.copyOf(capabilities);
      this.handler = handler;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public ProviderId providerId() {
      return providerId;
    }

    @Override
    public void register(RegistrationContext context) {
      for (ProvidedCapability c : capabilities) {
        context.addCapability(c);
        context.addImplementation(c.id(), protocol, handler);
      }
    }
  }

  final List<Contribution> contributions = new ArrayList<>();
  final List<InstalledExtension> extensions = new ArrayList<>();
  final List<Registration> registrations = new ArrayList<>();

  /** Builds the 10,000 registrations, all validated through the public constructors. */
  RegistryFixtures() {
    BuiltinProvider handler = request -> request;
    ApiRange api = ApiRange.parse(">=1,<2");
    for (int p = 0; p < PROVIDERS; p++) {
      String domain = DOMAINS[p % DOMAINS.length];
      int series = p / DOMAINS.length;
      boolean builtin = p < BUILTIN_PROVIDERS;
      ProviderId provider =
          ProviderId.of(builtin ? "core-" + domain + "-" + series : domain + "-plugin-" + series);
      ProtocolId protocol = ProtocolId.of(domain + "_" + series + "_provider_v1");
      List<ProvidedCapability> capabilities = new ArrayList<>();
      for (int c = 0; c < CAPABILITIES_PER_PROVIDER; c++) {
        String noun = NOUNS[c % NOUNS.length];
        String verb = VERBS[(c / NOUNS.length) % VERBS.length];
        ProvidedCapability capability = capability(domain, noun, verb, p, c);
        capabilities.add(capability);
        registrations.add(
            new Registration(
                provider, protocol, capability, builtin ? Optional.of(handler) : Optional.empty()));
      }
      if (builtin) {
        contributions.add(
            new Contribution(
                "bench-" + provider.value(), provider, protocol, capabilities, handler));
      } else {
        ExtensionManifest manifest =
            new ExtensionManifest(
                ExtensionId.of(provider),
                "1." + series + ".0",
                api,
                List.of(),
                Optional.of(
                    new RuntimeSpec(
                        protocol,
                        new LaunchTarget.Executable(provider.value() + "-provider"),
                        List.of(),
                        List.of("--doctor"),
                        List.of(),
                        RuntimeSpec.DEFAULT_TIMEOUT_SECONDS)),
                capabilities,
                capabilities.stream().map(cap -> new Implementation(cap.id(), protocol)).toList(),
                List.of());
        extensions.add(new InstalledExtension(manifest, true, true));
      }
    }
  }

  private static ProvidedCapability capability(
      String domain, String noun, String verb, int provider, int index) {
    boolean internal = index % 10 == 9;
    String id = domain + "-" + noun + "-" + verb + "-p" + provider + "-c" + index;
    return new ProvidedCapability(
        CapabilityId.of(id),
        KindToken.of(noun + "_" + verb),
        "Acme " + domain + " " + noun + " " + verb,
        "available",
        internal ? Visibility.INTERNAL : Visibility.PUBLIC,
        verb + "s your " + domain + " " + noun + "s",
        "run " + verb + " on a real " + noun,
        internal ? Optional.empty() : Optional.of(domain + " " + noun + " of the user"),
        internal ? Optional.empty() : Optional.of("loopx " + domain + " " + verb),
        Map.of());
  }

  /**
   * Returns {@code count} existing (capability, protocol) pairs picked with a fixed seed. Each key
   * holds fresh copies of the id strings, as a caller's request would (equal, not identical).
   */
  List<ResolveKey> lookupKeys(int count) {
    Random random = new Random(20240607L);
    List<ResolveKey> keys = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      Registration r = registrations.get(random.nextInt(registrations.size()));
      keys.add(
          new ResolveKey(
              CapabilityId.of(new String(r.capability().id().value())),
              ProtocolId.of(new String(r.protocol().value()))));
    }
    return keys;
  }
}
