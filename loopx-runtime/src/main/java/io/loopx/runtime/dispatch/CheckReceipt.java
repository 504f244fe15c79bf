package io.loopx.runtime.dispatch;

import io.loopx.api.ExtensionId;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A successful check ({@code loopx_extension_activation_v0}) that extension-owned code may be
 * entered in process: the extension is installed, enabled and doctor-fresh, and its active revision
 * declares every permission the operation needs. Returned by {@link
 * io.loopx.runtime.Loopx#check(ExtensionId, java.util.Set)}; disabling or upgrading the extension
 * affects the next check. Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface CheckReceipt extends Receipt {

  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the active revision's version. */
  String providerVersion();

  /** Returns the active revision. */
  Revision revision();

  /** Returns the permissions the operation needs, sorted. */
  List<Permission> requiredPermissions();
}
