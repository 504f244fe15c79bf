package io.loopx.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.ObservedCall;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link LoopxMicrometer} driven by hand-made calls ({@link FakeCall}) and pool snapshots ({@link
 * FakePool}); {@code LoopxMicrometerDispatchTest} drives it through real dispatches.
 */
class LoopxMicrometerTest {

  private final TestObservationRegistry observations = TestObservationRegistry.create();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void anObservationPerCallNamedAfterItScopedWhileItRunsWithItsEndTags() {
    LoopxMicrometer micrometer = LoopxMicrometer.of(observations, meters);

    CallObserver.Scope scope = micrometer.begin(FakeCall.dispatchBegins("demo-recall"));
    Observation current = observations.getCurrentObservation();
    assertThat(current).isNotNull();
    assertThat(current.getContext()).isInstanceOf(LoopxObservationContext.class);
    assertThat(((LoopxObservationContext) current.getContext()).call().ended()).isFalse();
    assertThat(current.getContext().getLowCardinalityKeyValue("outcome").getValue())
        .isEqualTo("none");
    scope.end(FakeCall.dispatchServed("demo-recall", "warm-recall", "1566783bb5842048"));

    assertThat(observations.getCurrentObservation()).isNull();
    assertThat(observations)
        .hasNumberOfObservationsEqualTo(1)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasBeenStarted()
        .hasBeenStopped()
        .hasContextualNameEqualTo("loopx dispatch demo-recall")
        .hasLowCardinalityKeyValue("capability", "demo-recall")
        .hasLowCardinalityKeyValue("extension", "warm-recall")
        .hasLowCardinalityKeyValue("path", "worker")
        .hasLowCardinalityKeyValue("containment", "process_group")
        .hasLowCardinalityKeyValue("outcome", "succeeded")
        .hasLowCardinalityKeyValue("failure", "none")
        .hasHighCardinalityKeyValue("revision", "1566783bb5842048")
        .hasHighCardinalityKeyValue("provider", "warm-recall")
        .doesNotHaveLowCardinalityKeyValueWithKey("revision")
        .doesNotHaveError();
    assertThat(meters.find(LoopxMicrometer.REFUSALS).counters()).isEmpty();
  }

