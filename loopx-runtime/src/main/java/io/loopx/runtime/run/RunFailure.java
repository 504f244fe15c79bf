package io.loopx.runtime.run;

import java.util.Locale;
import org.apiguardian.api.API;

/** The {@code failure_kind} of a {@link RunReceipt}, when the run failed for a named reason. */
@API(status = API.Status.STABLE, since = "0.1")
public enum RunFailure {
  /** The provider process could not be started. */
  EXECUTION_FAILED,
  /** The manifest's timeout elapsed; LoopX terminated the provider's process group. */
  TIMEOUT,
  /** Stdout exceeded 1,000,000 bytes; LoopX terminated the provider's process group. */
  RESPONSE_TOO_LARGE,
  /** Stderr exceeded 1,000,000 bytes; LoopX terminated the provider's process group. */
  STDERR_TOO_LARGE,
  /** Stdout was not exactly one strict JSON object (whitespace around it is allowed). */
  RESPONSE_NOT_JSON_OBJECT;

  /** Returns the snake_case word used on the wire, e.g. {@code response_too_large}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
