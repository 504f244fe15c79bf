package io.loopx.opentelemetry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.TraceContext;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end with the OpenTelemetry SDK (in-memory exporter, W3C propagator) and real Python
 * providers that report the trace context they received: a one-shot provider, a warm worker and a
 * doctor probe each get the host's trace id and the LoopX span's id as their parent id.
 */
class TracedProviderTest {
  private static final CapabilityId CAP = CapabilityId.of("demo-recall");
  private static final ProtocolId PROTOCOL = ProtocolId.of("demo_recall_v0");
  private static final ActionToken ACTION = ActionToken.of("demo.recall");
  private static final Permission READ = Permission.of("demo.read");
  private static final String ONE_SHOT = "traced-once";
  private static final String WORKER = "traced-warm";

  @TempDir Path tmp;
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetry otel =
      OpenTelemetrySdk.builder()
          .setTracerProvider(tracerProvider)
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final Tracer host = otel.getTracer("host");
  private final List<Loopx> opened = new ArrayList<>();

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
    tracerProvider.close();
  }

  /** The host's catalog: the public contract {@code demo-recall}, implemented by extensions. */
  static final class Contract implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAP,
              KindToken.of("recall_contract"),
              "Demo recall",
              "active",
              Visibility.PUBLIC,
              "Recall demo things.",
              "Dispatch one real recall.",
              Optional.of("a demo"),
              Optional.of("loopx demo recall"),
              Map.of()));
    }
  }

  private Loopx loopx(Loopx.Builder builder) {
    Loopx loopx =
        builder
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new Contract())
            .build();
    opened.add(loopx);
    return loopx;
  }

  private Loopx traced() {
    return loopx(LoopxTelemetry.create(otel).applyTo(Loopx.builder()));
  }

  /** Writes the package of {@code id} around traced.py; a warm worker when {@code worker}. */
  private Path provider(String id, boolean worker) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    try (InputStream in =
        Objects.requireNonNull(TracedProviderTest.class.getResourceAsStream("traced.py"))) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "permissions = [\"demo.read\"]\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"demo.read\"]\n"
            + "timeout_seconds = 30\n"
            + (worker ? "[runtime.worker]\n" : "")
            + "[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
    return dir;
  }

  private static void install(Loopx loopx, Path dir) {
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
  }

  private static DispatchRequest request(String provider) {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", CAP.value());
    scope.put("operation", "recall");
    DispatchRequest request =
        DispatchRequest.builder(CAP, PROTOCOL, ACTION)
            .scope(scope)
            .permission(READ)
            .providerId(ProviderId.of(provider))
            .input("{\"q\":\"x\"}".getBytes(UTF_8))
            .build();
    return request;
  }

  private static DispatchReceipt dispatch(Loopx loopx, String provider) {
    DispatchReceipt receipt = loopx.dispatch(request(provider), Mode.EXECUTE);
    assertThat(receipt.outcome().status()).as(receipt.toString()).isEqualTo(RunStatus.SUCCEEDED);
    return receipt;
  }

  /** The trace context the provider reported, empty when it received none. */
  private static Optional<TraceContext> received(DispatchReceipt receipt, String path) {
    ObjectNode result = receipt.outcome().providerResult().orElseThrow();
    assertThat(result.get("path").asString()).isEqualTo(path);
    JsonNode trace = result.get("trace");
    if (trace == null || trace.isNull()) {
      return Optional.empty();
    }
    JsonNode state = trace.get("tracestate");
    return Optional.of(
        new TraceContext(
            trace.get("traceparent").asString(), state == null ? "" : state.asString()));
  }

  private static long pid(DispatchReceipt receipt) {
    return receipt.outcome().providerResult().orElseThrow().get("pid").longValue();
  }

  private List<SpanData> spans(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private SpanData only(String name) {
    List<SpanData> spans = spans(name);
    assertThat(spans).as(name).hasSize(1);
    return spans.get(0);
  }

  private static AttributeKey<String> key(String name) {
    return AttributeKey.stringKey(name);
  }

  /** Dispatches to {@code provider} inside a host span; asserts the trace the provider got. */
  private DispatchReceipt assertTracedDispatch(Loopx loopx, String provider, String path) {
    exporter.reset();
    Span hostSpan = host.spanBuilder("host.request").startSpan();
    SpanContext hostContext = hostSpan.getSpanContext();
    DispatchReceipt receipt;
    try (Scope ignored = hostSpan.makeCurrent()) {
      receipt = dispatch(loopx, provider);
    } finally {
      hostSpan.end();
    }
    TraceContext got = received(receipt, path).orElseThrow();
    SpanData span = only("loopx.dispatch");
    assertThat(span.getParentSpanId())
        .as("a child of the host span")
        .isEqualTo(hostContext.getSpanId());
    assertThat(span.getTraceId()).isEqualTo(hostContext.getTraceId());
    assertThat(span.getAttributes().get(key("loopx.path"))).isEqualTo(path);
    assertThat(span.getAttributes().get(key("loopx.extension"))).isEqualTo(provider);
    assertThat(span.getAttributes().get(key("loopx.outcome"))).isEqualTo("succeeded");
    assertThat(got.traceId())
        .as("the provider got the host's trace")
        .isEqualTo(hostContext.getTraceId());
    assertThat(got.parentId()).as("its parent is the LoopX span").isEqualTo(span.getSpanId());
    assertThat(got.sampled()).isTrue();
    return receipt;
  }

  @Test
  void aOneShotProviderGetsTheHostTraceWithTheLoopxSpanAsItsParent() throws IOException {
    Loopx loopx = traced();
    install(loopx, provider(ONE_SHOT, false));
    assertTracedDispatch(loopx, ONE_SHOT, "one_shot");
  }

  @Test
  void aWarmWorkerGetsTheHostTraceInEachFrameWithTheLoopxSpanAsItsParent() throws IOException {
    Loopx loopx = traced();
    install(loopx, provider(WORKER, true));
    long first = pid(assertTracedDispatch(loopx, WORKER, "worker"));
    // the same worker process serves the next call: its frame carries the new span's context
    long second = pid(assertTracedDispatch(loopx, WORKER, "worker"));
    assertThat(second).as("one warm worker").isEqualTo(first);
  }

  @Test
  void anInstallIsALifecycleSpanWithItsDoctorProbeAsAChildAndTheProbeGetsTheDoctorSpan()
      throws IOException {
    Loopx loopx = traced();
    Path dir = provider(ONE_SHOT, false);
    Span hostSpan = host.spanBuilder("host.install").startSpan();
    try (Scope ignored = hostSpan.makeCurrent()) {
      install(loopx, dir);
    } finally {
      hostSpan.end();
    }
    SpanData lifecycle = only("loopx.lifecycle");
    SpanData doctor = only("loopx.doctor");
    assertThat(lifecycle.getParentSpanId()).isEqualTo(hostSpan.getSpanContext().getSpanId());
    assertThat(lifecycle.getAttributes().get(key("loopx.operation"))).isEqualTo("install");
    assertThat(lifecycle.getAttributes().get(key("loopx.outcome"))).isEqualTo("ok");
    assertThat(doctor.getParentSpanId())
        .as("the doctor inside the install")
        .isEqualTo(lifecycle.getSpanId());
    assertThat(doctor.getTraceId()).isEqualTo(hostSpan.getSpanContext().getTraceId());
    assertThat(doctor.getAttributes().get(key("loopx.outcome"))).isEqualTo("ready");

    TraceContext probe =
        TraceContext.parse(Files.readString(dir.resolve("doctor-traceparent")), null)
            .orElseThrow(() -> new AssertionError("the doctor probe got no TRACEPARENT"));
    assertThat(probe.traceId()).isEqualTo(hostSpan.getSpanContext().getTraceId());
    assertThat(probe.parentId()).isEqualTo(doctor.getSpanId());
  }

  @Test
  void withoutACurrentSpanNothingIsPassedToEitherProvider() throws IOException {
    // the source alone (no LoopX span): no host span is current, so there is no context
    Loopx loopx = loopx(Loopx.builder().traceContext(LoopxTelemetry.create(otel).traceContext()));
    install(loopx, provider(ONE_SHOT, false));
    install(loopx, provider(WORKER, true));
    assertThat(received(dispatch(loopx, ONE_SHOT), "one_shot")).isEmpty();
    assertThat(received(dispatch(loopx, WORKER), "worker")).isEmpty();
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void aNoopOpenTelemetryMakesNoSpanAndPassesNothing() throws IOException {
    Loopx loopx = loopx(LoopxTelemetry.create(OpenTelemetry.noop()).applyTo(Loopx.builder()));
    install(loopx, provider(ONE_SHOT, false));
    install(loopx, provider(WORKER, true));
    Span hostSpan = host.spanBuilder("host.request").startSpan();
    try (Scope ignored = hostSpan.makeCurrent()) {
      // the host's own span is current: the no-op tracer's span keeps it, so it is passed on
      TraceContext got = received(dispatch(loopx, ONE_SHOT), "one_shot").orElseThrow();
      assertThat(got.parentId()).isEqualTo(hostSpan.getSpanContext().getSpanId());
    } finally {
      hostSpan.end();
    }
    assertThat(received(dispatch(loopx, WORKER), "worker")).isEmpty();
    assertThat(spans("loopx.dispatch")).isEmpty();
  }

  @Test
  void withoutAHostSpanTheLoopxSpanIsARootAndItIsWhatTheProviderGets() throws IOException {
    Loopx loopx = traced();
    install(loopx, provider(ONE_SHOT, false));
    exporter.reset();
    TraceContext got = received(dispatch(loopx, ONE_SHOT), "one_shot").orElseThrow();
    SpanData span = only("loopx.dispatch");
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(got.traceId()).isEqualTo(span.getTraceId());
    assertThat(got.parentId()).isEqualTo(span.getSpanId());
  }

  @Test
  void aRefusedDispatchIsAnErrorSpanWithTheKindItThrew() {
    Loopx loopx = traced();
    LoopxException refused =
        catchThrowableOfType(
            LoopxException.class, () -> loopx.dispatch(request(ONE_SHOT), Mode.EXECUTE));
    assertThat(refused).as("nothing is installed").isNotNull();
    SpanData span = only("loopx.dispatch");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo(refused.kind().wireName());
    assertThat(span.getAttributes().get(key("error.type"))).isEqualTo(refused.kind().wireName());
    assertThat(span.getAttributes().get(key("loopx.outcome"))).isEqualTo(refused.kind().wireName());
    assertThat(span.getAttributes().get(key("loopx.path"))).as("none is left out").isNull();
  }
}
