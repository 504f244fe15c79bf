package io.loopx.runtime.conformance;

import java.util.Objects;

/** The one implementation of {@link ConformanceCheck} (package-private). */
record ConformanceCheckRecord(String id, CheckStatus status, String evidence)
    implements ConformanceCheck {
  ConformanceCheckRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(evidence, "evidence");
  }
}
