package io.loopx.micrometer;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.WorkerPoolSnapshot;

/** A hand-made {@link WorkerPoolSnapshot}. */
record FakePool(ExtensionId extensionId, Revision revision, int processes, int inFlight, int queued)
    implements WorkerPoolSnapshot {

  static FakePool of(String extension, String revision, int processes, int inFlight, int queued) {
    return new FakePool(
        ExtensionId.of(extension), Revision.of(revision), processes, inFlight, queued);
  }

  @Override
  public int maxProcesses() {
    return 4;
  }

  @Override
  public int maxInFlight() {
    return 1;
  }

  @Override
  public int maxQueued() {
    return 16;
  }
}
