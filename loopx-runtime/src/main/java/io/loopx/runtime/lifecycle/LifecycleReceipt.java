package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The receipt of install, upgrade, enable, disable, rollback and uninstall ({@code
 * loopx_extension_operation_v0}, docs/contract/lifecycle.md). An accessor is empty (or an empty
 * list) where the operation's receipt has no such key; {@link #toJson()} writes each operation's
 * documented keys only.
 *
 * <pre>{@code
 * LifecycleReceipt preview = loopx.upgrade(manifest, Mode.PREVIEW);
 * if (preview.doctor().map(DoctorReceipt::available).orElse(false)) {
 *   loopx.upgrade(manifest, Mode.EXECUTE);
 * }
 * }</pre>
 *
 * <p>Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface LifecycleReceipt extends Receipt {
  /** Returns the operation: {@code install}, {@code upgrade}, {@code enable}, ... */
  String operation();

  /** Returns whether this is a preview or an executed command (the wire's {@code dry_run}). */
  Mode mode();

  /** Returns whether the state was written (always false in a preview). */
  boolean changed();

  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the revision active after the command (in a preview: would be); empty on uninstall. */
  Optional<Revision> revision();

  /** Returns the revision active before an install, upgrade or rollback; empty otherwise. */
  Optional<Revision> previousRevision();

  /**
   * Returns the enabled bit after the command (in a preview of enable, disable and rollback: the
   * current value); empty in a preview of install and upgrade, and on uninstall.
   */
  Optional<Boolean> enabled();

  /** Returns the target revision's doctor packet; empty on disable and uninstall. */
  Optional<DoctorReceipt> doctor();

  /** Returns the target revision's version (install, upgrade, rollback); empty otherwise. */
  Optional<String> version();

  /** Returns problems that do not stop an install or upgrade, one sentence each; else empty. */
  List<String> warnings();

  /** Returns the revisions an uninstall removed (in a preview: would remove), oldest first. */
  List<Revision> removedRevisions();

  /** Returns whether an install or upgrade records a rollback revision; empty otherwise. */
  Optional<Boolean> rollbackAvailable();

  /**
   * Returns, for an install, upgrade or rollback, whether the runtime identity found now was proven
   * for the target revision before this command ({@code target_identity_proven}); false tells the
   * operator the code that runs is not the code proven for that version. Empty otherwise.
   */
  Optional<Boolean> targetIdentityProven();
}
