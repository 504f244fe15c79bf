package io.loopx.runtime.conformance;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One check of a provider and what it found.
 *
 * @param id the stable check id (docs/contract/verify.md), for example {@code doctor_exits_zero}
 * @param status how it ended
 * @param evidence what was observed, in one line of plain text
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record ConformanceCheck(String id, CheckStatus status, String evidence) {
  /** Rejects nulls. */
  public ConformanceCheck {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(evidence, "evidence");
  }
}
