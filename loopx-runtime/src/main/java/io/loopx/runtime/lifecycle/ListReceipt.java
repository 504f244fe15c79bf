package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The receipt of {@code Loopx.list} ({@code loopx_extension_state_v0}): the installed extensions
 * sorted by id, with doctor freshness evaluated at read time.
 *
 * <p>Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ListReceipt extends Receipt {
  /** Returns one entry per installed extension, sorted by id. */
  List<Entry> extensions();

  /** One installed extension. Implemented by LoopX only. */
  interface Entry {
    /** Returns the extension. */
    ExtensionId id();

    /** Returns the enabled bit. */
    boolean enabled();

    /** Returns the active revision. */
    Revision activeRevision();

    /** Returns whether a rollback revision is recorded. */
    boolean rollbackAvailable();

    /** Returns whether a fresh doctor proof covers the current runtime (false when disabled). */
    boolean doctorVerified();

    /** Returns the number of recorded revisions. */
    int revisionCount();
  }
}
