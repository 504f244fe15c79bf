package io.loopx.runtime.internal.state;

import io.loopx.runtime.state.ExtensionRecord;
import org.apiguardian.api.API;

/**
 * One entry of the activation state on its own, as compact JSON bytes: the encoding and the checks
 * of an entry of {@code state.json} (docs/contract/state.md), for stores that keep each entry apart
 * (the PostgreSQL store keeps one row per entry).
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class StateEntryCodec {
  private StateEntryCodec() {}

  /**
   * Decodes the entry stored under {@code key}: the bytes must be one strict JSON object with
   * exactly the fields of a state file entry, whose id is {@code key}, every manifest valid and
   * every revision the hash of its manifest.
   *
   * @throws io.loopx.api.LoopxException {@code STATE_UNREADABLE} naming {@code key}
   */
  public static ExtensionRecord decode(String key, byte[] json) {
    return StateCodec.decodeEntry(key, json);
  }

  /** Encodes {@code record} as compact JSON bytes (UTF-8), the form {@link #decode} reads. */
  public static byte[] encode(ExtensionRecord record) {
    return StateCodec.encodeEntry(record);
  }
}
