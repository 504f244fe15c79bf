package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.events.CallCompleted;
import io.loopx.runtime.internal.observe.CallCompletedRecord.Outcome;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How an {@link Observer} measures and reports one call (docs/observing.md): a JFR event, a log
 * line at the level the call's outcome gives, and a {@link CallCompleted}, also for a call refused
 * before a provider ran; all of it inside the host's call observers' scopes ({@link
 * CallObservers}), begun before anything else and ended with the receipt or the error.
 */
final class CallReporter {
  private final System.Logger log;
  private final EventDelivery delivery;
  private final CallObservers observers;

  CallReporter(System.Logger log, EventDelivery delivery, CallObservers observers) {
    this.log = log;
    this.delivery = delivery;
    this.observers = observers;
  }

  /**
   * Measures and reports one dispatch: the call observers' {@code loopx.dispatch}, JFR, a log line,
   * a {@link CallCompleted}. {@code call} notes what it learns in the facts it is given.
   */
  DispatchReceipt dispatch(
      DispatchRequest request, Mode mode, Function<CallFacts, DispatchReceipt> call) {
    if (!observers.any()) {
      return reportDispatch(request, mode, CallFacts.NONE, call);
    }
    CallFacts facts = CallFacts.recording();
    return observers.observe(
        ObservedCallRecord.dispatch(request, mode),
        () -> reportDispatch(request, mode, facts, call),
        receipt -> ObservedCallRecord.dispatch(request, mode, facts, receipt),
        thrown -> ObservedCallRecord.dispatch(request, mode, facts, thrown));
  }

  private DispatchReceipt reportDispatch(
      DispatchRequest request,
      Mode mode,
      CallFacts facts,
      Function<CallFacts, DispatchReceipt> call) {
    JfrEvents.Dispatch jfr = new JfrEvents.Dispatch();
    jfr.begin();
    long start = System.nanoTime();
    DispatchReceipt receipt;
    try {
      receipt = call.apply(facts);
    } catch (LoopxException e) {
      Outcome outcome = Outcome.refused(e.kind());
      dispatched(jfr, request, Optional.empty(), mode, start, outcome);
      throw e;
    }
    dispatched(jfr, request, Optional.of(receipt), mode, start, Outcome.of(receipt.outcome()));
    return receipt;
  }

  private void dispatched(
      JfrEvents.Dispatch jfr,
      DispatchRequest request,
      Optional<DispatchReceipt> receipt,
      Mode mode,
      long start,
      Outcome outcome) {
    Duration duration = Duration.ofNanos(System.nanoTime() - start);
    boolean preview = !mode.executes();
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.capability = request.capabilityId().value();
      jfr.protocol = request.protocol().value();
      jfr.action = request.action().value();
      jfr.provider = receipt.map(r -> r.providerId().value()).orElse("");
      jfr.revision = receipt.map(r -> r.revision().value()).orElse("");
      jfr.preview = preview;
      jfr.outcome = outcome.wireName();
      jfr.commit();
    }
    CallCompleted event =
        CallCompletedRecord.dispatch(
            request.capabilityId(),
            request.protocol(),
            request.action(),
            receipt.map(DispatchReceipt::providerId),
            receipt.map(DispatchReceipt::revision),
            mode,
            duration,
            outcome);
    callLine(
        preview,
        outcome,
        () ->
            "loopx: dispatch "
                + request.capabilityId()
                + " "
                + request.action()
                + event.providerId().map(p -> " by " + p).orElse("")
                + (preview ? " preview" : "")
                + ": "
                + outcome.wireName()
                + " in "
                + duration.toMillis()
                + " ms");
    delivery.publish(List.of(event));
  }

  /**
   * Measures and reports one run: the call observers' {@code loopx.run}, JFR, a log line, a {@link
   * CallCompleted}. {@code call} notes what it learns in the facts it is given.
   */
  RunReceipt run(ExtensionId id, Mode mode, Function<CallFacts, RunReceipt> call) {
    if (!observers.any()) {
      return reportRun(id, mode, CallFacts.NONE, call);
    }
    CallFacts facts = CallFacts.recording();
    return observers.observe(
        ObservedCallRecord.run(id, mode),
        () -> reportRun(id, mode, facts, call),
        receipt -> ObservedCallRecord.run(id, mode, facts, receipt),
        thrown -> ObservedCallRecord.run(id, mode, facts, thrown));
  }

  private RunReceipt reportRun(
      ExtensionId id, Mode mode, CallFacts facts, Function<CallFacts, RunReceipt> call) {
    JfrEvents.Run jfr = new JfrEvents.Run();
    jfr.begin();
    long start = System.nanoTime();
    RunReceipt receipt;
    try {
      receipt = call.apply(facts);
    } catch (LoopxException e) {
      ran(jfr, id, Optional.empty(), mode, start, Outcome.refused(e.kind()));
      throw e;
    }
    ran(jfr, id, Optional.of(receipt), mode, start, Outcome.of(receipt.outcome()));
    return receipt;
  }

  private void ran(
      JfrEvents.Run jfr,
      ExtensionId id,
      Optional<RunReceipt> receipt,
      Mode mode,
      long start,
      Outcome outcome) {
    Duration duration = Duration.ofNanos(System.nanoTime() - start);
    boolean preview = !mode.executes();
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.extension = id.value();
      jfr.revision = receipt.map(r -> r.revision().value()).orElse("");
      jfr.preview = preview;
      jfr.outcome = outcome.wireName();
      jfr.commit();
    }
    CallCompleted event =
        CallCompletedRecord.run(id, receipt.map(RunReceipt::revision), mode, duration, outcome);
    callLine(
        preview,
        outcome,
        () ->
            "loopx: run "
                + id
                + (preview ? " preview" : "")
                + ": "
                + outcome.wireName()
                + " in "
                + duration.toMillis()
                + " ms");
    delivery.publish(List.of(event));
  }

  /**
   * A call's line, by the one rule of docs/observing.md: a failure of the provider or its process
   * (status {@code provider_failed} or {@code invalid_provider_output}, whatever its failure kind,
   * an {@code ok:false} answer included) is WARNING; a call refused before a provider ran is INFO
   * (WARNING for operational kinds); a success or a preview DEBUG. The line names ids and statuses,
   * never the request or the response.
   */
  private void callLine(boolean preview, Outcome outcome, Supplier<String> line) {
    Level level;
    if (outcome.error().isPresent()) {
      level = Observer.operational(outcome.error().get()) ? Level.WARNING : Level.INFO;
    } else if (outcome.failure().isPresent()
        || outcome
            .status()
            .filter(s -> s == RunStatus.PROVIDER_FAILED || s == RunStatus.INVALID_PROVIDER_OUTPUT)
            .isPresent()) {
      level = Level.WARNING;
    } else {
      level = Level.DEBUG;
    }
    if (preview && level != Level.WARNING) {
      level = Level.DEBUG;
    }
    log.log(level, line);
  }
}
