package io.loopx.api.json;

import io.loopx.api.Digest;
import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.CanonicalWriter;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * RFC 8785 JSON Canonicalization Scheme: object keys sorted by UTF-16 code units, no whitespace,
 * minimal string escaping, ES6 number form, UTF-8 bytes.
 *
 * <p>Stateless and thread-safe. Inputs must be I-JSON trees: objects, arrays, strings, numbers,
 * booleans and null. Everything else is rejected with an {@link InvalidValueException}: other node
 * types (missing, binary, POJO), strings or keys holding a lone surrogate (they have no UTF-8
 * form), integral numbers beyond ±2<sup>53</sup>, NaN and infinities.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class CanonicalJson {
  private CanonicalJson() {}

  /**
   * Returns the canonical JSON text of {@code node}.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static String toText(JsonNode node) {
    return CanonicalWriter.toText(node);
  }

  /**
   * Returns the canonical JSON of {@code node} as UTF-8 bytes.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static byte[] toBytes(JsonNode node) {
    return CanonicalWriter.toBytes(node);
  }

  /** Returns the 64 lowercase hex characters of the SHA-256 of the canonical bytes. */
  public static String sha256Hex(JsonNode node) {
    return CanonicalWriter.sha256Hex(node);
  }

  /** Returns the {@code sha256:<hex>} digest of the canonical bytes. */
  public static Digest digest(JsonNode node) {
    return Digest.of("sha256:" + sha256Hex(node));
  }
}
