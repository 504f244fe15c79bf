package io.loopx.runtime.conformance;

import org.apiguardian.api.API;

/**
 * One check of a provider and what it found. Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ConformanceCheck {
  /**
   * Returns the stable check id (docs/contract/verify.md), for example {@code doctor_exits_zero}.
   */
  String id();

  /** Returns how the check ended. */
  CheckStatus status();

  /** Returns what was observed, in one line of plain text. */
  String evidence();
}