  @Test
  void aCallThatThrewIsAnObservationErrorAndARefusal() {
    LoopxMicrometer micrometer = LoopxMicrometer.of(observations, meters);

    micrometer
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchRefused("demo-recall", "none", ErrorKind.POLICY_DENIED));
    micrometer
        .begin(FakeCall.run("warm-recall", false, ErrorKind.NOT_INSTALLED))
        .end(FakeCall.run("warm-recall", true, ErrorKind.NOT_INSTALLED));
    micrometer
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchRefused("demo-recall", "none", ErrorKind.POLICY_DENIED));

    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasLowCardinalityKeyValue("outcome", "policy_denied")
        .hasError();
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.run")
        .that()
        .hasContextualNameEqualTo("loopx run warm-recall")
        .hasError();
    assertThat(observations)
        .hasHandledContextsThatSatisfy(
            contexts ->
                assertThat(contexts.get(0).getError())
                    .isInstanceOfSatisfying(
                        LoopxException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED))
                    .hasMessage("loopx.dispatch threw policy_denied"));
    assertThat(
            meters
                .get(LoopxMicrometer.REFUSALS)
                .tags(
                    "call",
                    "loopx.dispatch",
                    "kind",
                    "policy_denied",
                    "extension",
                    "none",
                    "capability",
                    "demo-recall")
                .counter()
                .count())
        .isEqualTo(2.0);
    assertThat(
            meters
                .get(LoopxMicrometer.REFUSALS)
                .tags(
                    "call",
                    "loopx.run",
                    "kind",
                    "not_installed",
                    "extension",
                    "warm-recall",
                    "capability",
                    "none")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(meters.find(LoopxMicrometer.REFUSALS).counters())
        .allSatisfy(
            c ->
                assertThat(c.getId().getTags())
                    .extracting(t -> t.getKey())
                    .containsExactlyInAnyOrder("call", "kind", "extension", "capability"));
  }

  @Test
  void withAMeterRegistryOnlyEachCallIsATimerTaggedWithItsLowCardinalityTagsOnly() {
    LoopxMicrometer micrometer = LoopxMicrometer.of(meters);

    CallObserver.Scope scope = micrometer.begin(FakeCall.dispatchBegins("demo-recall"));
    LongTaskTimer active = meters.get("loopx.dispatch.active").longTaskTimer();
    assertThat(active.activeTasks()).isEqualTo(1);
    scope.end(FakeCall.dispatchServed("demo-recall", "warm-recall", "1566783bb5842048"));
    assertThat(active.activeTasks()).isZero();

    Timer timer =
        meters
            .get("loopx.dispatch")
            .tags("capability", "demo-recall", "extension", "warm-recall", "outcome", "succeeded")
            .tag("error", "none")
            .timer();
    assertThat(timer.count()).isEqualTo(1);
    assertThat(timer.getId().getTags())
        .extracting(t -> t.getKey())
        .containsExactlyInAnyOrder(
            "capability",
            "protocol",
            "action",
            "extension",
            "mode",
            "path",
            "containment",
            "outcome",
            "failure",
            "error");
  }

  @Test
  void theConventionIsReplaceableGivenOrGlobal() {
    LoopxObservationConvention renamed =
        new LoopxObservationConvention() {
          @Override
          public String getName() {
            return "host.loopx";
          }

          @Override
          public KeyValues getLowCardinalityKeyValues(LoopxObservationContext context) {
            return KeyValues.of("call", context.call().name());
          }
        };
    LoopxMicrometer.of(observations, meters)
        .withConvention(renamed)
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchServed("demo-recall", "warm-recall", "1566783bb5842048"));
    assertThat(observations)
        .hasObservationWithNameEqualTo("host.loopx")
        .that()
        .hasLowCardinalityKeyValue("call", "loopx.dispatch")
        .doesNotHaveLowCardinalityKeyValueWithKey("capability");

    TestObservationRegistry global = TestObservationRegistry.create();
    global
        .observationConfig()
        .observationConvention(
            new GlobalObservationConvention<LoopxObservationContext>() {
              @Override
              public boolean supportsContext(Observation.Context context) {
                return context instanceof LoopxObservationContext;
              }

              @Override
              public KeyValues getLowCardinalityKeyValues(LoopxObservationContext context) {
                return KeyValues.of("only", "this");
              }
            });
    LoopxMicrometer.of(global, meters)
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchServed("demo-recall", "warm-recall", "1566783bb5842048"));
    assertThat(global)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasLowCardinalityKeyValue("only", "this")
        .doesNotHaveLowCardinalityKeyValueWithKey("capability");
  }

  @Test
  void predicatesSeeTheCallNameAndScopesNest() {
    List<String> seen = new CopyOnWriteArrayList<>();
    observations
        .observationConfig()
        .observationPredicate(
            (name, context) -> {
              seen.add(name);
              return !name.equals("loopx.run");
            });
    LoopxMicrometer micrometer = LoopxMicrometer.of(observations, meters);

    CallObserver.Scope lifecycle = micrometer.begin(lifecycle("install", false));
    Observation outer = observations.getCurrentObservation();
    CallObserver.Scope doctor = micrometer.begin(doctor(false));
    assertThat(observations.getCurrentObservation().getContext().getParentObservation())
        .isSameAs(outer);
    doctor.end(doctor(true));
    assertThat(observations.getCurrentObservation()).isSameAs(outer);
    lifecycle.end(lifecycle("install", true));
    micrometer
        .begin(FakeCall.run("warm-recall", false, ErrorKind.NOT_INSTALLED))
        .end(FakeCall.run("warm-recall", true, ErrorKind.NOT_INSTALLED));

    assertThat(seen).containsExactly("loopx.lifecycle", "loopx.doctor", "loopx.run");
    assertThat(observations)
        .hasNumberOfObservationsEqualTo(2)
        .hasObservationWithNameEqualTo("loopx.doctor")
        .that()
        .hasContextualNameEqualTo("loopx doctor warm-recall")
        .hasParentObservation()
        .hasHighCardinalityKeyValue("version", "1.0.0");
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.lifecycle")
        .that()
        .hasContextualNameEqualTo("loopx install warm-recall")
        .hasLowCardinalityKeyValue("outcome", "ok");
    // a call not observed is still counted
    assertThat(meters.get(LoopxMicrometer.REFUSALS).tag("call", "loopx.run").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aNoopObservationRegistryStillCountsRefusals() {
    LoopxMicrometer micrometer = LoopxMicrometer.of(ObservationRegistry.NOOP, meters);
    micrometer
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchRefused("demo-recall", "none", ErrorKind.PROVIDER_BUSY));
    assertThat(meters.get(LoopxMicrometer.REFUSALS).tag("kind", "provider_busy").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void poolGaugesPerExtensionAppearWhenAPoolIsFirstSeenAndReadZeroWhenItIsGone() {
    List<FakePool> pools = new CopyOnWriteArrayList<>();
    pools.add(FakePool.of("warm-recall", "1566783bb5842048", 2, 1, 3));
    pools.add(FakePool.of("warm-recall", "0123456789abcdef", 1, 1, 0));
    LoopxMicrometer micrometer = LoopxMicrometer.of(observations, meters).bindPools(() -> pools);

    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES, "warm-recall")).isEqualTo(3.0);
    assertThat(gauge(LoopxMicrometer.WORKERS_IN_FLIGHT, "warm-recall")).isEqualTo(2.0);
    assertThat(gauge(LoopxMicrometer.WORKERS_QUEUED, "warm-recall")).isEqualTo(3.0);

    // a new extension's pool: its gauges appear when a call it served ends
    pools.add(FakePool.of("other-ext", "1566783bb5842048", 1, 0, 0));
    assertThat(meters.find(LoopxMicrometer.WORKERS_PROCESSES).tag("extension", "other-ext").gauge())
        .isNull();
    micrometer
        .begin(FakeCall.dispatchBegins("demo-recall"))
        .end(FakeCall.dispatchServed("demo-recall", "other-ext", "1566783bb5842048"));
    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES, "other-ext")).isEqualTo(1.0);

    pools.clear();
    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES, "warm-recall")).isZero();
    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES, "other-ext")).isZero();
    List<Meter.Id> ids = new ArrayList<>();
    meters.forEachMeter(m -> ids.add(m.getId()));
    assertThat(ids)
        .filteredOn(id -> id.getName().startsWith("loopx.workers"))
        .hasSize(6)
        .allSatisfy(
            id ->
                assertThat(id.getTags()).extracting(t -> t.getKey()).containsExactly("extension"));
    assertThatThrownBy(() -> micrometer.bindPools(List::of))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theDefaultConventionReusesTheKeyValuesOfATagSetItSawAndNeverMixesTwo() {
    DefaultLoopxObservationConvention convention = new DefaultLoopxObservationConvention();
    KeyValues first =
        convention.getLowCardinalityKeyValues(
            new LoopxObservationContext(FakeCall.dispatchBegins("demo-recall")));
    KeyValues again =
        convention.getLowCardinalityKeyValues(
            new LoopxObservationContext(FakeCall.dispatchBegins("demo-recall")));
    KeyValues other =
        convention.getLowCardinalityKeyValues(
            new LoopxObservationContext(FakeCall.dispatchBegins("demo-sum")));

    assertThat(again).isSameAs(first);
    assertThat(first.stream().map(kv -> kv.getKey() + "=" + kv.getValue()))
        .hasSize(9)
        .contains("capability=demo-recall", "outcome=none");
    assertThat(other.stream().map(kv -> kv.getKey() + "=" + kv.getValue()))
        .hasSize(9)
        .contains("capability=demo-sum")
        .doesNotContain("capability=demo-recall");
    assertThat(
            convention.getHighCardinalityKeyValues(
                new LoopxObservationContext(
                    FakeCall.dispatchServed("demo-recall", "warm-recall", "1566783bb5842048"))))
        .extracting(kv -> kv.getKey() + "=" + kv.getValue())
        .containsExactly("provider=warm-recall", "revision=1566783bb5842048");
    assertThat(convention.getName()).isNull();
  }

  private double gauge(String name, String extension) {
    return meters.get(name).tag("extension", extension).gauge().value();
  }

  private static ObservedCall lifecycle(String operation, boolean ended) {
    return new FakeCall(
        "loopx.lifecycle",
        FakeCall.tags(
            "operation",
            operation,
            "extension",
            "warm-recall",
            "mode",
            "execute",
            "outcome",
            ended ? "ok" : "none"),
        ended ? Map.of("revision", "1566783bb5842048") : Map.of(),
        ended,
        false,
        Optional.empty());
  }

  private static ObservedCall doctor(boolean ended) {
    return new FakeCall(
        "loopx.doctor",
        FakeCall.tags(
            "extension",
            "warm-recall",
            "operation",
            "install",
            "outcome",
            ended ? "ready" : "none",
            "failure",
            "none"),
        ended ? Map.of("version", "1.0.0") : Map.of(),
        ended,
        false,
        Optional.empty());
  }
}
