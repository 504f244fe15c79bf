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
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Each status word of the optional resolution, with its next action and flags. */
class ProviderAvailabilityTest {
  private static final CapabilityId SP = cap("semantic-preference");

  private static InstalledExtension implementer(String id, boolean enabled, boolean ready) {
    return installed(
        manifest(id).implementsCapability("semantic-preference").build(), enabled, ready);
  }

  private static CapabilityRegistry registry(InstalledExtension... extensions) {
    RegistryAssembly a = Fixtures.withCore();
    Arrays.stream(extensions).forEach(a::install);
    return a.seal();
  }

  private static ProviderAvailability unnamed(CapabilityRegistry r) {
    return r.availability(SP, PROTOCOL, Optional.empty());
  }

  private static ProviderAvailability named(CapabilityRegistry r, String id) {
    return r.availability(SP, PROTOCOL, Optional.of(pid(id)));
  }

  private static void assertStatus(
      ProviderAvailability r,
      AvailabilityStatus status,
      String wire,
      String nextAction,
      Boolean installed,
      Boolean enabled,
      Boolean verified) {
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.status().wireName()).isEqualTo(wire);
    assertThat(r.nextAction()).isEqualTo(Optional.ofNullable(nextAction));
    assertThat(r.installed()).isEqualTo(Optional.ofNullable(installed));
    assertThat(r.enabled()).isEqualTo(Optional.ofNullable(enabled));
    assertThat(r.doctorVerified()).isEqualTo(Optional.ofNullable(verified));
    assertThat(r.resolved().isPresent()).isEqualTo(status == AvailabilityStatus.READY);
    JsonNode json = r.toJson();
    assertThat(json.get("status").asString()).isEqualTo(wire);
    if (nextAction == null) {
      assertThat(json.get("next_action").isNull()).isTrue();
    } else {
      assertThat(json.get("next_action").asString()).isEqualTo(nextAction);
    }
  }

  @Test
  void readyWhenExactlyOneCandidateIsReady() {
    ProviderAvailability r =
        unnamed(registry(implementer("fresh", true, true), implementer("off", false, false)));
    assertStatus(r, AvailabilityStatus.READY, "ready", null, true, true, true);
    assertThat(r.providerId()).contains(pid("fresh"));
    assertThat(r.resolved().orElseThrow().provider().id()).isEqualTo(pid("fresh"));
    assertThat(r.candidates()).containsExactly(pid("fresh"), pid("off"));
  }

  @Test
  void readyForABuiltinInProcessProvider() {
    CapabilityRegistry reg =
        Fixtures.withCore()
            .addBuiltin(
                contribution(
                    "local", "local-memory", ctx -> ctx.addImplementation(SP, PROTOCOL, ECHO)))
            .seal();
    assertStatus(unnamed(reg), AvailabilityStatus.READY, "ready", null, true, true, true);
    assertStatus(
        named(reg, "local-memory"), AvailabilityStatus.READY, "ready", null, true, true, true);
  }

  @Test
  void namedProviderStatuses() {
    CapabilityRegistry reg =
        Fixtures.withCore()
            .install(implementer("off", false, false))
            .install(implementer("stale", true, false))
            .install(implementer("fresh", true, true))
            .install(
                installed(
                    manifest("future")
                        .requires(">=2")
                        .implementsCapability("semantic-preference")
                        .build(),
                    true,
                    true))
            .install(ready(manifest("other").build()))
            .declare(manifest("declared").implementsCapability("semantic-preference").build())
            .seal();

    assertStatus(
        named(reg, "nobody"),
        AvailabilityStatus.EXTENSION_NOT_INSTALLED,
        "extension_not_installed",
        "install_extension",
        false,
        false,
        false);
    assertStatus(
        named(reg, "declared"),
        AvailabilityStatus.EXTENSION_NOT_INSTALLED,
        "extension_not_installed",
        "install_extension",
        false,
        false,
        false);
    assertStatus(
        named(reg, "other"),
        AvailabilityStatus.EXTENSION_INCOMPATIBLE,
        "extension_incompatible",
        "install_compatible_extension",
        true,
        true,
        true);
    assertStatus(
        named(reg, "future"),
        AvailabilityStatus.EXTENSION_INCOMPATIBLE,
        "extension_incompatible",
        "install_compatible_extension",
        true,
        true,
        false);
    assertStatus(
        named(reg, "off"),
        AvailabilityStatus.EXTENSION_DISABLED,
        "extension_disabled",
        "enable_extension",
        true,
        false,
        false);
    assertStatus(
        named(reg, "stale"),
        AvailabilityStatus.EXTENSION_DOCTOR_NOT_READY,
        "extension_doctor_not_ready",
        "run_extension_doctor",
        true,
        true,
        false);
    assertStatus(named(reg, "fresh"), AvailabilityStatus.READY, "ready", null, true, true, true);
    assertThat(named(reg, "off").providerId()).contains(pid("off"));
  }

  @Test
  void singleUnreadyCandidateIsEvaluatedOnItsOwn() {
    assertStatus(
        unnamed(registry(implementer("off", false, false))),
        AvailabilityStatus.EXTENSION_DISABLED,
        "extension_disabled",
        "enable_extension",
        true,
        false,
        false);
    assertStatus(
        unnamed(registry(implementer("stale", true, false))),
        AvailabilityStatus.EXTENSION_DOCTOR_NOT_READY,
        "extension_doctor_not_ready",
        "run_extension_doctor",
        true,
        true,
        false);
    assertStatus(
        unnamed(
            registry(
                installed(
                    manifest("future")
                        .requires(">=2")
                        .implementsCapability("semantic-preference")
                        .build(),
                    true,
                    false))),
        AvailabilityStatus.EXTENSION_INCOMPATIBLE,
        "extension_incompatible",
        "install_compatible_extension",
        true,
        true,
        false);
  }

  @Test
  void ambiguousWhenSeveralAreReady() {
    ProviderAvailability r =
        unnamed(registry(implementer("a-ext", true, true), implementer("b-ext", true, true)));
    assertStatus(
        r,
        AvailabilityStatus.EXTENSION_PROVIDER_AMBIGUOUS,
        "extension_provider_ambiguous",
        "select_extension_id",
        true,
        true,
        true);
    assertThat(r.providerId()).isEmpty();
    assertThat(r.candidates()).containsExactly(pid("a-ext"), pid("b-ext"));
  }

  @Test
  void providerNotInstalledWhenNoInstalledCandidateExists() {
    CapabilityRegistry reg =
        Fixtures.withCore()
            .declare(manifest("declared").implementsCapability("semantic-preference").build())
            .install(implementer("wrong-protocol", true, true))
            .seal();
    assertStatus(
        reg.availability(SP, OTHER_PROTOCOL, Optional.empty()),
        AvailabilityStatus.EXTENSION_PROVIDER_NOT_INSTALLED,
        "extension_provider_not_installed",
        "install_or_select_extension",
        false,
        false,
        false);
    // an unknown capability is never an exception here
    assertThat(reg.availability(cap("unknown-cap"), PROTOCOL, Optional.empty()).status())
        .isEqualTo(AvailabilityStatus.EXTENSION_PROVIDER_NOT_INSTALLED);
  }

  @Test
  void providerNotReadyWhenSeveralCandidatesAndNoneReady() {
    assertStatus(
        unnamed(registry(implementer("off", false, false), implementer("stale", true, false))),
        AvailabilityStatus.EXTENSION_PROVIDER_NOT_READY,
        "extension_provider_not_ready",
        "select_or_repair_extension",
        true,
        true,
        false);
    assertStatus(
        unnamed(registry(implementer("off-a", false, false), implementer("off-b", false, false))),
        AvailabilityStatus.EXTENSION_PROVIDER_NOT_READY,
        "extension_provider_not_ready",
        "select_or_repair_extension",
        true,
        false,
        false);
  }

  @Test
  void stateUnavailableComesFromTheCaller() {
    ProviderAvailability r =
        ProviderAvailability.stateUnavailable(SP, PROTOCOL, Optional.of(ProviderId.of("some-ext")));
    assertStatus(
        r,
        AvailabilityStatus.EXTENSION_STATE_UNAVAILABLE,
        "extension_state_unavailable",
        "repair_extension_state",
        null,
        null,
        null);
    JsonNode json = r.toJson();
    assertThat(json.get("installed").isNull()).isTrue();
    assertThat(json.get("extension_id").asString()).isEqualTo("some-ext");
    assertThat(json.get("candidates").size()).isZero();
  }

  @Test
  void everyStatusHasTheSpecNextAction() {
    assertThat(List.of(AvailabilityStatus.values()))
        .extracting(s -> s.wireName() + "=" + s.nextAction().orElse("null"))
        .containsExactly(
            "ready=null",
            "extension_not_installed=install_extension",
            "extension_incompatible=install_compatible_extension",
            "extension_disabled=enable_extension",
            "extension_doctor_not_ready=run_extension_doctor",
            "extension_provider_ambiguous=select_extension_id",
            "extension_provider_not_installed=install_or_select_extension",
            "extension_provider_not_ready=select_or_repair_extension",
            "extension_state_unavailable=repair_extension_state");
  }

  @Test
  void resolvedMustMatchStatus() {
    assertThatThrownBy(
            () ->
                new ProviderAvailability(
                    AvailabilityStatus.READY,
                    SP,
                    PROTOCOL,
                    Optional.empty(),
                    List.of(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty()))
        .isInstanceOf(LoopxException.class);
  }

  @Test
  void jsonHasEveryKey() {
    JsonNode json = unnamed(registry(implementer("fresh", true, true))).toJson();
    assertThat(json.propertyNames())
        .containsExactly(
            "status",
            "next_action",
            "capability_id",
            "protocol",
            "extension_id",
            "installed",
            "enabled",
            "doctor_verified",
            "candidates");
  }
}
