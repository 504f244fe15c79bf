package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One state entry written by an executed command of this {@code Loopx} (one per changed entry of a
 * compare-and-set write). Previews never emit it. Implemented by LoopX only; hosts do not implement
 * it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface LifecycleTransition extends LoopxEvent {

  /**
   * Returns the command ({@code install}, {@code upgrade}, {@code enable}, {@code disable}, {@code
   * rollback}, {@code doctor}, {@code uninstall}; {@code run} or {@code dispatch} for a revocation
   * after a changed runtime).
   */
  String operation();

  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the active revision before (empty on install). */
  Optional<Revision> previousRevision();

  /** Returns the active revision after (empty on uninstall). */
  Optional<Revision> newRevision();

  /** Returns the enabled bit before ({@code false} on install). */
  boolean enabledBefore();

  /** Returns the enabled bit after ({@code false} on uninstall). */
  boolean enabledAfter();

  /** Returns the status of the doctor packet the command evaluated for it, if it evaluated one. */
  Optional<DoctorStatus> doctorStatus();

  /** Returns why the entry was written. */
  TransitionCause cause();
}
