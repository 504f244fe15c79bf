package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a caller should do next to get past a {@link LoopxException}: a typed step and the value it
 * applies to. A library names the step in words ({@link #describe()}); a host renders it in its own
 * voice (the sample CLI as its command line, for example).
 *
 * @param step the step to take
 * @param extensionId the extension the step applies to
 */
@API(status = API.Status.STABLE, since = "1.0")
public record NextAction(Step step, ExtensionId extensionId) {

  /** The steps LoopX can ask a caller to take. */
  public enum Step {
    /** Run the doctor of the extension with execute, to record a fresh proof. */
    RUN_DOCTOR_EXECUTE
  }

  /** Rejects nulls. */
  public NextAction {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(extensionId, "extensionId");
  }

  /** Returns the step "run the doctor of extension {@code id} with execute". */
  public static NextAction runDoctor(ExtensionId id) {
    return new NextAction(Step.RUN_DOCTOR_EXECUTE, id);
  }

  /** Returns the step in words, e.g. {@code run the doctor of extension `x` with execute}. */
  public String describe() {
    return switch (step) {
      case RUN_DOCTOR_EXECUTE -> "run the doctor of extension `" + extensionId + "` with execute";
    };
  }
}
