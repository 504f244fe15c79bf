package io.loopx.runtime.run;

import java.util.Locale;
import org.apiguardian.api.API;

/** The {@code status} of a {@link RunReceipt}. */
@API(status = API.Status.STABLE, since = "1.0")
public enum RunStatus {
  /** A preview: every precondition holds and an execute would start the provider. */
  READY,
  /** The provider returned one JSON object, exited 0 and did not report {@code "ok": false}. */
  SUCCEEDED,
  /** The provider could not start, timed out, overflowed stderr, exited non-zero or said not ok. */
  PROVIDER_FAILED,
  /** The provider's stdout was too large or not exactly one JSON object. */
  INVALID_PROVIDER_OUTPUT;

  // Computed once: receipts, events and error packets ask for it on every call.
  private final String wireName = name().toLowerCase(Locale.ROOT);

  /** Returns the snake_case word used on the wire, e.g. {@code provider_failed}. */
  public String wireName() {
    return wireName;
  }
}
