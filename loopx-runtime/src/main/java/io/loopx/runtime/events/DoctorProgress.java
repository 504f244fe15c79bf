package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import org.apiguardian.api.API;

/**
 * An executed doctor of every enabled extension is about to probe extension {@link #index()} of
 * {@link #total()}. Nothing was written yet: it reports progress, not a change. Implemented by
 * LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface DoctorProgress extends LoopxEvent {

  /** Returns the position of this extension, from 1. */
  int index();

  /** Returns the number of extensions the batch probes. */
  int total();

  /** Returns the extension about to be probed. */
  ExtensionId extensionId();
}
