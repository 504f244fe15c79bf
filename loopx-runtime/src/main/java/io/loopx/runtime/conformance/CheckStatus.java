package io.loopx.runtime.conformance;

import java.util.Locale;
import org.apiguardian.api.API;

/** How one conformance check ended. */
@API(status = API.Status.STABLE, since = "1.0")
public enum CheckStatus {
  /** The provider did what the protocol asks. */
  PASSED,
  /** The provider did not; the evidence says what was seen. */
  FAILED,
  /** The check does not apply to this provider, or the run was a preview. */
  SKIPPED;

  /** Returns the wire word ({@code passed}, {@code failed}, {@code skipped}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
