package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An executed doctor of every enabled extension is about to probe extension {@code index} of {@code
 * total}. Nothing was written yet: it reports progress, not a change.
 *
 * @param index the position of this extension, from 1
 * @param total the number of extensions the batch probes
 * @param extensionId the extension about to be probed
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record DoctorProgress(int index, int total, ExtensionId extensionId) implements LoopxEvent {

  /** Rejects null and an index outside 1..total. */
  public DoctorProgress {
    Objects.requireNonNull(extensionId, "extensionId");
    if (index < 1 || index > total) {
      throw new IllegalArgumentException("index " + index + " of " + total);
    }
  }
}
