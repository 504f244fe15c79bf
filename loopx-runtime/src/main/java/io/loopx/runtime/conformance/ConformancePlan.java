package io.loopx.runtime.conformance;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code loopx extension verify} checks (package-private): the setup a host gives, the checks
 * in the order they run, and which of them apply to a provider (docs/contract/verify.md). {@link
 * ConformanceRun} runs the plan; {@link ProviderConformance#preview} only lists it.
 */
final class ConformancePlan {
  private ConformancePlan() {}

  /**
   * What an {@code [[implements]]} provider expects to find bound in its envelope.
   *
   * @param action the action the provider checks
   * @param scope the scope the provider checks
   */
  public record Binding(ActionToken action, ObjectNode scope) {
    /** Copies the scope. */
    public Binding {
      scope = scope.deepCopy();
    }

    @Override
    public ObjectNode scope() {
      return scope.deepCopy();
    }
  }

  /**
   * What to check.
   *
   * @param manifest the provider's package
   * @param request the valid request (without an envelope)
   * @param binding the expected binding; present exactly for an {@code [[implements]]} provider
   * @param effectMarker a path the provider writes when it has an effect
   * @param hostEnvironment the environment handed to the provider ({@code HOME} is replaced)
   * @param runtimeEnvironment where {@code java} and the host code path are
   */
  public record Setup(
      LoadedManifest manifest,
      ObjectNode request,
      Optional<Binding> binding,
      Optional<Path> effectMarker,
      Map<String, String> hostEnvironment,
      RuntimeEnvironment runtimeEnvironment,
      IsolationPolicy isolation) {
    /** Copies the request and the environment. */
    public Setup {
      request = request.deepCopy();
      hostEnvironment = Map.copyOf(hostEnvironment);
      Objects.requireNonNull(isolation, "isolation");
    }

    /** A setup without isolation. */
    public Setup(
        LoadedManifest manifest,
        ObjectNode request,
        Optional<Binding> binding,
        Optional<Path> effectMarker,
        Map<String, String> hostEnvironment,
        RuntimeEnvironment runtimeEnvironment) {
      this(
          manifest,
          request,
          binding,
          effectMarker,
          hostEnvironment,
          runtimeEnvironment,
          IsolationPolicy.OFF);
    }

    @Override
    public ObjectNode request() {
      return request.deepCopy();
    }

    RuntimeSpec runtime() {
      return manifest.manifest().runtime().orElseThrow();
    }
  }

  /** The checks, in the order they run. */
  public enum Check {
    /** The doctor args exit 0. */
    DOCTOR_EXITS_ZERO("run the doctor in a scratch working directory and HOME and expect exit 0"),
    /** The doctor creates, changes and removes nothing under the scratch directories. */
    DOCTOR_WRITES_NOTHING("compare the scratch directories before and after the doctor"),
    /** The bare request, without an envelope, is refused. */
    ENVELOPE_MISSING_REFUSED("send the request without an envelope and expect ok:false"),
    /** An envelope a caller wrote (revision and digest not bound by the host) is refused. */
    ENVELOPE_CALLER_MADE_REFUSED(
        "send an envelope a caller wrote (unbound revision and digest) and expect ok:false"),
    /** Every single-field mutation of the bound envelope is refused. */
    ENVELOPE_MUTATIONS_REFUSED("send each single-field envelope mutation and expect ok:false"),
    /** The effect marker is still absent after the refused requests. */
    EFFECT_MARKER_ABSENT("check that the refused requests left the effect marker absent"),
    /** The valid request gets exit 0 and exactly one JSON object without ok:false. */
    REQUEST_ONE_JSON_OBJECT("send the request and expect exit 0 and exactly one JSON object"),
    /** The answer is valid UTF-8. */
    OUTPUT_UTF8("check that the answer is valid UTF-8"),
    /** The answer came within timeout_seconds. */
    ANSWER_WITHIN_TIMEOUT("check that the answer came within timeout_seconds"),
    /** The valid request padded to exactly the size cap is answered like the valid one. */
    REQUEST_AT_SIZE_CAP("send the request padded to exactly 1000000 bytes and expect an answer"),
    /** A worker's first line is the handshake. */
    WORKER_HANDSHAKE("start worker mode and expect the handshake as the first line"),
    /** A worker answers each framed request exactly once, and writes nothing else. */
    WORKER_ONE_RESPONSE_PER_REQUEST("send 3 request frames and expect one response frame each"),
    /** A worker exits 0 by itself on stdin end-of-file. */
    WORKER_EXITS_ON_EOF("close the worker's stdin and expect exit 0");

    private final String plan;

    Check(String plan) {
      this.plan = plan;
    }

    /** Returns the check's wire id. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Returns what the check does, for a preview. */
    public String plan() {
      return plan;
    }
  }

  /**
   * Returns why each check would be skipped, or empty when it runs, in order.
   *
   * @throws LoopxException {@code request_invalid} when the setup cannot be checked
   */
  static Map<Check, Optional<String>> of(Setup setup) {
    validate(setup);
    Map<Check, Optional<String>> plan = new LinkedHashMap<>();
    boolean implementer = setup.binding().isPresent();
    for (Check c : Check.values()) {
      Optional<String> skip = Optional.empty();
      switch (c) {
        case ENVELOPE_MISSING_REFUSED, ENVELOPE_CALLER_MADE_REFUSED, ENVELOPE_MUTATIONS_REFUSED -> {
          if (!implementer) {
            skip = Optional.of("a standalone provider receives no execution envelope");
          }
        }
        case EFFECT_MARKER_ABSENT -> {
          if (!implementer) {
            skip = Optional.of("a standalone provider receives no execution envelope");
          } else if (setup.effectMarker().isEmpty()) {
            skip = Optional.of("no effect marker given");
          }
        }
        case WORKER_HANDSHAKE, WORKER_ONE_RESPONSE_PER_REQUEST, WORKER_EXITS_ON_EOF -> {
          if (setup.runtime().worker().isEmpty()) {
            skip = Optional.of("the manifest declares no [runtime.worker]");
          }
        }
        default -> {}
      }
      plan.put(c, skip);
    }
    return plan;
  }

  private static void validate(Setup setup) {
    if (setup.manifest().manifest().runtime().isEmpty()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the manifest of `"
              + setup.manifest().manifest().id()
              + "` declares no [runtime]: there is no provider to verify");
    }
    boolean implementer = !setup.manifest().manifest().implementations().isEmpty();
    if (implementer && setup.binding().isEmpty()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "`"
              + setup.manifest().manifest().id()
              + "` implements a capability: give the action and scope its envelope binds");
    }
    if (!implementer && setup.binding().isPresent()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "`"
              + setup.manifest().manifest().id()
              + "` implements no capability: it receives no envelope, so no action or scope");
    }
    if (setup.request().has(ExecutionEnvelope.REQUEST_KEY)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the request already holds `"
              + ExecutionEnvelope.REQUEST_KEY
              + "`: give the bare request, the check binds the envelope");
    }
  }
}
