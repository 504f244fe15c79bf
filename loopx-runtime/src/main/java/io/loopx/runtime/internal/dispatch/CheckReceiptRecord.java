package io.loopx.runtime.internal.dispatch;

import io.loopx.api.ExtensionId;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.runtime.dispatch.CheckReceipt;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link CheckReceipt} LoopX builds; its {@link #toJson()} is the wire form.
 *
 * @param extensionId the extension
 * @param providerVersion the active revision's version
 * @param revision the active revision
 * @param requiredPermissions the permissions the operation needs, sorted
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record CheckReceiptRecord(
    ExtensionId extensionId,
    String providerVersion,
    Revision revision,
    List<Permission> requiredPermissions)
    implements CheckReceipt {
  static final String SCHEMA_VERSION = "loopx_extension_activation_v0";

  /** Rejects nulls and copies. */
  public CheckReceiptRecord {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(providerVersion, "providerVersion");
    Objects.requireNonNull(revision, "revision");
    requiredPermissions = requiredPermissions.stream().sorted().toList();
  }

  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", true);
    o.put("schema_version", SCHEMA_VERSION);
    o.put("extension_id", extensionId.value());
    o.put("provider_version", providerVersion);
    o.put("revision", revision.value());
    o.put("enabled", true);
    o.put("doctor_verified", true);
    ArrayNode perms = o.putArray("required_permissions");
    requiredPermissions.forEach(p -> perms.add(p.value()));
    return o;
  }
}
