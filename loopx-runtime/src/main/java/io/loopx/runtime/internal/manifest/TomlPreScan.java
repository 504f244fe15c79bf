package io.loopx.runtime.internal.manifest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A complete TOML 1.0.0 syntax and structure check, run over the decoded text before night-config
 * parses it (package-private). night-config builds the values; this check makes sure it only ever
 * sees documents that TOML 1.0.0 declares valid, and names the line and column of the first problem
 * otherwise.
 *
 * <p>It follows the TOML 1.0.0 ABNF (whitespace, line breaks, comments, keys, all four string forms
 * and their escapes, integers, floats, booleans, the four datetime forms with their ranges, arrays
 * and inline tables) and the rules on tables: a table is defined once (by a header, by dotted keys
 * or as an inline table), a super-table may be defined after its sub-tables but only once, dotted
 * keys never extend a table defined by a header or an inline table, an inline table or a static
 * array is never extended, and {@code [[x]]} only appends to an array of tables made by {@code
 * [[x]]}. Beyond TOML it also refuses:
 *
 * <ul>
 *   <li>integer literals outside the signed 64-bit range (night-config would wrap them);
 *   <li>arrays and inline tables nested deeper than {@link #MAX_NESTING} in one value, and keys
 *       with more than {@link #MAX_KEY_PARTS} dotted parts (night-config parses both recursively);
 *   <li>a leap second ({@code :60}), which Java's time types cannot hold.
 * </ul>
 *
 * <p>A document that passes comes back with its hexadecimal, octal and binary integer literals
 * written in decimal: night-config misreads a hexadecimal literal whose last digit is {@code e} or
 * {@code E} ({@code 0xE}, {@code 0x1e}) as a malformed exponent.
 *
 * <p>The input must not start with a byte-order mark (the caller strips it). The check never
 * throws; its recursion is bounded by {@link #MAX_NESTING}.
 */
final class TomlPreScan {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The deepest allowed nesting of arrays and inline tables within one value. */
  static final int MAX_NESTING = 32;

  /** The most dotted parts allowed in one key or table header. */
  static final int MAX_KEY_PARTS = 32;

  /** How a table came to be; decides what may still add to it. */
  private enum Origin {
    /** Created as the super-table of a header: a header may still define it, once. */
    IMPLICIT,
    /** Defined by a {@code [header]}, or an element of an array of tables. */
    HEADER,
    /** Created by dotted keys: dotted keys may extend it, headers may add sub-tables only. */
    DOTTED,
    /** An inline table: complete, nothing may be added. */
    INLINE
  }

  /** A node of the key tree: a table, an array of tables, or any other value. */
  private sealed interface Node permits Table, TableArray, Leaf {}

  private static final class Table implements Node {
    private Origin origin;
    // The key path of the table, as the manifest rules name it (e.g. runtime, provides[0]).
    private final String path;
    private final Map<String, Node> children = new HashMap<>();
    // The table's values in declaration order, as the parser's tree would hold them.
    private final ObjectNode object = NODES.objectNode();

    Table(Origin origin, String path) {
      this.origin = origin;
      this.path = path;
    }
  }

  private static final class TableArray implements Node {
    private final ArrayNode array = NODES.arrayNode();
    private final String path;
    private Table last;

    TableArray(String path) {
      this.path = path;
      this.last = append();
    }

    /** Starts the next element. */
    Table append() {
      last = new Table(Origin.HEADER, path + "[" + array.size() + "]");
      array.add(last.object);
      return last;
    }
  }

  /** A value other than a table: also a static array, which is never extended. */
  private enum Leaf implements Node {
    VALUE
  }

  /** The first problem found; stops the check. */
  private static final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String detail;

    Problem(String detail) {
      super(detail, null, false, false);
      this.detail = detail;
    }
  }

  /**
   * The result of a scan: the first problem ({@code line L, column C: detail}), or the document to
   * hand to the parser (the input with non-decimal integers written in decimal) and, for a document
   * of the simple subset, its tree.
   *
   * <p>The simple subset is TOML without multi-line strings, floats (also {@code inf}, {@code
   * nan}), datetimes and non-decimal integers: tables of all kinds, basic and literal strings,
   * decimal integers, booleans, arrays and inline tables. For such a document the scan builds the
   * tree that night-config's values would convert to (tables as objects in declaration order,
   * integers as int or long nodes by size), so the parse can be skipped; {@code
   * TomlSimpleSubsetTest} compares the two on every valid document of the tests.
   */
  record Outcome(Optional<String> problem, String normalized, Optional<ObjectNode> tree) {}

  /** A literal to replace in the normalised text. */
  private record Rewrite(int start, int end, String replacement) {}

  private final List<Rewrite> rewrites = new ArrayList<>();
  private final String text;
  private final int n;
  private int pos;
  private int depth;
  private final Table root = new Table(Origin.HEADER, "");
  // When asked for positions: the offset where each key path is written; else null.
  private @Nullable Map<String, Integer> offsets;
  // The key path of the value that value() reads next (kept only with offsets).
  private String valuePath = "";
  private Table current = root;
  // Whether the document is still in the simple subset, whose tree the scan builds.
  private boolean building = true;
  // While building: the value that value() read last (null for an inline table, a Table node).
  private @Nullable JsonNode lastValue;

  private TomlPreScan(String text) {
    this.text = text;
    this.n = text.length();
  }

  /** Returns the first problem in {@code text} ({@code line L, column C: detail}), or empty. */
  static Optional<String> check(String text) {
    return scan(text).problem();
  }

  /** Checks {@code text} and, when it passes, returns the text for the parser. */
  static Outcome scan(String text) {
    TomlPreScan scan = new TomlPreScan(text);
    try {
      scan.document();
    } catch (Problem p) {
      return new Outcome(Optional.of(p.detail), text, Optional.empty());
    }
    return new Outcome(
        Optional.empty(),
        scan.normalized(),
        scan.building ? Optional.of(scan.root.object) : Optional.empty());
  }

  /**
   * Returns the key paths of a valid {@code text} with their {@code {line, column}} (1-based,
   * columns in code points): where each key, table header, inline table or array element is
   * written. Empty if {@code text} has a problem.
   */
  static Map<String, int[]> positions(String text) {
    TomlPreScan scan = new TomlPreScan(text);
    Map<String, Integer> offsets = new HashMap<>();
    scan.offsets = offsets;
    try {
      scan.document();
    } catch (Problem p) {
      return Map.of();
    }
    Map<String, int[]> positions = new HashMap<>();
    for (Map.Entry<String, Integer> e : offsets.entrySet()) {
      positions.put(e.getKey(), scan.lineAndColumn(e.getValue()));
    }
    return positions;
  }

  /** Records that the key path {@code path} is written at {@code offset}, if asked for. */
  private void mark(String path, int offset) {
    if (offsets != null) {
      offsets.putIfAbsent(path, offset);
    }
  }

  private static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private String normalized() {
    if (rewrites.isEmpty()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int from = 0;
    for (Rewrite r : rewrites) {
      out.append(text, from, r.start()).append(r.replacement());
      from = r.end();
    }
    return out.append(text, from, n).toString();
  }

  // ---- document, lines and tables ------------------------------------------------------------

  private void document() {
    while (true) {
      skipWs();
      if (pos >= n) {
        return;
      }
      char c = text.charAt(pos);
      if (c == '[') {
        header();
      } else if (c != '#' && c != '\n' && c != '\r') {
        keyval(current);
      }
      skipWs();
      if (peek() == '#') {
        comment();
      }
      if (pos >= n) {
        return;
      }
      if (!newline()) {
        throw problem(pos, "expected a line break, got " + describe(pos));
      }
    }
  }

  private void header() {
    int start = pos;
    boolean array = text.startsWith("[[", pos);
    pos += array ? 2 : 1;
    skipWs();
    String[] keys = key();
    skipWs();
    if (!text.startsWith(array ? "]]" : "]", pos)) {
      throw problem(pos, "expected '" + (array ? "]]" : "]") + "', got " + describe(pos));
    }
    pos += array ? 2 : 1;
    Table table = root;
    for (int i = 0; i < keys.length - 1; i++) {
      Node child = table.children.get(keys[i]);
      if (child == null) {
        Table created = new Table(Origin.IMPLICIT, child(table.path, keys[i]));
        table.children.put(keys[i], created);
        mark(created.path, start);
        table.object.set(keys[i], created.object);
        table = created;
      } else if (child instanceof TableArray list) {
        table = list.last;
      } else if (child instanceof Table t && t.origin != Origin.INLINE) {
        table = t;
      } else {
        throw problem(start, name(keys, i + 1) + " is " + what(child) + ", not a table");
      }
    }
    String last = keys[keys.length - 1];
    Node child = table.children.get(last);
    if (array) {
      if (child == null) {
        TableArray list = new TableArray(child(table.path, last));
        table.children.put(last, list);
        table.object.set(last, list.array);
        current = list.last;
      } else if (child instanceof TableArray list) {
        current = list.append();
      } else {
        throw problem(
            start,
            "[["
                + name(keys, keys.length)
                + "]] cannot append to "
                + what(child)
                + " of that name");
      }
    } else if (child == null) {
      Table created = new Table(Origin.HEADER, child(table.path, last));
      table.children.put(last, created);
      table.object.set(last, created.object);
      current = created;
    } else if (child instanceof Table t && t.origin == Origin.IMPLICIT) {
      t.origin = Origin.HEADER;
      current = t;
    } else {
      throw problem(
          start,
          "table [" + name(keys, keys.length) + "] is defined twice (already " + what(child) + ")");
    }
    mark(current.path, start);
  }

  private void keyval(Table target) {
    int start = pos;
    String[] keys = key();
    skipWs();
    if (peek() != '=') {
      throw problem(pos, "expected '=' after a key, got " + describe(pos));
    }
    pos++;
    skipWs();
    Table table = target;
    for (int i = 0; i < keys.length - 1; i++) {
      Node child = table.children.get(keys[i]);
      if (child == null) {
        Table created = new Table(Origin.DOTTED, child(table.path, keys[i]));
        table.children.put(keys[i], created);
        mark(created.path, start);
        table.object.set(keys[i], created.object);
        table = created;
      } else if (child instanceof Table t
          && (t.origin == Origin.DOTTED || t.origin == Origin.IMPLICIT)) {
        t.origin = Origin.DOTTED;
        table = t;
      } else {
        throw problem(
            start,
            "dotted key "
                + name(keys, keys.length)
                + " cannot extend "
                + what(child)
                + " "
                + name(keys, i + 1));
      }
    }
    String last = keys[keys.length - 1];
    if (table.children.containsKey(last)) {
      throw problem(start, "key " + name(keys, keys.length) + " is defined twice");
    }
    if (offsets != null) {
      valuePath = child(table.path, last);
      mark(valuePath, start);
    }
    Node value = value();
    table.children.put(last, value);
    if (building) {
      table.object.set(last, valueNode(value));
    }
  }

  /** Returns the tree of the value that {@link #value()} just read and returned as {@code node}. */
  private JsonNode valueNode(Node node) {
    return node instanceof Table t ? t.object : Objects.requireNonNull(lastValue, "value");
  }

  private static String what(Node node) {
    if (node instanceof TableArray) {
      return "an array of tables";
    }
    if (node instanceof Table t) {
      return switch (t.origin) {
        case INLINE -> "an inline table";
        case DOTTED -> "a table defined by dotted keys";
        default -> "a table defined by a header";
      };
    }
    return "a value";
  }

  private static String name(String[] keys, int count) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        b.append('.');
      }
      String k = keys[i];
      boolean bare = !k.isEmpty() && k.length() <= 40;
      for (int j = 0; bare && j < k.length(); j++) {
        bare = isBareKeyChar(k.charAt(j));
      }
      b.append(bare ? k : "\"…\"");
    }
    return b.toString();
  }

  // ---- keys ----------------------------------------------------------------------------------

  private String[] key() {
    String first = simpleKey();
    int afterFirst = pos;
    skipWs();
    if (peek() != '.') {
      pos = afterFirst;
      return new String[] {first}; // most keys have one part
    }
    String[] parts = new String[MAX_KEY_PARTS];
    parts[0] = first;
    int count = 1;
    pos++;
    skipWs();
    while (true) {
      if (count == MAX_KEY_PARTS) {
        throw problem(pos, "a key has more than " + MAX_KEY_PARTS + " dotted parts");
      }
      parts[count++] = simpleKey();
      int save = pos;
      skipWs();
      if (peek() != '.') {
        pos = save;
        String[] keys = new String[count];
        System.arraycopy(parts, 0, keys, 0, count);
        return keys;
      }
      pos++;
      skipWs();
    }
  }

  private String simpleKey() {
    char c = peek();
    if (c == '"' || c == '\'') {
      if (text.startsWith(c == '"' ? "\"\"\"" : "'''", pos)) {
        throw problem(pos, "a key cannot be a multi-line string");
      }
      String key = c == '"' ? basicString(true) : literalString(true);
      return Objects.requireNonNull(key, "built key");
    }
    int start = pos;
    while (pos < n && isBareKeyChar(text.charAt(pos))) {
      pos++;
    }
    if (pos == start) {
      throw problem(pos, "expected a key, got " + describe(pos));
    }
    return text.substring(start, pos);
  }

  private static boolean isBareKeyChar(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }

  // ---- values --------------------------------------------------------------------------------

  private Node value() {
    char c = peek();
    switch (c) {
      case '"':
        if (text.startsWith("\"\"\"", pos)) {
          building = false;
          multiLineString('"');
        } else {
          string(basicString(building));
        }
        return Leaf.VALUE;
      case '\'':
        if (text.startsWith("'''", pos)) {
          building = false;
          multiLineString('\'');
        } else {
          string(literalString(building));
        }
        return Leaf.VALUE;
      case '[':
        array();
        return Leaf.VALUE;
      case '{':
        return inlineTable();
      case 't':
        word("true");
        lastValue = NODES.booleanNode(true);
        return Leaf.VALUE;
      case 'f':
        word("false");
        lastValue = NODES.booleanNode(false);
        return Leaf.VALUE;
      default:
        if (c == '+' || c == '-' || c == 'i' || c == 'n' || isDigit(c)) {
          scalar();
          return Leaf.VALUE;
        }
        throw problem(pos, "expected a value, got " + describe(pos));
    }
  }

  private void string(@Nullable String value) {
    if (building) {
      lastValue = NODES.stringNode(Objects.requireNonNull(value, "built string"));
    }
  }

  private void word(String word) {
    if (!text.startsWith(word, pos) || isBareKeyChar(charAt(pos + word.length()))) {
      throw problem(pos, "expected a value, got " + describe(pos));
    }
    pos += word.length();
  }

  private void array() {
    int start = pos;
    enter(start);
    pos++;
    ArrayNode array = building ? NODES.arrayNode() : null;
    lastValue = array;
    skipWsCommentsNewlines();
    if (peek() == ']') {
      pos++;
      depth--;
      return;
    }
    String arrayPath = valuePath;
    int index = 0;
    while (true) {
      if (offsets != null) {
        valuePath = arrayPath + "[" + index++ + "]";
        mark(valuePath, pos);
      }
      Node element = value();
      if (building && array != null) {
        array.add(valueNode(element));
        lastValue = array;
      }
      skipWsCommentsNewlines();
      char c = peek();
      if (c == ',') {
        pos++;
        skipWsCommentsNewlines();
        if (peek() == ']') {
          pos++;
          depth--;
          return;
        }
      } else if (c == ']') {
        pos++;
        depth--;
        return;
      } else {
        throw problem(pos, "expected ',' or ']' in an array, got " + describe(pos));
      }
    }
  }

  private Table inlineTable() {
    enter(pos);
    pos++;
    Table table = new Table(Origin.DOTTED, valuePath);
    skipWs();
    if (peek() == '}') {
      pos++;
    } else {
      while (true) {
        keyval(table);
        skipWs();
        char c = peek();
        if (c == '}') {
          pos++;
          break;
        }
        if (c != ',') {
          throw problem(pos, "expected ',' or '}' in an inline table, got " + describe(pos));
        }
        pos++;
        skipWs();
        if (peek() == '}') {
          throw problem(pos, "an inline table cannot end with ','");
        }
      }
    }
    depth--;
    table.origin = Origin.INLINE;
    return table;
  }

  private void enter(int at) {
    if (depth == MAX_NESTING) {
      throw problem(
          at, "arrays and inline tables are nested deeper than " + MAX_NESTING + " levels");
    }
    depth++;
  }

  /** A number, a boolean-free bare scalar: integer, float, inf/nan or a datetime. */
  private void scalar() {
    int start = pos;
    lastValue = null;
    if (isDigit(charAt(pos)) && isDigit(charAt(pos + 1))) {
      if (charAt(pos + 2) == ':') {
        building = false;
        time(start);
        return;
      }
      if (isDigit(charAt(pos + 2)) && isDigit(charAt(pos + 3)) && charAt(pos + 4) == '-') {
        building = false;
        dateTime(start);
        return;
      }
    }
    number(start);
  }

  private void number(int start) {
    char c = peek();
    boolean signed = c == '+' || c == '-';
    if (signed) {
      pos++;
    }
    if (text.startsWith("inf", pos) || text.startsWith("nan", pos)) {
      building = false;
      pos += 3;
      endOfScalar(start);
      return;
    }
    if (!signed && charAt(pos) == '0' && "xob".indexOf(charAt(pos + 1)) >= 0) {
      building = false; // the parser reads the literal written in decimal
      char base = charAt(pos + 1);
      int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
      pos += 2;
      int digitsStart = pos;
      digits(radix, start);
      endOfScalar(start);
      long value = checkRange(start, text.substring(digitsStart, pos), radix, false);
      rewrites.add(new Rewrite(start, pos, Long.toString(value)));
      return;
    }
    if (!isDigit(peek())) {
      throw problem(start, "malformed number " + token(start));
    }
    int intStart = pos;
    digits(10, start);
    String intPart = text.substring(intStart, pos);
    if (intPart.length() > 1 && intPart.charAt(0) == '0') {
      throw problem(start, "a number cannot have a leading zero: " + token(start));
    }
    boolean isFloat = false;
    if (peek() == '.') {
      pos++;
      if (!isDigit(peek())) {
        throw problem(start, "malformed float " + token(start));
      }
      digits(10, start);
      isFloat = true;
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!isDigit(peek())) {
        throw problem(start, "malformed float " + token(start));
      }
      digits(10, start);
      isFloat = true;
    }
    endOfScalar(start);
    if (isFloat) {
      building = false;
    } else {
      long value = checkRange(start, intPart, 10, text.charAt(start) == '-');
      if (building) {
        lastValue = value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
      }
    }
  }

  /** Digits of {@code radix} with single underscores between digits; at least one digit. */
  private void digits(int radix, int start) {
    if (Character.digit(peek(), radix) < 0 || peek() > 'z') {
      throw problem(start, "malformed number " + token(start));
    }
    while (pos < n) {
      char c = text.charAt(pos);
      if (c == '_') {
        char next = charAt(pos + 1);
        if (Character.digit(next, radix) < 0 || next > 'z') {
          throw problem(start, "an underscore must stand between two digits: " + token(start));
        }
        pos++;
      } else if (c <= 'z' && Character.digit(c, radix) >= 0) {
        pos++;
      } else {
        return;
      }
    }
  }

  /** Returns the value of an integer literal's digits; refuses one outside the 64-bit range. */
  private long checkRange(int start, String digits, int radix, boolean negative) {
    String plain = digits.indexOf('_') < 0 ? digits : digits.replace("_", "");
    try {
      return Long.parseLong(negative ? "-" + plain : plain, radix);
    } catch (NumberFormatException e) {
      throw problem(start, "integer " + token(start) + " is outside the 64-bit range");
    }
  }

  /** A scalar must be followed by whitespace, a comment, a line break, a separator or the end. */
  private void endOfScalar(int start) {
    if (pos < n && " \t\r\n#,]}".indexOf(text.charAt(pos)) < 0) {
      char c = text.charAt(pos);
      if (c < 0x20 || c == 0x7F) {
        throw problem(pos, "unexpected " + describe(pos) + " after " + token(start));
      }
      throw problem(start, "malformed value " + token(start));
    }
  }

  private void dateTime(int start) {
    int year = fixed(4, start);
    expect('-', start);
    int month = fixed(2, start);
    expect('-', start);
    int day = fixed(2, start);
    if (month < 1 || month > 12) {
      throw problem(start, "month out of range in " + token(start));
    }
    if (day < 1 || day > daysIn(year, month)) {
      throw problem(start, "day out of range in " + token(start));
    }
    char c = peek();
    boolean withTime =
        c == 'T'
            || c == 't'
            || (c == ' '
                && isDigit(charAt(pos + 1))
                && isDigit(charAt(pos + 2))
                && charAt(pos + 3) == ':');
    if (!withTime) {
      endOfScalar(start);
      return;
    }
    pos++;
    partialTime(start);
    c = peek();
    if (c == 'Z' || c == 'z') {
      pos++;
    } else if (c == '+' || c == '-') {
      pos++;
      int hours = fixed(2, start);
      expect(':', start);
      int minutes = fixed(2, start);
      if (hours > 23 || minutes > 59) {
        throw problem(start, "offset out of range in " + token(start));
      }
    }
    endOfScalar(start);
  }

  private void time(int start) {
    partialTime(start);
    endOfScalar(start);
  }

  private void partialTime(int start) {
    int hour = fixed(2, start);
    expect(':', start);
    int minute = fixed(2, start);
    expect(':', start);
    int second = fixed(2, start);
    if (hour > 23 || minute > 59 || second > 60) {
      throw problem(start, "time out of range in " + token(start));
    }
    if (second == 60) {
      throw problem(start, "a leap second cannot be represented: " + token(start));
    }
    if (peek() == '.') {
      pos++;
      if (!isDigit(peek())) {
        throw problem(start, "malformed fraction of a second in " + token(start));
      }
      while (isDigit(peek())) {
        pos++;
      }
    }
  }

  private int fixed(int count, int start) {
    int value = 0;
    for (int i = 0; i < count; i++) {
      char c = peek();
      if (!isDigit(c)) {
        throw problem(start, "malformed datetime " + token(start));
      }
      value = value * 10 + (c - '0');
      pos++;
    }
    return value;
  }

  private void expect(char c, int start) {
    if (peek() != c) {
      throw problem(start, "malformed datetime " + token(start));
    }
    pos++;
  }

  private static int daysIn(int year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  // ---- strings -------------------------------------------------------------------------------

  /**
   * A single-line basic string; returns its value if {@code build} (a key), else null (a value,
   * which only needs checking).
   */
  private @Nullable String basicString(boolean build) {
    int start = pos;
    pos++;
    int from = pos;
    StringBuilder value = null;
    while (true) {
      if (pos >= n || text.charAt(pos) == '\n' || text.charAt(pos) == '\r') {
        throw problem(start, "unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        if (!build) {
          return null;
        }
        return value == null ? text.substring(from, pos - 1) : value.toString();
      }
      if (c == '\\') {
        if (build && value == null) {
          value = new StringBuilder().append(text, from, pos);
        }
        escape(value);
      } else {
        allowedInString(c);
        if (value != null) {
          value.append(c);
        }
        pos++;
      }
    }
  }

  /** A single-line literal string; returns its value if {@code build}, else null. */
  private @Nullable String literalString(boolean build) {
    int start = pos;
    pos++;
    int from = pos;
    while (true) {
      if (pos >= n || text.charAt(pos) == '\n' || text.charAt(pos) == '\r') {
        throw problem(start, "unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '\'') {
        pos++;
        return build ? text.substring(from, pos - 1) : null;
      }
      allowedInString(c);
      pos++;
    }
  }

  private void multiLineString(char quote) {
    int start = pos;
    pos += 3;
    newline(); // a line break right after the opening delimiter is trimmed
    while (true) {
      if (pos >= n) {
        throw problem(start, "unterminated multi-line string");
      }
      char c = text.charAt(pos);
      if (c == quote) {
        int run = 0;
        while (charAt(pos + run) == quote) {
          run++;
        }
        if (run >= 3) {
          if (run > 5) {
            throw problem(pos, "too many quotes at the end of a multi-line string");
          }
          pos += run;
          return;
        }
        pos += run;
      } else if (c == '\n' || c == '\r') {
        if (!newline()) {
          throw problem(pos, "a carriage return must be followed by a line feed");
        }
      } else if (c == '\\' && quote == '"') {
        int after = pos + 1;
        while (charAt(after) == ' ' || charAt(after) == '\t') {
          after++;
        }
        char next = charAt(after);
        if (next == '\n' || (next == '\r' && charAt(after + 1) == '\n')) {
          pos = after;
          while (pos < n) {
            char w = text.charAt(pos);
            if (w == ' ' || w == '\t') {
              pos++;
            } else if (!newline()) {
              break;
            }
          }
        } else {
          escape(null);
        }
      } else {
        allowedInString(c);
        pos++;
      }
    }
  }

  /** Checks an escape sequence; appends the character it stands for to {@code value}, if given. */
  private void escape(@Nullable StringBuilder value) {
    int at = pos;
    char e = charAt(pos + 1);
    pos += 2;
    switch (e) {
      case 'b' -> append(value, '\b');
      case 't' -> append(value, '\t');
      case 'n' -> append(value, '\n');
      case 'f' -> append(value, '\f');
      case 'r' -> append(value, '\r');
      case '"' -> append(value, '"');
      case '\\' -> append(value, '\\');
      case 'u', 'U' -> {
        int count = e == 'u' ? 4 : 8;
        int code = 0;
        for (int i = 0; i < count; i++) {
          int d = Character.digit(charAt(pos), 16);
          if (d < 0 || charAt(pos) > 'f') {
            throw problem(at, "malformed unicode escape");
          }
          code = code * 16 + d;
          pos++;
        }
        if (code < 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          throw problem(at, "escape \\" + e + " is not a Unicode scalar value");
        }
        if (value != null) {
          value.appendCodePoint(code);
        }
      }
      default -> throw problem(at, "invalid escape sequence");
    }
  }

  private static void append(@Nullable StringBuilder value, char c) {
    if (value != null) {
      value.append(c);
    }
  }

  /** Refuses control characters (other than tab) and DEL in strings. */
  private void allowedInString(char c) {
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      throw problem(pos, String.format("control character U+%04X must be escaped", (int) c));
    }
  }

  // ---- whitespace, comments, line breaks -----------------------------------------------------

  private void skipWs() {
    while (pos < n && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
      pos++;
    }
  }

  private void skipWsCommentsNewlines() {
    while (true) {
      skipWs();
      if (peek() == '#') {
        comment();
      }
      if (pos >= n || !newline()) {
        return;
      }
    }
  }

  /** Skips a comment up to (not including) its line break. */
  private void comment() {
    pos++;
    while (pos < n) {
      char c = text.charAt(pos);
      if (c == '\n' || (c == '\r' && charAt(pos + 1) == '\n')) {
        return;
      }
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        throw problem(pos, String.format("control character U+%04X in a comment", (int) c));
      }
      pos++;
    }
  }

  /** Consumes LF or CRLF; refuses a bare CR; false when there is no line break here. */
  private boolean newline() {
    char c = peek();
    if (c == '\n') {
      pos++;
      return true;
    }
    if (c == '\r') {
      if (charAt(pos + 1) != '\n') {
        throw problem(pos, "a carriage return must be followed by a line feed");
      }
      pos += 2;
      return true;
    }
    return false;
  }

  // ---- helpers -------------------------------------------------------------------------------

  private char peek() {
    return charAt(pos);
  }

  private char charAt(int i) {
    return i < n ? text.charAt(i) : '\0';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The bare token starting at {@code start}, shortened for messages. */
  private String token(int start) {
    int end = start;
    while (end < n && end - start < 40) {
      char c = text.charAt(end);
      if (c <= ' ' || c == '#' || c == ',' || c == ']' || c == '}' || c > '~') {
        break;
      }
      end++;
    }
    String t = text.substring(start, end);
    return end < n && end - start == 40 && !Character.isWhitespace(text.charAt(end)) ? t + "…" : t;
  }

  private String describe(int at) {
    if (at >= n) {
      return "the end of the file";
    }
    int c = text.codePointAt(at);
    if (c >= 0x21 && c <= 0x7E) {
      return "'" + (char) c + "'";
    }
    return String.format("U+%04X", c);
  }

  private int[] lineAndColumn(int at) {
    int line = 1;
    int lineStart = 0;
    int end = Math.min(at, n);
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new int[] {line, text.codePointCount(lineStart, end) + 1};
  }

  private Problem problem(int at, String detail) {
    int[] position = lineAndColumn(at);
    return new Problem("line " + position[0] + ", column " + position[1] + ": " + detail);
  }
}
