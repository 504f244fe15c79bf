package io.loopx.runtime;

import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * A typed result of a LoopX operation that serialises to its documented JSON receipt. Every key a
 * receipt documents is present in {@link #toJson()}, {@code null} where it does not apply.
 *
 * <p>Implemented by LoopX only. Implementations are immutable records.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface Receipt {
  /** Returns whether the operation succeeded (or, for a preview, would be attempted). */
  boolean ok();

  /** Returns the receipt's {@code schema_version}. */
  String schemaVersion();

  /** Returns a new JSON object of this receipt. */
  ObjectNode toJson();
}
