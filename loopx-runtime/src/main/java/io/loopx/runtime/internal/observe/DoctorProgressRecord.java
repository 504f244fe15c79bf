package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.events.DoctorProgress;
import java.util.Objects;

/** The {@link DoctorProgress} LoopX delivers. */
public record DoctorProgressRecord(int index, int total, ExtensionId extensionId)
    implements DoctorProgress {

  /** Rejects null and an index outside 1..total. */
  public DoctorProgressRecord {
    Objects.requireNonNull(extensionId, "extensionId");
    if (index < 1 || index > total) {
      throw new IllegalArgumentException("index " + index + " of " + total);
    }
  }
}
