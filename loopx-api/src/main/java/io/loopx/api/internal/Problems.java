package io.loopx.api.internal;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.NextAction;
import org.apiguardian.api.API;

/** Failures raised in the same words by several modules: one owner per message. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Problems {
  private Problems() {}

  /**
   * Returns the {@code DOCTOR_STALE} failure of an enabled extension whose doctor proof does not
   * cover its runtime now; its next action is to run the doctor with execute.
   */
  public static LoopxException doctorStale(ExtensionId id) {
    return new LoopxException(
        ErrorKind.DOCTOR_STALE,
        "extension `" + id + "` doctor readiness is stale",
        NextAction.runDoctor(id));
  }
}
