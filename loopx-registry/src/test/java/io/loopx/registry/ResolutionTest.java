package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.OTHER_PROTOCOL;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.installed;
import static io.loopx.registry.Fixtures.manifest;
import static io.loopx.registry.Fixtures.pid;
import static io.loopx.registry.Fixtures.ready;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.NextAction;
import io.loopx.api.ProviderId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Every outcome of strict resolution, unnamed and caller-named, with its exact message. */
class ResolutionTest {
  private static final CapabilityId SP = cap("semantic-preference");

  private static RegistryAssembly withImplementers(InstalledExtension... extensions) {
    RegistryAssembly a = Fixtures.withCore();
    for (InstalledExtension e : extensions) {
      a.install(e);
    }
    return a;
  }

  private static InstalledExtension implementer(String id, boolean enabled, boolean ready) {
    return installed(
        manifest(id).implementsCapability("semantic-preference").build(), enabled, ready);
  }

  private static void assertFailure(Resolution r, Class<?> type, ErrorKind kind, String message) {
    assertThat(r).isInstanceOf(type);
    assertThat(r.isResolved()).isFalse();
    Resolution.Failure f = (Resolution.Failure) r;
    assertThat(f.kind()).isEqualTo(kind);
    assertThat(f.message()).isEqualTo(message);
    LoopxException e = f.toException();
    assertThat(e.kind()).isEqualTo(kind);
    assertThat(e).hasMessage(message);
    assertThatThrownBy(r::orElseThrow)
        .isInstanceOfSatisfying(LoopxException.class, x -> assertThat(x.kind()).isEqualTo(kind))
        .hasMessage(message);
  }

  @Test
  void resolvesTheOneReadyExtension() {
    CapabilityRegistry r =
        withImplementers(
                implementer("disabled-ext", false, false),
                implementer("stale-ext", true, false),
                implementer("fresh-ext", true, true))
            .seal();

    Resolution.ResolvedCapability ok = r.resolve(SP, PROTOCOL).orElseThrow();
    assertThat(ok.provider().id()).isEqualTo(pid("fresh-ext"));
    assertThat(ok.implementation().protocol()).isEqualTo(PROTOCOL);
    assertThat(ok.implementation().inProcess()).isEmpty();
    assertThat(ok.capabilityId()).isEqualTo(SP);
  }

  @Test
  void resolvesABuiltinInProcessProviderAndItHandlesRequests() {
    CapabilityRegistry r =
        Fixtures.withCore()
            .addBuiltin(
                contribution(
                    "local", "local-memory", ctx -> ctx.addImplementation(SP, PROTOCOL, ECHO)))
            .seal();

    Resolution.ResolvedCapability ok = r.resolve(SP, PROTOCOL).orElseThrow();
    assertThat(ok.provider().id()).isEqualTo(pid("local-memory"));
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.putObject("execution_envelope").put("action", "semantic_preference.recall");
    ObjectNode response = ok.implementation().inProcess().orElseThrow().handle(request);
    assertThat(response.get("echo").asBoolean()).isTrue();
    assertThat(response.has("execution_envelope")).isTrue();
  }

  @Test
  void noReadyProviderHasTheSpecMessage() {
    CapabilityRegistry r =
        withImplementers(
                implementer("disabled-ext", false, false), implementer("stale-ext", true, false))
            .seal();
    assertFailure(
        r.resolve(SP, PROTOCOL),
        Resolution.NoReadyProvider.class,
        ErrorKind.RESOLUTION_FAILED,
        "no enabled, doctor-ready extension implements semantic-preference with protocol"
            + " semantic_preference_provider_v0");
  }

  @Test
  void protocolMustMatchExactly() {
    CapabilityRegistry r = withImplementers(implementer("fresh-ext", true, true)).seal();
    assertThat(r.resolve(SP, OTHER_PROTOCOL)).isInstanceOf(Resolution.NoReadyProvider.class);
  }

  @Test
  void ambiguityListsTheReadyProvidersInCatalogOrder() {
    CapabilityRegistry r =
        withImplementers(
                implementer("zz-ext", true, true),
                implementer("aa-ext", true, true),
                implementer("mm-ext", true, false))
            .addBuiltin(
                contribution(
                    "local", "local-memory", ctx -> ctx.addImplementation(SP, PROTOCOL, ECHO)))
            .seal();
    Resolution res = r.resolve(SP, PROTOCOL);
    assertFailure(
        res,
        Resolution.Ambiguous.class,
        ErrorKind.RESOLUTION_FAILED,
        "multiple enabled, doctor-ready extensions implement semantic-preference with protocol"
            + " semantic_preference_provider_v0: [local-memory, aa-ext, zz-ext]");
    assertThat(((Resolution.Ambiguous) res).providers())
        .containsExactly(pid("local-memory"), pid("aa-ext"), pid("zz-ext"));
  }

