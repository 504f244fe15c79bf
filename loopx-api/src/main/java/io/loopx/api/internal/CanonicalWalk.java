package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.DoubleNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NumericNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * One depth-first walk of {@link CanonicalWriter} in canonical order (object keys sorted by UTF-16
 * code units): writes the RFC 8785 bytes into a {@link CanonicalSink}, optionally builds the deep
 * copy of the tree at the same time, and adds up the compact-length bound of {@link
 * CanonicalWriter.Copy#compactBound}. It throws {@link InvalidValueException} at the first
 * violation in canonical order: other node types, lone surrogates in strings or keys, integers
 * beyond ±2<sup>53</sup>, NaN and infinities.
 *
 * <p>Strings are escaped in one scan over their code units (RFC 8785 §3.2.2.2: {@code \b \t \n \f
 * \r \" \\} short, other controls as lowercase <code>&#92;u00hh</code>, everything else as UTF-8).
 * Keys that are already sorted are not re-sorted. Integral int and long nodes are written digit by
 * digit; other numbers go through {@link Es6Numbers}. Jackson's value nodes are immutable, so the
 * copy shares them and copies only objects and arrays, as {@code deepCopy()} does.
 */
final class CanonicalWalk {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The ASCII characters a JSON string escapes: controls, quote and backslash. */
  private static final boolean[] ESCAPED = new boolean[0x80];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPED[c] = true;
    }
    ESCAPED['"'] = true;
    ESCAPED['\\'] = true;
  }

  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  /** Objects up to this size are sorted by insertion sort; larger ones by {@link Arrays#sort}. */
  private static final int SMALL_OBJECT = 16;

  /** The bound of a binary number node: see {@link #scalarBound}. */
  private static final long DOUBLE_BOUND = 26;

  /** Strings up to this length are first tried as plain ASCII (no escapes), without chunks. */
  private static final int SHORT_STRING = 32;

  /** Code units of a string handled per chunk (at most; {@link #units} holds one more). */
  private static final int CHUNK = 1024;

  /**
   * Sorting permutations kept per walk, with their keys (objects at different depths alternate).
   */
  private static final int KEPT_ORDERS = 4;

  private final CanonicalSink out;
  private final CanonicalWriter.@Nullable NumberObserver observer;
  private final boolean copy;
  long bound;
  // The keys and permutations of the last KEPT_ORDERS objects whose keys needed sorting, each key
  // list copied; the next slot to replace.
  private final String[][] keptKeys = new String[KEPT_ORDERS][];
  private final int[][] keptOrders = new int[KEPT_ORDERS][];
  private int nextKept;
  // The arrays of writeObject per nesting depth (grown with it), and the current depth.
  private String[][] keyArrays = new String[8][];
  private JsonNode[][] valueArrays = new JsonNode[8][];
  private JsonNode[][] copyArrays = new JsonNode[8][];
  private int depth;
  // A chunk of the string being written (see writeString), allocated when first needed.
  private char @Nullable [] units;

  CanonicalWalk(
      CanonicalSink out, CanonicalWriter.@Nullable NumberObserver observer, boolean copy) {
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
    if (node instanceof NumericNode) {
      writeNumber(node);
      return node;
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
    List<JsonNode> copies = copy ? new ArrayList<>(Math.max(4, size)) : null;
    bound += 2 + Math.max(0, size - 1);
    out.put('[');
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        out.put(',');
      }
      JsonNode c = write(node.get(i));
      if (copies != null) {
        copies.add(c);
      }
    }
    out.put(']');
    return copies == null ? node : new ArrayNode(NODES, copies);
  }

  /**
   * Writes an object, leaving out the key {@code skipKey} if it is not null. Its keys, values and
   * copies are gathered in arrays kept per nesting depth for the walk, not allocated per object.
   */
  JsonNode writeObject(JsonNode node, @Nullable String skipKey) {
    int capacity = node.size();
    int level = depth++;
    if (level == keyArrays.length) {
      int grown = level * 2;
      keyArrays = Arrays.copyOf(keyArrays, grown);
      valueArrays = Arrays.copyOf(valueArrays, grown);
      copyArrays = Arrays.copyOf(copyArrays, grown);
    }
    String[] keys = keyArrays[level];
    JsonNode[] values = valueArrays[level];
    if (keys == null || values == null || keys.length < capacity) {
      int length = Math.max(16, capacity);
      keys = new String[length];
      values = new JsonNode[length];
      keyArrays[level] = keys;
      valueArrays[level] = values;
      copyArrays[level] = copy ? new JsonNode[length] : null;
    }
    JsonNode[] copies = copyArrays[level];
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
    depth = level;
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
   * String#compareTo}, as RFC 8785 requires; keys are unique), else the sorting permutation. The
   * last {@value #KEPT_ORDERS} permutations computed are kept for the walk, with a copy of their
   * keys: the objects of an array usually have the same keys in the same order, equal key lists
   * have the same permutation, and the objects nested in each element (a note and its {@code meta})
   * alternate, so one kept permutation would be replaced every time. Permutations are only read
   * once returned.
   */
  private int @Nullable [] canonicalOrder(String[] keys, int n) {
    int first = 1;
    while (first < n && keys[first - 1].compareTo(keys[first]) < 0) {
      first++;
    }
    if (first >= n) {
      return null;
    }
    for (int slot = 0; slot < KEPT_ORDERS; slot++) {
      String[] kept = keptKeys[slot];
      if (kept != null && kept.length == n && sameKeys(kept, keys, n)) {
        return keptOrders[slot];
      }
    }
    int[] order = sortingPermutation(keys, n, first);
    int slot = nextKept;
    keptKeys[slot] = Arrays.copyOf(keys, n);
    keptOrders[slot] = order;
    nextKept = (slot + 1) % KEPT_ORDERS;
    return order;
  }

  private static boolean sameKeys(String[] kept, String[] keys, int n) {
    for (int i = 0; i < n; i++) {
      String k = kept[i];
      if (k != keys[i] && !k.equals(keys[i])) {
        return false;
      }
    }
    return true;
  }

  /** The permutation that sorts the first {@code n} keys; those before {@code first} are. */
  private static int[] sortingPermutation(String[] keys, int n, int first) {
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
    Class<?> type = node.getClass();
    if (type == DoubleNode.class) {
      // The common non-integral node (what put(double) makes), by exact class instead of the
      // virtual type tests below: the same text, bound and observer call as for any number.
      double d = node.doubleValue();
      if (Double.isFinite(d)) {
        int start = Es6Numbers.write(d, out);
        bound += DOUBLE_BOUND;
        if (observer != null) {
          observer.number(
              node, new String(out.bytes, start, out.size - start, StandardCharsets.ISO_8859_1));
        }
        return;
      }
    }
    if (type == IntNode.class || type == LongNode.class || node.isInt() || node.isLong()) {
      // Every int and long node is integral; the range check and digits are those of format().
      long v = node.longValue();
      if (v >= -Es6Numbers.MAX_SAFE_MAGNITUDE && v <= Es6Numbers.MAX_SAFE_MAGNITUDE) {
        out.putLong(v);
        bound += 20;
        return;
      }
    }
    int start = Es6Numbers.write(node, out);
    bound += scalarBound(node);
    if (observer != null && !node.isIntegralNumber()) {
      observer.number(
          node, new String(out.bytes, start, out.size - start, StandardCharsets.ISO_8859_1));
    }
  }

  /**
   * Writes a JSON string with the minimal RFC 8785 escaping, as UTF-8, in one pass over its UTF-16
   * code units straight into the sink: no encoded copy of the string is made. Each code unit needs
   * at most six bytes (a control's <code>&#92;u00hh</code> escape; a surrogate pair takes four for
   * two units), so the pass runs in chunks of code units for which the sink has room. Each chunk is
   * first copied into the walk's {@link #units} with {@link String#getChars} (one bulk copy, or
   * widening, of the string's array), so that the loop reads a plain {@code char[]} instead of
   * calling {@link String#charAt} per unit; runs of plain ASCII take a short inner loop. A string
   * of at most {@value #SHORT_STRING} units (keys, most values) is first written as plain ASCII in
   * one loop without chunks; at its first other unit the general path goes on from there. A lone
   * surrogate throws the message of {@link #requireNoLoneSurrogate}, which names the first one in
   * the string, as the JDK-encoder version did.
   */
  private void writeString(String s) {
    CanonicalSink o = out;
    int length = s.length();
    int i = 0;
    if (length <= SHORT_STRING) {
      // Keys and short values, mostly plain ASCII: one loop, no chunks; at the first other unit,
      // the general loop below goes on from there.
      o.room(SHORT_STRING + 2);
      byte[] b = o.bytes;
      int p = o.size;
      b[p++] = '"';
      char c;
      while (i < length && (c = s.charAt(i)) < 0x80 && !ESCAPED[c]) {
        b[p++] = (byte) c;
        i++;
      }
      if (i == length) {
        b[p++] = '"';
        o.size = p;
        return;
      }
      o.size = p;
    } else {
      o.put('"');
    }
    while (i < length) {
      int free = (o.bytes.length - o.size) / 6;
      if (free == 0) {
        o.room(6);
        free = (o.bytes.length - o.size) / 6;
      }
      int end = Math.min(length, i + Math.min(free, CHUNK));
      int m = end - i;
      // One unit more than the chunk when there is one: the low half of a pair at the chunk's end.
      int copied = Math.min(length, end + 1) - i;
      char[] u = units;
      if (u == null || u.length < copied) {
        u = new char[Math.max(copied, 128)];
        units = u;
      }
      s.getChars(i, i + copied, u, 0);
      byte[] b = o.bytes;
      int p = o.size;
      int j = 0;
      while (j < m) {
        char c = u[j];
        if (c < 0x80 && !ESCAPED[c]) {
          // A run of plain ASCII: one byte per unit.
          b[p++] = (byte) c;
          j++;
          while (j < m && (c = u[j]) < 0x80 && !ESCAPED[c]) {
            b[p++] = (byte) c;
            j++;
          }
          continue;
        }
        if (c < 0x80) {
          p = escape(b, p, c);
        } else if (c < 0x800) {
          b[p++] = (byte) (0xc0 | (c >> 6));
          b[p++] = (byte) (0x80 | (c & 0x3f));
        } else if (!Character.isSurrogate(c)) {
          b[p++] = (byte) (0xe0 | (c >> 12));
          b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
          b[p++] = (byte) (0x80 | (c & 0x3f));
        } else {
          char low = j + 1 < copied ? u[j + 1] : 0;
          if (!Character.isHighSurrogate(c) || !Character.isLowSurrogate(low)) {
            requireNoLoneSurrogate(s);
            throw new IllegalStateException("lone surrogate not found"); // unreachable
          }
          int cp = Character.toCodePoint(c, low);
          b[p++] = (byte) (0xf0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          b[p++] = (byte) (0x80 | (cp & 0x3f));
          j++; // the low surrogate: four bytes for two units, within the six of the first
        }
        j++;
      }
      o.size = p;
      i += j; // j is m + 1 when a pair crossed the chunk's end
    }
    o.put('"');
  }

  /** Writes the escape of an ASCII quote, backslash or control character at {@code p}. */
  private static int escape(byte[] b, int p, char c) {
    b[p++] = '\\';
    switch (c) {
      case '"' -> b[p++] = '"';
      case '\\' -> b[p++] = '\\';
      case '\b' -> b[p++] = 'b';
      case '\f' -> b[p++] = 'f';
      case '\n' -> b[p++] = 'n';
      case '\r' -> b[p++] = 'r';
      case '\t' -> b[p++] = 't';
      default -> {
        // RFC 8785 §3.2.2.2: any other control as a u00hh escape with lowercase hex.
        b[p++] = 'u';
        b[p++] = '0';
        b[p++] = '0';
        b[p++] = HEX[c >> 4];
        b[p++] = HEX[c & 0xf];
      }
    }
    return p;
  }

  static long stringBound(String s) {
    return 2 + 6L * s.length();
  }

  /** Longest compact text of a scalar node: see {@link CanonicalWriter.Copy#compactBound}. */
  static long scalarBound(JsonNode node) {
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
      return DOUBLE_BOUND; // long: 20, Double.toString: 24, Float.toString: 15
    }
    if (node.isBoolean() || node.isNull()) {
      return 5;
    }
    return Long.MAX_VALUE / 4; // not JSON: the exact check decides
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
