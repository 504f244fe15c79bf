package io.loopx.runtime.internal.observe;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.events.ObservedCall;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.Containment;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ObservedCall} LoopX builds, at a call's start and at its end, with the names, keys and
 * values of docs/observing.md#call-observers: one call's low-cardinality keys are the same, in the
 * same order, at both; a value not known is {@link #NONE}.
 *
 * @param name the call's name
 * @param lowCardinalityTags the metric tags, in their fixed order
 * @param highCardinalityTags the values known so far that are not metric tags
 * @param ended whether the call ended
 * @param failed whether it ended in a failure
 * @param error the kind of the error it threw
 */
public record ObservedCallRecord(
    String name,
    Map<String, String> lowCardinalityTags,
    Map<String, String> highCardinalityTags,
    boolean ended,
    boolean failed,
    Optional<ErrorKind> error)
    implements ObservedCall {
  /** The value of a tag not known (yet). */
  public static final String NONE = "none";

  /** The {@code outcome} of a call that threw something other than a {@link LoopxException}. */
  public static final String EXCEPTION = "exception";

  static final String DISPATCH = "loopx.dispatch";
  static final String RUN = "loopx.run";
  static final String DOCTOR = "loopx.doctor";
  static final String LIFECYCLE = "loopx.lifecycle";

  private static final String[] DISPATCH_KEYS = {
    "capability",
    "protocol",
    "action",
    "extension",
    "mode",
    "path",
    "containment",
    "outcome",
    "failure"
  };
  private static final String[] RUN_KEYS = {
    "extension", "mode", "path", "containment", "outcome", "failure"
  };
  private static final String[] DOCTOR_KEYS = {"extension", "operation", "outcome", "failure"};
  private static final String[] LIFECYCLE_KEYS = {"operation", "extension", "mode", "outcome"};
  private static final String[] REVISION_PROVIDER = {"revision", "provider"};
  private static final String[] REVISION = {"revision"};
  private static final String[] PROVIDER = {"provider"};

  /**
   * Rejects nulls and a failure or error before the end; keeps the maps immutable, in their order.
   */
  public ObservedCallRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(error, "error");
    lowCardinalityTags = Tags.copyOf(lowCardinalityTags);
    highCardinalityTags = Tags.copyOf(highCardinalityTags);
    if (!ended && (failed || error.isPresent())) {
      throw new IllegalArgumentException("a running call has neither failed nor an error");
    }
  }

  // ------------------------------------------------------------------ dispatch

  /** A dispatch at its start. */
  static ObservedCallRecord dispatch(DispatchRequest request, Mode mode) {
    return dispatch(request, mode, CallFacts.NONE, NONE, NONE, NONE, false, Optional.empty());
  }

  /** A dispatch that returned {@code receipt}. */
  static ObservedCallRecord dispatch(
      DispatchRequest request, Mode mode, CallFacts facts, DispatchReceipt receipt) {
    ProviderOutcome outcome = receipt.outcome();
    return dispatch(
        request,
        mode,
        facts,
        containment(receipt.containment()),
        outcome.status().wireName(),
        failure(outcome.failure()),
        true,
        Optional.empty());
  }

  /** A dispatch that threw {@code thrown}. */
  static ObservedCallRecord dispatch(
      DispatchRequest request, Mode mode, CallFacts facts, Throwable thrown) {
    return dispatch(request, mode, facts, NONE, outcome(thrown), NONE, true, Optional.of(thrown));
  }

  private static ObservedCallRecord dispatch(
      DispatchRequest request,
      Mode mode,
      CallFacts facts,
      String containment,
      String outcome,
      String failure,
      boolean ended,
      Optional<Throwable> thrown) {
    Tags low =
        new Tags(
            DISPATCH_KEYS,
            new String[] {
              request.capabilityId().value(),
              request.protocol().value(),
              request.action().value(),
              facts.extensionTag(),
              mode(mode),
              facts.path().wireName(),
              containment,
              outcome,
              failure
            });
    Optional<Revision> revision = facts.revision();
    Optional<ProviderId> provider = facts.provider();
    Tags high;
    if (revision.isPresent() && provider.isPresent()) {
      high =
          new Tags(
              REVISION_PROVIDER, new String[] {revision.get().value(), provider.get().value()});
    } else if (revision.isPresent()) {
      high = new Tags(REVISION, new String[] {revision.get().value()});
    } else if (provider.isPresent()) {
      high = new Tags(PROVIDER, new String[] {provider.get().value()});
    } else {
      high = Tags.EMPTY;
    }
    return new ObservedCallRecord(
        DISPATCH,
        low,
        high,
        ended,
        ended && failed(outcome),
        thrown.flatMap(ObservedCallRecord::kind));
  }

  // ------------------------------------------------------------------ run

  /** A run at its start. */
  static ObservedCallRecord run(ExtensionId id, Mode mode) {
    return run(id, mode, CallFacts.NONE, NONE, NONE, NONE, false, Optional.empty());
  }

  /** A run that returned {@code receipt}. */
  static ObservedCallRecord run(ExtensionId id, Mode mode, CallFacts facts, RunReceipt receipt) {
    facts.revision(receipt.revision()); // the receipt's, should the run have been retried
    ProviderOutcome outcome = receipt.outcome();
    return run(
        id,
        mode,
        facts,
        containment(receipt.containment()),
        outcome.status().wireName(),
        failure(outcome.failure()),
        true,
        Optional.empty());
  }

  /** A run that threw {@code thrown}. */
  static ObservedCallRecord run(ExtensionId id, Mode mode, CallFacts facts, Throwable thrown) {
    return run(id, mode, facts, NONE, outcome(thrown), NONE, true, Optional.of(thrown));
  }

  private static ObservedCallRecord run(
      ExtensionId id,
      Mode mode,
      CallFacts facts,
      String containment,
      String outcome,
      String failure,
      boolean ended,
      Optional<Throwable> thrown) {
    Tags low =
        new Tags(
            RUN_KEYS,
            new String[] {
              id.value(), mode(mode), facts.path().wireName(), containment, outcome, failure
            });
    Tags high =
        facts.revision().map(r -> new Tags(REVISION, new String[] {r.value()})).orElse(Tags.EMPTY);
    return new ObservedCallRecord(
        RUN, low, high, ended, ended && failed(outcome), thrown.flatMap(ObservedCallRecord::kind));
  }

  // ------------------------------------------------------------------ doctor

  /** A doctor evaluation of {@code id}'s revision at {@code version}, by {@code operation}. */
  static ObservedCallRecord doctor(String operation, ExtensionId id, String version) {
    return doctor(operation, id, version, NONE, NONE, false, Optional.empty());
  }

  /** A doctor evaluation that gave a packet of {@code status} and {@code failure}. */
  static ObservedCallRecord doctor(
      String operation,
      ExtensionId id,
      String version,
      DoctorStatus status,
      Optional<DoctorFailure> failure) {
    return doctor(
        operation,
        id,
        version,
        status.wireName(),
        failure.map(DoctorFailure::wireName).orElse(NONE),
        true,
        Optional.empty());
  }

  /** A doctor evaluation that threw {@code thrown}. */
  static ObservedCallRecord doctor(
      String operation, ExtensionId id, String version, Throwable thrown) {
    return doctor(operation, id, version, outcome(thrown), NONE, true, Optional.of(thrown));
  }

  private static ObservedCallRecord doctor(
      String operation,
      ExtensionId id,
      String version,
      String outcome,
      String failure,
      boolean ended,
      Optional<Throwable> thrown) {
    Tags low = new Tags(DOCTOR_KEYS, new String[] {id.value(), operation, outcome, failure});
    return new ObservedCallRecord(
        DOCTOR,
        low,
        Tags.of("version", version),
        ended,
        ended && !outcome.equals(DoctorStatus.READY.wireName()),
        thrown.flatMap(ObservedCallRecord::kind));
  }

  // ------------------------------------------------------------------ lifecycle

  /** A lifecycle command at its start ({@code extension} empty for doctor-all and list). */
  static ObservedCallRecord lifecycle(
      String operation, Optional<ExtensionId> extension, Mode mode) {
    return lifecycle(operation, extension, mode, NONE, Optional.empty(), false, Optional.empty());
  }

  /** A lifecycle command that returned, with {@code revision} active after it (when one). */
  static ObservedCallRecord lifecycle(
      String operation, Optional<ExtensionId> extension, Mode mode, Optional<Revision> revision) {
    return lifecycle(operation, extension, mode, "ok", revision, true, Optional.empty());
  }

  /** A lifecycle command that threw {@code thrown}. */
  static ObservedCallRecord lifecycle(
      String operation, Optional<ExtensionId> extension, Mode mode, Throwable thrown) {
    return lifecycle(
        operation, extension, mode, outcome(thrown), Optional.empty(), true, Optional.of(thrown));
  }

  private static ObservedCallRecord lifecycle(
      String operation,
      Optional<ExtensionId> extension,
      Mode mode,
      String outcome,
      Optional<Revision> revision,
      boolean ended,
      Optional<Throwable> thrown) {
    Tags low =
        new Tags(
            LIFECYCLE_KEYS,
            new String[] {
              operation, extension.map(ExtensionId::value).orElse(NONE), mode(mode), outcome
            });
    Tags high = revision.isPresent() ? Tags.of("revision", revision.get().value()) : Tags.EMPTY;
    return new ObservedCallRecord(
        LIFECYCLE, low, high, ended, thrown.isPresent(), thrown.flatMap(ObservedCallRecord::kind));
  }

  // ------------------------------------------------------------------ values

  private static String mode(Mode mode) {
    return mode.executes() ? "execute" : "preview";
  }

  private static String containment(Optional<Containment> containment) {
    return containment.map(Containment::wireName).orElse(NONE);
  }

  private static String failure(Optional<RunFailure> failure) {
    return failure.map(RunFailure::wireName).orElse(NONE);
  }

  private static Optional<ErrorKind> kind(Throwable thrown) {
    return thrown instanceof LoopxException e ? Optional.of(e.kind()) : Optional.empty();
  }

  /** The error's wire word, or {@link #EXCEPTION} for anything but a {@link LoopxException}. */
  private static String outcome(Throwable thrown) {
    return kind(thrown).map(ErrorKind::wireName).orElse(EXCEPTION);
  }

  /** Whether a dispatch or run with this outcome failed: it threw, or its provider failed. */
  private static boolean failed(String outcome) {
    return !outcome.equals(RunStatus.SUCCEEDED.wireName())
        && !outcome.equals(RunStatus.READY.wireName());
  }
}
