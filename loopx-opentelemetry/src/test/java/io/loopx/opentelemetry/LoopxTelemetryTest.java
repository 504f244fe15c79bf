package io.loopx.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.TraceContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.events.CallObserver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The observer and the trace-context source against the OpenTelemetry SDK, with fake calls. */
class LoopxTelemetryTest {

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetry otel =
      OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
  private final Tracer host = otel.getTracer("host");
  private final LoopxTelemetry telemetry = LoopxTelemetry.create(otel);
  private final CallObserver observer = telemetry.observer();
  private final Supplier<Optional<TraceContext>> source = telemetry.traceContext();

  @AfterEach
  void close() {
    tracerProvider.close();
  }

  private static AttributeKey<String> key(String name) {
    return AttributeKey.stringKey(name);
  }

  private SpanData only() {
    List<SpanData> spans = exporter.getFinishedSpanItems();
    assertThat(spans).hasSize(1);
    return spans.get(0);
  }

  private SpanData named(String name) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name));
  }

  @Test
  void aCallIsOneInternalSpanNamedAsTheCallWithItsTagsAsAttributesAndNoneLeftOut() {
    FakeCall begun =
        FakeCall.begun(
            "loopx.dispatch",
            "capability",
            "demo-recall",
            "protocol",
            "demo_recall_v0",
            "action",
            "demo.recall",
            "extension",
            "none",
            "mode",
            "execute",
            "path",
            "none",
            "containment",
            "none",
            "outcome",
            "none",
            "failure",
            "none");
    CallObserver.Scope scope = observer.begin(begun);
    scope.end(
        begun
            .endedWith(
                "extension", "warm-recall",
                "path", "worker",
                "containment", "process_group",
                "outcome", "succeeded")
            .high("revision", "sha256:abc", "provider", "warm-recall"));

    SpanData span = only();
    assertThat(span.getName()).isEqualTo("loopx.dispatch");
    assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
    assertThat(span.getInstrumentationScopeInfo().getName()).isEqualTo("io.loopx");
    assertThat(span.getInstrumentationScopeInfo().getVersion()).isEqualTo(Loopx.VERSION);
    assertThat(span.getParentSpanContext().isValid()).as("a root span: no host span").isFalse();
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    assertThat(span.getAttributes().asMap())
        .containsOnly(
            org.assertj.core.api.Assertions.entry(key("loopx.capability"), "demo-recall"),
            org.assertj.core.api.Assertions.entry(key("loopx.protocol"), "demo_recall_v0"),
            org.assertj.core.api.Assertions.entry(key("loopx.action"), "demo.recall"),
            org.assertj.core.api.Assertions.entry(key("loopx.extension"), "warm-recall"),
            org.assertj.core.api.Assertions.entry(key("loopx.mode"), "execute"),
            org.assertj.core.api.Assertions.entry(key("loopx.path"), "worker"),
            org.assertj.core.api.Assertions.entry(key("loopx.containment"), "process_group"),
            org.assertj.core.api.Assertions.entry(key("loopx.outcome"), "succeeded"),
            org.assertj.core.api.Assertions.entry(key("loopx.revision"), "sha256:abc"),
            org.assertj.core.api.Assertions.entry(key("loopx.provider"), "warm-recall"));
  }

  @Test
  void theTagsKnownAtTheStartAreOnTheSpanFromItsStartForSamplers() {
    FakeCall begun = FakeCall.begun("loopx.run", "extension", "warm-recall", "mode", "preview");
    CallObserver.Scope scope = observer.begin(begun);
    Span current = Span.current();
    assertThat(current.getSpanContext().isValid()).isTrue();
    // the SDK's span exposes its attributes while it runs
    assertThat(((io.opentelemetry.sdk.trace.ReadableSpan) current).getAttribute(key("loopx.mode")))
        .isEqualTo("preview");
    scope.end(begun.endedWith("outcome", "succeeded"));
    assertThat(only().getAttributes().get(key("loopx.extension"))).isEqualTo("warm-recall");
  }

  @Test
  void theSpanIsCurrentWhileTheCallRunsAsAChildOfTheHostSpanAndTheHostSpanAfter() {
    Span hostSpan = host.spanBuilder("host.request").startSpan();
    try (Scope ignored = hostSpan.makeCurrent()) {
      FakeCall begun = FakeCall.begun("loopx.run", "outcome", "none");
      CallObserver.Scope scope = observer.begin(begun);
      SpanContext during = Span.current().getSpanContext();
      assertThat(during.getSpanId()).isNotEqualTo(hostSpan.getSpanContext().getSpanId());
      assertThat(during.getTraceId()).isEqualTo(hostSpan.getSpanContext().getTraceId());
      scope.end(begun.endedWith("outcome", "succeeded"));
      assertThat(Span.current()).isSameAs(hostSpan);

      SpanData span = only();
      assertThat(span.getSpanId()).isEqualTo(during.getSpanId());
      assertThat(span.getParentSpanId()).isEqualTo(hostSpan.getSpanContext().getSpanId());
    } finally {
      hostSpan.end();
    }
    assertThat(Span.current().getSpanContext().isValid()).isFalse();
  }

  @Test
  void aNestedCallIsAChildOfTheCallThatMadeIt() {
    FakeCall lifecycle = FakeCall.begun("loopx.lifecycle", "operation", "install");
    CallObserver.Scope outer = observer.begin(lifecycle);
    FakeCall doctor = FakeCall.begun("loopx.doctor", "operation", "install");
    CallObserver.Scope inner = observer.begin(doctor);
    inner.end(doctor.endedWith("outcome", "ready").high("version", "1.0.0"));
    outer.end(lifecycle.endedWith("outcome", "ok"));

    SpanData l = named("loopx.lifecycle");
    SpanData d = named("loopx.doctor");
    assertThat(d.getParentSpanId()).isEqualTo(l.getSpanId());
    assertThat(d.getTraceId()).isEqualTo(l.getTraceId());
    assertThat(d.getAttributes().get(key("loopx.version"))).isEqualTo("1.0.0");
  }

  @Test
  void aCallThatThrewHasStatusErrorWithItsErrorKind() {
    FakeCall begun = FakeCall.begun("loopx.dispatch", "outcome", "none", "failure", "none");
    observer
        .begin(begun)
        .end(
            begun
                .endedWith("outcome", "policy_denied")
                .failing(Optional.of(ErrorKind.POLICY_DENIED)));
    SpanData span = only();
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo("policy_denied");
    assertThat(span.getAttributes().get(key("error.type"))).isEqualTo("policy_denied");
    assertThat(span.getAttributes().get(key("loopx.outcome"))).isEqualTo("policy_denied");
  }

  @Test
  void aFailedProviderHasItsFailureKindAndAFailedDoctorItsStatus() {
    FakeCall run = FakeCall.begun("loopx.run", "outcome", "none", "failure", "none");
    observer
        .begin(run)
        .end(
            run.endedWith("outcome", "provider_failed", "failure", "timeout")
                .failing(Optional.empty()));
    FakeCall doctor = FakeCall.begun("loopx.doctor", "outcome", "none", "failure", "none");
    observer
        .begin(doctor)
        .end(doctor.endedWith("outcome", "unavailable").failing(Optional.empty()));

    SpanData r = named("loopx.run");
    assertThat(r.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(r.getAttributes().get(key("error.type"))).isEqualTo("timeout");
    SpanData d = named("loopx.doctor");
    assertThat(d.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(d.getAttributes().get(key("error.type"))).isEqualTo("unavailable");
  }

  @Test
  void withoutACurrentSpanTheSourcePassesNothing() {
    assertThat(source.get()).isEmpty();
  }

  @Test
  void theSourcePassesTheCurrentSpanAsTheParentInW3cForm() {
    Span hostSpan = host.spanBuilder("host.request").startSpan();
    try (Scope ignored = hostSpan.makeCurrent()) {
      SpanContext c = hostSpan.getSpanContext();
      TraceContext passed = source.get().orElseThrow();
      assertThat(passed.traceparent())
          .isEqualTo("00-" + c.getTraceId() + "-" + c.getSpanId() + "-01");
      assertThat(passed.traceId()).isEqualTo(c.getTraceId());
      assertThat(passed.parentId()).isEqualTo(c.getSpanId());
      assertThat(passed.sampled()).isTrue();
      assertThat(passed.tracestate()).isEmpty();
    } finally {
      hostSpan.end();
    }
  }

  @Test
  void theSourcePassesTheTraceStateAndAnUnsampledFlag() {
    SpanContext remote =
        SpanContext.createFromRemoteParent(
            "0af7651916cd43dd8448eb211c80319c",
            "b7ad6b7169203331",
            TraceFlags.getDefault(),
            TraceState.builder()
                .put("congo", "t61rcWkgMzE")
                .put("rojo", "00f067aa0ba902b7")
                .build());
    try (Scope ignored = Span.wrap(remote).makeCurrent()) {
      TraceContext passed = source.get().orElseThrow();
      assertThat(passed.traceparent())
          .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00");
      assertThat(passed.sampled()).isFalse();
      assertThat(passed.tracestate()).isEqualTo("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
    }
  }

  @Test
  void aTraceStateLongerThanTheContractTakesIsDroppedAndTheTraceparentKept() {
    io.opentelemetry.api.trace.TraceStateBuilder state = TraceState.builder();
    for (int i = 0; i < 3; i++) {
      state.put("v" + i, "x".repeat(200));
    }
    SpanContext remote =
        SpanContext.createFromRemoteParent(
            "0af7651916cd43dd8448eb211c80319c",
            "b7ad6b7169203331",
            TraceFlags.getSampled(),
            state.build());
    try (Scope ignored = Span.wrap(remote).makeCurrent()) {
      TraceContext passed = source.get().orElseThrow();
      assertThat(passed.traceparent())
          .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
      assertThat(passed.tracestate()).isEmpty();
    }
  }

  @Test
  void theLoopxSpanIsWhatTheSourcePassesWhileTheCallRuns() {
    Span hostSpan = host.spanBuilder("host.request").startSpan();
    try (Scope ignored = hostSpan.makeCurrent()) {
      FakeCall begun = FakeCall.begun("loopx.dispatch");
      CallObserver.Scope scope = observer.begin(begun);
      TraceContext passed = source.get().orElseThrow();
      scope.end(begun.endedWith());
      SpanData span = only();
      assertThat(passed.traceId()).isEqualTo(hostSpan.getSpanContext().getTraceId());
      assertThat(passed.parentId()).isEqualTo(span.getSpanId());
    } finally {
      hostSpan.end();
    }
  }

  @Test
  void aNoopOpenTelemetryMakesNoSpanAndPassesNothing() {
    LoopxTelemetry noop = LoopxTelemetry.create(OpenTelemetry.noop());
    FakeCall begun = FakeCall.begun("loopx.dispatch", "outcome", "none");
    CallObserver.Scope scope = noop.observer().begin(begun);
    assertThat(noop.traceContext().get()).isEmpty();
    scope.end(begun.endedWith("outcome", "succeeded"));
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void applyToReturnsTheSameBuilderAndNullsAreRefused() {
    Loopx.Builder builder = Loopx.builder();
    assertThat(telemetry.applyTo(builder)).isSameAs(builder);
    assertThatThrownBy(() -> telemetry.applyTo(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> LoopxTelemetry.create(null)).isInstanceOf(NullPointerException.class);
  }
}
