package io.loopx.api.internal;

import io.loopx.api.Digest;
import io.loopx.api.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The RFC 8785 writer behind {@code CanonicalJson}, and the one-pass "canonicalise, digest and
 * copy" that the envelope binder and verifier use (internal).
 *
 * <p>One depth-first walk in canonical order (object keys sorted by UTF-16 code units) writes the
 * canonical UTF-8 bytes straight into a buffer, which is either kept ({@link #toBytes}) or streamed
 * into SHA-256 whenever it fills ({@link #sha256Hex}), and, for {@link #copyAndDigest}, builds the
 * deep copy of the tree at the same time: what is copied is exactly what was digested, and nothing
 * is kept between calls. The walk throws the same {@link InvalidValueException} as the first
 * violation in canonical order: other node types, lone surrogates in strings or keys, integers
 * beyond ±2<sup>53</sup>, NaN and infinities.
 *
 * <p>Strings are encoded by the JDK and escaped in one scan over the encoded bytes (RFC 8785
 * §3.2.2.2: {@code \b \t \n \f \r \" \\} short, other controls as lowercase <code>&#92;u00hh</code>
 * , everything else as UTF-8). Keys that are already sorted are not re-sorted. Integral int and
 * long nodes are written digit by digit; other numbers go through {@link Es6Numbers}. Jackson's
 * value nodes are immutable, so the copy shares them and copies only objects and arrays, as {@code
 * deepCopy()} does.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CanonicalWriter {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The bytes {@code writeString} stops at: controls, quote, backslash and {@code ?}. */
  private static final boolean[] SPECIAL = new boolean[256];

  static {
    for (int c = 0; c < 0x20; c++) {
      SPECIAL[c] = true;
    }
    SPECIAL['"'] = true;
    SPECIAL['\\'] = true;
    SPECIAL['?'] = true;
  }

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  /** Objects up to this size are sorted by insertion sort; larger ones by {@link Arrays#sort}. */
  private static final int SMALL_OBJECT = 16;

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
    new Walk(out, null, false).write(node);
    return Arrays.copyOf(out.bytes, out.size);
  }

  /** Returns the canonical JSON text of {@code node}. */
  public static String toText(JsonNode node) {
    CanonicalSink out = new CanonicalSink(null);
    new Walk(out, null, false).write(node);
    return new String(out.bytes, 0, out.size, StandardCharsets.UTF_8);
  }

  /** Returns the 64 lowercase hex characters of the SHA-256 of the canonical bytes. */
  public static String sha256Hex(JsonNode node) {
    CanonicalSink out = new CanonicalSink(sha256());
    new Walk(out, null, false).write(node);
    return HexFormat.of().formatHex(out.digest());
  }

  /**
   * Returns the {@code sha256:<hex>} digest of the canonical JSON of {@code object} without its
   * top-level key {@code skipKey} (if it has one), without copying anything.
   */
  public static Digest digestWithout(ObjectNode object, String skipKey) {
    CanonicalSink out = new CanonicalSink(sha256());
    new Walk(out, null, false).writeObject(object, skipKey);
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
    Walk walk = new Walk(out, observer, true);
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
        n += stringBound(e.getKey()) + 1 + compactBound(e.getValue());
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
    return scalarBound(node);
  }

  private static long stringBound(String s) {
    return 2 + 6L * s.length();
  }

  /** Longest compact text of a scalar node: see {@link Copy#compactBound}. */
  private static long scalarBound(JsonNode node) {
    if (node.isString()) {
      return stringBound(node.asString());
    }
    if (node.isNumber()) {
      if (node.isBigDecimal()) {
        // BigDecimal.toString: sign, digits, point, "0.00000" or "E+" and up to 10 exponent digits
        return node.decimalValue().precision() + 20L;
      }
      if (node.isBigInteger()) {
        return node.bigIntegerValue().bitLength() / 3 + 3L;
      }
      return 26; // long: 20, Double.toString: 24, Float.toString: 15
    }
    if (node.isBoolean() || node.isNull()) {
      return 5;
    }
    return Long.MAX_VALUE / 4; // not JSON: the exact check decides
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** One walk: writes canonically, optionally copies and bounds the compact length. */
  private static final class Walk {
    private final CanonicalSink out;
    private final @Nullable NumberObserver observer;
    private final boolean copy;
    long bound;

    Walk(CanonicalSink out, @Nullable NumberObserver observer, boolean copy) {
      this.out = out;
      this.observer = observer;
      this.copy = copy;
    }

    /** Writes {@code node}; returns its copy when copying, else {@code node}. */
    JsonNode write(JsonNode node) {
      // The common node classes first, by type test instead of a virtual call each.
      if (node instanceof StringNode) {
        String s = node.asString();
        writeString(s);
        bound += stringBound(s);
        return node;
      }
      if (node instanceof ObjectNode) {
        return writeObject(node, null);
      }
      if (node instanceof ArrayNode) {
        return writeArray(node);
      }
      switch (node.getNodeType()) {
        case OBJECT -> {
          return writeObject(node, null);
        }
        case ARRAY -> {
          return writeArray(node);
        }
        case STRING -> {
          String s = node.asString();
          writeString(s);
          bound += stringBound(s);
        }
        case NUMBER -> writeNumber(node);
        case BOOLEAN -> {
          out.put(node.booleanValue() ? TRUE : FALSE);
          bound += 5;
        }
        case NULL -> {
          out.put(NULL);
          bound += 4;
        }
        default ->
            throw new InvalidValueException(
                "canonical JSON value", String.valueOf(node.getNodeType()), "is not a JSON value");
      }
      return node;
    }

    private JsonNode writeArray(JsonNode node) {
      int size = node.size();
      JsonNode[] copies = copy ? new JsonNode[size] : null;
      bound += 2 + Math.max(0, size - 1);
      out.put('[');
      for (int i = 0; i < size; i++) {
        if (i > 0) {
          out.put(',');
        }
        JsonNode c = write(node.get(i));
        if (copies != null) {
          copies[i] = c;
        }
      }
      out.put(']');
      if (copies == null) {
        return node;
      }
      List<JsonNode> elements = new ArrayList<>(Math.max(4, size));
      Collections.addAll(elements, copies);
      return new ArrayNode(NODES, elements);
    }

    /** Writes an object, leaving out the key {@code skipKey} if it is not null. */
    JsonNode writeObject(JsonNode node, @Nullable String skipKey) {
      int capacity = node.size();
      String[] keys = new String[capacity];
      JsonNode[] values = new JsonNode[capacity];
      int n = 0;
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String key = e.getKey();
        if (skipKey != null && skipKey.equals(key)) {
          continue;
        }
        keys[n] = key;
        values[n] = e.getValue();
        n++;
      }
      // order[j] is the insertion index of the j-th key in canonical order.
      int[] order = canonicalOrder(keys, n);
      JsonNode[] copies = copy ? new JsonNode[n] : null;
      bound += 2 + Math.max(0, n - 1);
      out.put('{');
      for (int j = 0; j < n; j++) {
        int i = order == null ? j : order[j];
        if (j > 0) {
          out.put(',');
        }
        writeString(keys[i]);
        bound += stringBound(keys[i]) + 1;
        out.put(':');
        JsonNode c = write(values[i]);
        if (copies != null) {
          copies[i] = c;
        }
      }
      out.put('}');
      if (copies == null) {
        return node;
      }
      Map<String, JsonNode> children = new LinkedHashMap<>(Math.max(4, n * 4 / 3 + 1));
      for (int i = 0; i < n; i++) {
        children.put(keys[i], copies[i]);
      }
      return new ObjectNode(NODES, children);
    }

    /**
     * Returns null when the first {@code n} keys are sorted by UTF-16 code units ({@link
     * String#compareTo}, as RFC 8785 requires; keys are unique), else the sorting permutation.
     */
    private static int @Nullable [] canonicalOrder(String[] keys, int n) {
      int first = 1;
      while (first < n && keys[first - 1].compareTo(keys[first]) < 0) {
        first++;
      }
      if (first >= n) {
        return null;
      }
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      if (n <= SMALL_OBJECT) {
        for (int i = first; i < n; i++) {
          int current = order[i];
          String key = keys[current];
          int j = i - 1;
          while (j >= 0 && keys[order[j]].compareTo(key) > 0) {
            order[j + 1] = order[j];
            j--;
          }
          order[j + 1] = current;
        }
        return order;
      }
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, (a, b) -> keys[a].compareTo(keys[b]));
      for (int i = 0; i < n; i++) {
        order[i] = boxed[i];
      }
      return order;
    }

    private void writeNumber(JsonNode node) {
      if (node.isInt() || node.isLong()) {
        // Every int and long node is integral; the range check and digits are those of format().
        long v = node.longValue();
        if (v >= -Es6Numbers.MAX_SAFE_MAGNITUDE && v <= Es6Numbers.MAX_SAFE_MAGNITUDE) {
          out.putLong(v);
          bound += 20;
          return;
        }
      }
      String text = Es6Numbers.format(node);
      out.putAscii(text);
      bound += scalarBound(node);
      if (observer != null && !node.isIntegralNumber()) {
        observer.number(node, text);
      }
    }

    /**
     * Writes a JSON string with the minimal RFC 8785 escaping, as UTF-8. The JDK's encoder does the
     * encoding (a copy for Latin-1 text); a lone surrogate, which it would replace by {@code ?}, is
     * looked for only when the encoded form holds a {@code ?}. Every byte that needs an escape is
     * ASCII, and ASCII bytes never occur inside a multi-byte UTF-8 sequence, so escaping works on
     * the encoded bytes.
     */
    private void writeString(String s) {
      CanonicalSink o = out;
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      int length = utf8.length;
      o.room(length + 2 <= CanonicalSink.STREAM_BUFFER ? length + 2 : 1);
      o.bytes[o.size++] = '"';
      int run = 0;
      boolean surrogatesChecked = false;
      for (int i = 0; i < length; i++) {
        byte c = utf8[i];
        if (!SPECIAL[c & 0xff]) {
          continue; // printable ASCII other than the three below, or part of a multi-byte sequence
        }
        if (c == '?') {
          if (!surrogatesChecked) {
            requireNoLoneSurrogate(s);
            surrogatesChecked = true;
          }
          continue;
        }
        o.put(utf8, run, i - run);
        o.putEscape(c);
        run = i + 1;
      }
      o.put(utf8, run, length - run);
      o.put('"');
    }
  }

  private static void requireNoLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          throw new InvalidValueException(
              "canonical JSON string",
              s,
              String.format("contains a lone surrogate U+%04X at index %d", (int) c, i));
        }
      }
    }
  }
}
