package io.loopx.api.internal;

import io.loopx.api.Digest;
import io.loopx.api.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The RFC 8785 writer behind {@code CanonicalJson}, and the one-pass "canonicalise, digest and
 * copy" that the envelope binder and verifier use (internal).
 *
 * <p>Each call runs one {@link CanonicalWalk} that writes the canonical UTF-8 bytes straight into a
 * buffer, which is either kept ({@link #toBytes}) or streamed into SHA-256 whenever it fills
 * ({@link #sha256Hex}), and, for {@link #copyAndDigest}, builds the deep copy of the tree at the
 * same time: what is copied is exactly what was digested, and nothing is kept between calls. A tree
 * that is not I-JSON throws the same {@link InvalidValueException} as the first violation in
 * canonical order.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CanonicalWriter {
  /** A SHA-256 that was never updated, to clone; null if the provider's cannot be cloned. */
  private static final @Nullable MessageDigest SHA256 = cloneablePrototype();

  private CanonicalWriter() {}

  /**
   * Sees every non-integral number of a tree as it is written, with its canonical text (the ES6
   * form of its nearest double). Called in canonical order, before the walk goes on.
   */
  @FunctionalInterface
  public interface NumberObserver {
    /** Called for a number node that is not integral, with the canonical text just written. */
    void number(JsonNode number, String canonical);
  }

  /**
   * What {@link #copyAndDigest} returns.
   *
   * @param copy a new object holding deep copies of the input's entries, in their order, without
   *     the skipped key
   * @param digest the {@code sha256:<hex>} digest of the canonical JSON of {@code copy}
   * @param compactBound an upper bound of the length of {@code copy} written as compact JSON by
   *     Jackson ({@code StrictJson.toCompactBytes}): every code unit of a string or key counts 6
   *     bytes (its longest escape), every number the longest text of its node type
   */
  public record Copy(ObjectNode copy, Digest digest, long compactBound) {}

  /** Returns the canonical JSON of {@code node} as UTF-8 bytes. */
  public static byte[] toBytes(JsonNode node) {
    CanonicalSink out = new CanonicalSink(null);
    new CanonicalWalk(out, null, false).write(node);
    return Arrays.copyOf(out.bytes, out.size);
  }

  /** Returns the canonical JSON text of {@code node}. */
  public static String toText(JsonNode node) {
    CanonicalSink out = new CanonicalSink(null);
    new CanonicalWalk(out, null, false).write(node);
    return new String(out.bytes, 0, out.size, StandardCharsets.UTF_8);
  }

  /** Returns the 64 lowercase hex characters of the SHA-256 of the canonical bytes. */
  public static String sha256Hex(JsonNode node) {
    CanonicalSink out = new CanonicalSink(sha256());
    new CanonicalWalk(out, null, false).write(node);
    return HexFormat.of().formatHex(out.digest());
  }

  /**
   * Returns the {@code sha256:<hex>} digest of the canonical JSON of {@code object} without its
   * top-level key {@code skipKey} (if it has one), without copying anything.
   */
  public static Digest digestWithout(ObjectNode object, String skipKey) {
    CanonicalSink out = new CanonicalSink(sha256());
    new CanonicalWalk(out, null, false).writeObject(object, skipKey);
    return Digest.of("sha256:" + HexFormat.of().formatHex(out.digest()));
  }

  /**
   * Copies {@code object} without its top-level key {@code skipKey} (if it has one) and digests the
   * copy's canonical JSON, in one walk.
   *
   * @param observer sees every non-integral number, or {@code null}
   * @throws InvalidValueException if the tree is not I-JSON (the first violation in canonical
   *     order, with the message of {@code CanonicalJson})
   */
  public static Copy copyAndDigest(
      ObjectNode object, String skipKey, @Nullable NumberObserver observer) {
    CanonicalSink out = new CanonicalSink(sha256());
    CanonicalWalk walk = new CanonicalWalk(out, observer, true);
    ObjectNode copy = (ObjectNode) walk.writeObject(object, skipKey);
    Digest digest = Digest.of("sha256:" + HexFormat.of().formatHex(out.digest()));
    return new Copy(copy, digest, walk.bound);
  }

  /**
   * An upper bound of the length of {@code node} as compact JSON written by Jackson, counted as
   * {@link Copy#compactBound} is; the tree is not checked.
   */
  public static long compactBound(JsonNode node) {
    if (node.isObject()) {
      long n = 2 + Math.max(0, node.size() - 1);
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        n += CanonicalWalk.stringBound(e.getKey()) + 1 + compactBound(e.getValue());
      }
      return n;
    }
    if (node.isArray()) {
      long n = 2 + Math.max(0, node.size() - 1);
      for (JsonNode element : node) {
        n += compactBound(element);
      }
      return n;
    }
    return CanonicalWalk.scalarBound(node);
  }

  /** A fresh SHA-256, cloned from {@link #SHA256} when it can be (cheaper than a lookup). */
  private static MessageDigest sha256() {
    if (SHA256 != null) {
      try {
        return (MessageDigest) SHA256.clone();
      } catch (CloneNotSupportedException e) {
        // fall through to a lookup
      }
    }
    return newSha256();
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static @Nullable MessageDigest cloneablePrototype() {
    MessageDigest prototype = newSha256();
    try {
      var unused = prototype.clone();
      return prototype;
    } catch (CloneNotSupportedException e) {
      return null;
    }
  }
}
