package io.loopx.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link LoopxMicrometer} on real calls through {@link Loopx}: a built-in dispatch, a one-shot
 * provider and a warm worker (the standard-library Python {@code provider.py}), a refused dispatch
 * and run; observations in a {@link TestObservationRegistry} with a {@link
 * DefaultMeterObservationHandler}, meters in a {@link SimpleMeterRegistry}.
 */
class LoopxMicrometerDispatchTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final CapabilityId RECALL = CapabilityId.of("demo-recall");
  private static final CapabilityId SUM = CapabilityId.of("demo-sum");
  private static final ProtocolId RECALL_PROTOCOL = ProtocolId.of("demo_recall_v0");
  private static final ProtocolId SUM_PROTOCOL = ProtocolId.of("demo_sum_v0");
  private static final Permission READ = Permission.of("demo.read");

  @TempDir Path tmp;
  private final TestObservationRegistry observations = TestObservationRegistry.create();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final List<Loopx> opened = new ArrayList<>();
  private final List<Optional<Observation>> seenByBuiltin = new CopyOnWriteArrayList<>();
  private final List<String> callSeenByBuiltin = new CopyOnWriteArrayList<>();
  private DomainPolicy policy = DomainPolicy.allowAll();

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  /** The host's catalog: {@code demo-recall} (for extensions) and the built-in {@code demo-sum}. */
  private final class Catalog implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-catalog";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(capability(RECALL));
      context.addCapability(capability(SUM));
      context.addImplementation(
          SUM,
          SUM_PROTOCOL,
          request -> {
            Observation current = observations.getCurrentObservation();
            seenByBuiltin.add(Optional.ofNullable(current));
            if (current != null
                && current.getContext() instanceof LoopxObservationContext loopxContext) {
              callSeenByBuiltin.add(
                  loopxContext.call().name()
                      + " ended="
                      + loopxContext.call().ended()
                      + " "
                      + loopxContext.call().lowCardinalityTags());
            }
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            result.put("sum", request.get("a").asInt() + request.get("b").asInt());
            return result;
          });
    }
  }

  private static ProvidedCapability capability(CapabilityId id) {
    return new ProvidedCapability(
        id,
        KindToken.of("demo_contract"),
        "Demo",
        "active",
        Visibility.PUBLIC,
        "A demo capability.",
        "Dispatch one.",
        Optional.of("a demo"),
        Optional.of("loopx demo"),
        Map.of());
  }

  private LoopxMicrometer micrometer;

  private Loopx host() {
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    micrometer = LoopxMicrometer.of(observations, meters);
    Loopx loopx =
        Loopx.builder()
            // Not about isolation: the standalone provider runs as the host's user.
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new Catalog())
            .domainPolicy(r -> policy.decide(r))
            .observer(micrometer)
            .build();
    opened.add(loopx);
    return loopx;
  }

  /**
   * Writes the provider package {@code id} implementing {@code demo-recall} ({@code workerTable}
   * empty: one-shot; {@code null}: a standalone extension, one-shot) and installs it.
   */
  private Path install(Loopx loopx, String id, String workerTable) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    try (InputStream in =
        Objects.requireNonNull(
            getClass().getResourceAsStream("/io/loopx/micrometer/provider.py"))) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + (workerTable == null ? "" : "permissions = [\"demo.read\"]\n")
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n"
            + (workerTable == null ? "" : "required_permissions = [\"demo.read\"]\n")
            + "timeout_seconds = 30\n"
            + (workerTable == null
                ? ""
                : workerTable
                    + "\n[[implements]]\ncapability_id = \"demo-recall\"\n"
                    + "protocol = \"demo_recall_v0\"\n"));
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    return dir;
  }

  private static DispatchRequest recall(String request) {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", RECALL.value());
    scope.put("operation", "recall");
    return DispatchRequest.builder(RECALL, RECALL_PROTOCOL, ActionToken.of("demo.recall"))
        .scope(scope)
        .permission(READ)
        .input(request.getBytes(UTF_8))
        .build();
  }

  private static DispatchRequest sum() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", SUM.value());
    scope.put("operation", "sum");
    return DispatchRequest.builder(SUM, SUM_PROTOCOL, ActionToken.of("demo.sum"))
        .scope(scope)
        .permission(READ)
        .input("{\"a\":2,\"b\":3}".getBytes(UTF_8))
        .build();
  }

  @Test
  void aBuiltInDispatchIsAnObservationCurrentWhileTheProviderRunsAndATimer() {
    Loopx loopx = host();

    DispatchReceipt receipt = loopx.dispatch(sum(), Mode.EXECUTE);

    assertThat(receipt.ok()).as(receipt.toString()).isTrue();
    assertThat(seenByBuiltin).hasSize(1);
    Observation current = seenByBuiltin.get(0).orElseThrow();
    assertThat(current.getContext()).isInstanceOf(LoopxObservationContext.class);
    assertThat(current.getContext().getName()).isEqualTo("loopx.dispatch");
    // while the built-in ran: the dispatch's observation was current, the call not ended yet
    assertThat(callSeenByBuiltin)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("loopx.dispatch ended=false ")
        .contains("capability=demo-sum", "outcome=none");
    assertThat(observations.getCurrentObservation()).isNull();
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasBeenStarted()
        .hasBeenStopped()
        .hasContextualNameEqualTo("loopx dispatch demo-sum")
        .hasLowCardinalityKeyValue("capability", "demo-sum")
        .hasLowCardinalityKeyValue("protocol", "demo_sum_v0")
        .hasLowCardinalityKeyValue("action", "demo.sum")
        .hasLowCardinalityKeyValue("extension", "none")
        .hasLowCardinalityKeyValue("mode", "execute")
        .hasLowCardinalityKeyValue("path", "in_process")
        .hasLowCardinalityKeyValue("outcome", "succeeded")
        .hasLowCardinalityKeyValue("failure", "none")
        .doesNotHaveLowCardinalityKeyValueWithKey("revision")
        .doesNotHaveError();
    Timer timer =
        meters
            .get("loopx.dispatch")
            .tags("capability", "demo-sum", "path", "in_process", "outcome", "succeeded")
            .tag("error", "none")
            .timer();
    assertThat(timer.count()).isEqualTo(1);
    assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).isPositive();
  }

  @Test
  void oneShotDispatchRunAndLifecycleAreObservationsWithTheirRevision() throws IOException {
    Loopx loopx = host();
    install(loopx, "cold-recall", "");
    install(loopx, "solo-run", null);

    DispatchReceipt dispatched = loopx.dispatch(recall("{\"tag\":\"a\"}"), Mode.EXECUTE);
    RunReceipt ran =
        loopx.run(RunRequest.of(ExtensionId.of("solo-run"), "{}".getBytes(UTF_8)), Mode.EXECUTE);

    assertThat(dispatched.ok()).as(dispatched.toString()).isTrue();
    assertThat(ran.ok()).as(ran.toString()).isTrue();
    String revision = dispatched.revision().value();
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasContextualNameEqualTo("loopx dispatch demo-recall")
        .hasLowCardinalityKeyValue("extension", "cold-recall")
        .hasLowCardinalityKeyValue("path", "one_shot")
        .hasLowCardinalityKeyValue("outcome", "succeeded")
        .hasHighCardinalityKeyValue("revision", revision)
        .doesNotHaveLowCardinalityKeyValueWithKey("revision");
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.run")
        .that()
        .hasContextualNameEqualTo("loopx run solo-run")
        .hasLowCardinalityKeyValue("extension", "solo-run")
        .hasLowCardinalityKeyValue("path", "one_shot")
        .hasHighCardinalityKeyValue("revision", ran.revision().value());
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.lifecycle")
        .that()
        .hasContextualNameEqualTo("loopx install cold-recall")
        .hasLowCardinalityKeyValue("operation", "install")
        .hasLowCardinalityKeyValue("outcome", "ok")
        .hasHighCardinalityKeyValue("revision", revision);
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.doctor")
        .that()
        .hasParentObservation()
        .hasLowCardinalityKeyValue("extension", "cold-recall")
        .hasLowCardinalityKeyValue("operation", "install")
        .hasLowCardinalityKeyValue("outcome", "ready");
    assertThat(
            meters
                .get("loopx.dispatch")
                .tags("extension", "cold-recall", "path", "one_shot", "error", "none")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(meters.get("loopx.run").tag("extension", "solo-run").timer().count()).isEqualTo(1);
    // high-cardinality values are never metric tags
    meters.forEachMeter(
        m ->
            assertThat(m.getId().getTags())
                .extracting(t -> t.getKey())
                .doesNotContain("revision", "provider", "version"));
  }

  @Test
  void aRefusedDispatchAndRunAreObservationErrorsAndRefusals() throws IOException {
    Loopx loopx = host();
    policy = DomainPolicy.denyAll();

    assertThatThrownBy(() -> loopx.dispatch(sum(), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED));
    assertThatThrownBy(
            () ->
                loopx.run(
                    RunRequest.of(ExtensionId.of("absent-ext"), "{}".getBytes(UTF_8)),
                    Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.NOT_INSTALLED));

    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasLowCardinalityKeyValue("outcome", "policy_denied")
        .hasLowCardinalityKeyValue("path", "none")
        .hasError();
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.run")
        .that()
        .hasLowCardinalityKeyValue("outcome", "not_installed")
        .hasError();
    assertThat(
            meters
                .get(LoopxMicrometer.REFUSALS)
                .tags("call", "loopx.dispatch", "kind", "policy_denied", "capability", "demo-sum")
                .tag("extension", "none")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            meters
                .get(LoopxMicrometer.REFUSALS)
                .tags("call", "loopx.run", "kind", "not_installed", "capability", "none")
                .tag("extension", "absent-ext")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            meters
                .get("loopx.dispatch")
                .tags("outcome", "policy_denied", "error", "LoopxException")
                .timer()
                .count())
        .isEqualTo(1);
  }

  @Test
  void poolGaugesCountTheWorkerAndItsRequestWhileItServesAndZeroAfterClose() throws Exception {
    Loopx loopx = host();
    Path dir = install(loopx, "warm-recall", "[runtime.worker]\n");
    micrometer.bindTo(loopx);

    DispatchReceipt first = loopx.dispatch(recall("{\"tag\":\"first\"}"), Mode.EXECUTE);
    assertThat(first.ok()).as(first.toString()).isTrue();
    assertThat(observations)
        .hasObservationWithNameEqualTo("loopx.dispatch")
        .that()
        .hasLowCardinalityKeyValue("path", "worker")
        .hasLowCardinalityKeyValue("extension", "warm-recall");
    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES)).isEqualTo(1.0);
    assertThat(gauge(LoopxMicrometer.WORKERS_IN_FLIGHT)).isZero();

    CompletableFuture<DispatchReceipt> blocked =
        CompletableFuture.supplyAsync(
            () -> loopx.dispatch(recall("{\"tag\":\"blocked\",\"until\":\"go\"}"), Mode.EXECUTE));
    assertThat(eventually(() -> Files.exists(dir.resolve("seen").resolve("blocked")))).isTrue();
    assertThat(gauge(LoopxMicrometer.WORKERS_IN_FLIGHT)).isEqualTo(1.0);
    assertThat(gauge(LoopxMicrometer.WORKERS_PROCESSES)).isEqualTo(1.0);
    assertThat(gauge(LoopxMicrometer.WORKERS_QUEUED)).isZero();
    Files.writeString(dir.resolve("go"), "");
    assertThat(blocked.get(SAFETY.toSeconds(), TimeUnit.SECONDS).ok()).isTrue();
    assertThat(gauge(LoopxMicrometer.WORKERS_IN_FLIGHT)).isZero();

    loopx.close();
    assertThat(eventually(() -> gauge(LoopxMicrometer.WORKERS_PROCESSES) == 0.0)).isTrue();
    assertThat(gauge(LoopxMicrometer.WORKERS_IN_FLIGHT)).isZero();
    assertThat(gauge(LoopxMicrometer.WORKERS_QUEUED)).isZero();
  }

  private double gauge(String name) {
    return meters.get(name).tag("extension", "warm-recall").gauge().value();
  }

  /** Waits (a safety net, not a delay) for {@code condition}. */
  private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + SAFETY.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(5);
    }
    return condition.getAsBoolean();
  }
}
