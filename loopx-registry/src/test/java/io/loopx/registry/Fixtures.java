package io.loopx.registry;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/** Small builders for manifests, capabilities and contributions used by the registry tests. */
final class Fixtures {
  static final String VERSION = "0.1.0-test";
  static final ProtocolId PROTOCOL = ProtocolId.of("semantic_preference_provider_v0");
  static final ProtocolId OTHER_PROTOCOL = ProtocolId.of("other_protocol_v1");
  static final BuiltinProvider ECHO = request -> request.deepCopy().put("echo", true);

  private Fixtures() {}

  static CapabilityId cap(String id) {
    return CapabilityId.of(id);
  }

  static ProviderId pid(String id) {
    return ProviderId.of(id);
  }

  static ProvidedCapability publicCapability(String id) {
    return capability(id, Visibility.PUBLIC, Map.of());
  }

  static ProvidedCapability internalCapability(String id) {
    return capability(id, Visibility.INTERNAL, Map.of());
  }

  static ProvidedCapability capability(
      String id, Visibility visibility, Map<String, JsonNode> metadata) {
    boolean pub = visibility == Visibility.PUBLIC;
    return new ProvidedCapability(
        CapabilityId.of(id),
        KindToken.of("projection_sink"),
        "Title of " + id,
        "available",
        visibility,
        "value of " + id,
        "next step of " + id,
        pub ? Optional.of("anchor of " + id) : Optional.empty(),
        pub ? Optional.of("loopx " + id) : Optional.empty(),
        metadata);
  }

  /** A contribution with a fixed id and provider whose register body is {@code body}. */
  static BuiltinContribution contribution(
      String id, String provider, Consumer<RegistrationContext> body) {
    return new TestContribution(id, ProviderId.of(provider), body);
  }

  /** A contribution registering the given public capabilities under {@code provider}. */
  static BuiltinContribution capabilities(String id, String provider, String... capabilityIds) {
    return contribution(
        id,
        provider,
        ctx -> {
          for (String c : capabilityIds) {
            ctx.addCapability(publicCapability(c));
          }
        });
  }

  record TestContribution(String id, ProviderId providerId, Consumer<RegistrationContext> body)
      implements BuiltinContribution {
    @Override
    public void register(RegistrationContext context) {
      body.accept(context);
    }
  }

  static ManifestBuilder manifest(String id) {
    return new ManifestBuilder(id);
  }

  /** Builds {@link ExtensionManifest}s directly from the API records. */
  static final class ManifestBuilder {
    private final String id;
    private String version = "1.0.0";
    private String range = ">=1,<2";
    private boolean runtime = true;
    private ProtocolId protocol = PROTOCOL;
    private final List<ProvidedCapability> provides = new ArrayList<>();
    private final List<Implementation> implementations = new ArrayList<>();

    ManifestBuilder(String id) {
      this.id = id;
    }

    ManifestBuilder version(String v) {
      this.version = v;
      return this;
    }

    ManifestBuilder requires(String r) {
      this.range = r;
      return this;
    }

    ManifestBuilder protocol(ProtocolId p) {
      this.protocol = p;
      return this;
    }

    ManifestBuilder noRuntime() {
      this.runtime = false;
      return this;
    }

    ManifestBuilder provides(String capabilityId) {
      provides.add(publicCapability(capabilityId));
      return this;
    }

    ManifestBuilder provides(ProvidedCapability c) {
      provides.add(c);
      return this;
    }

    ManifestBuilder implementsCapability(String capabilityId) {
      implementations.add(new Implementation(CapabilityId.of(capabilityId), protocol));
      return this;
    }

    ExtensionManifest build() {
      Optional<RuntimeSpec> rt =
          runtime
              ? Optional.of(
                  new RuntimeSpec(
                      protocol,
                      new LaunchTarget.Executable(id + "-provider"),
                      List.of(),
                      List.of("--doctor"),
                      List.of(),
                      RuntimeSpec.DEFAULT_TIMEOUT_SECONDS))
              : Optional.empty();
      return new ExtensionManifest(
          ExtensionId.of(id),
          version,
          ApiRange.parse(range),
          List.of(),
          rt,
          provides,
          implementations,
          List.of());
    }
  }

  static InstalledExtension installed(ExtensionManifest m, boolean enabled, boolean ready) {
    return new InstalledExtension(m, enabled, ready);
  }

  static InstalledExtension ready(ExtensionManifest m) {
    return new InstalledExtension(m, true, true);
  }

  /** A registry with the sample host's core contribution: a public contract and an internal. */
  static RegistryAssembly withCore() {
    return CapabilityRegistry.assembly(VERSION)
        .addBuiltin(
            contribution(
                "core",
                "loopx-core",
                ctx -> {
                  ctx.addCapability(publicCapability("semantic-preference"));
                  ctx.addCapability(internalCapability("projection-sink"));
                }));
  }
}