  @Test
  void unknownCapabilityHasTheSpecMessage() {
    CapabilityRegistry r = Fixtures.withCore().seal();
    assertFailure(
        r.resolve(cap("missing"), PROTOCOL),
        Resolution.UnknownCapability.class,
        ErrorKind.RESOLUTION_FAILED,
        "unknown capability `missing`");
    assertFailure(
        r.resolve(cap("missing"), PROTOCOL, ProviderId.LOOPX_CORE),
        Resolution.UnknownCapability.class,
        ErrorKind.RESOLUTION_FAILED,
        "unknown capability `missing`");
  }

  @Test
  void namedProviderResolvesEvenWhenOthersAreReady() {
    CapabilityRegistry r =
        withImplementers(implementer("a-ext", true, true), implementer("b-ext", true, true)).seal();
    assertThat(r.resolve(SP, PROTOCOL)).isInstanceOf(Resolution.Ambiguous.class);
    assertThat(r.resolve(SP, PROTOCOL, pid("b-ext")).orElseThrow().provider().id())
        .isEqualTo(pid("b-ext"));
  }

  @Test
  void namedProviderFailuresInOrder() {
    CapabilityRegistry r =
        withImplementers(
                implementer("disabled-ext", false, false),
                implementer("stale-ext", true, false),
                installed(
                    manifest("future")
                        .requires(">=2")
                        .implementsCapability("semantic-preference")
                        .build(),
                    true,
                    true),
                ready(manifest("unrelated").build()))
            .declare(manifest("declared-ext").implementsCapability("semantic-preference").build())
            .seal();

    assertFailure(
        r.resolve(SP, PROTOCOL, pid("nobody")),
        Resolution.ProviderNotInstalled.class,
        ErrorKind.NOT_INSTALLED,
        "extension `nobody` is not installed");
    assertFailure(
        r.resolve(SP, PROTOCOL, pid("declared-ext")),
        Resolution.ProviderNotInstalled.class,
        ErrorKind.NOT_INSTALLED,
        "extension `declared-ext` is not installed");
    assertFailure(
        r.resolve(SP, PROTOCOL, pid("future")),
        Resolution.ProviderIncompatible.class,
        ErrorKind.API_INCOMPATIBLE,
        "extension `future` requires LoopX extension API >=2, but this runtime provides 1");
    assertFailure(
        r.resolve(SP, PROTOCOL, pid("unrelated")),
        Resolution.ProviderDoesNotImplement.class,
        ErrorKind.RESOLUTION_FAILED,
        "provider `unrelated` does not implement semantic-preference with protocol"
            + " semantic_preference_provider_v0");
    assertFailure(
        r.resolve(SP, OTHER_PROTOCOL, pid("stale-ext")),
        Resolution.ProviderDoesNotImplement.class,
        ErrorKind.RESOLUTION_FAILED,
        "provider `stale-ext` does not implement semantic-preference with protocol"
            + " other_protocol_v1");
    assertFailure(
        r.resolve(SP, PROTOCOL, pid("disabled-ext")),
        Resolution.ProviderDisabled.class,
        ErrorKind.EXTENSION_DISABLED,
        "extension `disabled-ext` is disabled");
    assertFailure(
        r.resolve(SP, PROTOCOL, pid("stale-ext")),
        Resolution.ProviderNotReady.class,
        ErrorKind.DOCTOR_STALE,
        "extension `stale-ext` doctor readiness is stale; run the doctor of extension `stale-ext`"
            + " with execute");
    assertThat(r.resolve(SP, PROTOCOL, pid("stale-ext")))
        .isInstanceOfSatisfying(
            Resolution.ProviderNotReady.class,
            f ->
                assertThat(f.toException().nextAction())
                    .contains(NextAction.runDoctor(ExtensionId.of("stale-ext"))));
    // a built-in that owns the contract but has no implementation
    assertFailure(
        r.resolve(SP, PROTOCOL, ProviderId.LOOPX_CORE),
        Resolution.ProviderDoesNotImplement.class,
        ErrorKind.RESOLUTION_FAILED,
        "provider `loopx-core` does not implement semantic-preference with protocol"
            + " semantic_preference_provider_v0");
  }

  @Test
  void apiIncompatibleProviderNeverResolvesUnnamed() {
    CapabilityRegistry r =
        withImplementers(
                installed(
                    manifest("future")
                        .requires("<1")
                        .implementsCapability("semantic-preference")
                        .build(),
                    true,
                    true))
            .seal();
    assertThat(r.resolve(SP, PROTOCOL)).isInstanceOf(Resolution.NoReadyProvider.class);
  }
}
