package io.loopx.runtime.internal.manifest;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A complete TOML 1.0.0 syntax and structure check, run over the decoded text before night-config
 * parses it (package-private). It builds no values: night-config builds the one tree of every
 * document, and this check makes sure it only ever sees documents that TOML 1.0.0 declares valid,
 * naming the line and column of the first problem otherwise.
 *
 * <p>It follows the TOML 1.0.0 ABNF: lines, keys, arrays and inline tables here; whitespace,
 * comments and line breaks in {@link TomlCursor}; the string forms in {@link TomlStrings}; numbers
 * and datetimes in {@link TomlScalars}; the rules on tables and duplicate keys in {@link
 * TomlTables}. Beyond TOML it refuses arrays and inline tables nested deeper than {@link
 * #MAX_NESTING} in one value and keys with more than {@link #MAX_KEY_PARTS} dotted parts
 * (night-config parses both recursively), and what {@link TomlScalars} refuses.
 *
 * <p>The input must not start with a byte-order mark (the caller strips it). The check never
 * throws; its recursion is bounded by {@link #MAX_NESTING}.
 */
final class TomlPreScan {
  /** The deepest allowed nesting of arrays and inline tables within one value. */
  static final int MAX_NESTING = 32;

  /** The most dotted parts allowed in one key or table header. */
  static final int MAX_KEY_PARTS = 32;

  /**
   * The result of a scan: the first problem ({@code line L, column C: detail}), or the document to
   * hand to the parser (the input with non-decimal integers written in decimal).
   */
  record Outcome(Optional<String> problem, String normalized) {}

  private final TomlCursor in;
  private final TomlScalars scalars;
  private final TomlTables tables;
  private int depth;
  // The key path of the value that value() reads next (kept only with positions).
  private String valuePath = "";

  private TomlPreScan(String text, @Nullable Map<String, Integer> offsets) {
    this.in = new TomlCursor(text);
    this.scalars = new TomlScalars(in);
    this.tables = new TomlTables(in, offsets);
  }

  /** Returns the first problem in {@code text} ({@code line L, column C: detail}), or empty. */
  static Optional<String> check(String text) {
    return scan(text).problem();
  }

  /** Checks {@code text} and, when it passes, returns the text for the parser. */
  static Outcome scan(String text) {
    TomlPreScan scan = new TomlPreScan(text, null);
    try {
      scan.document();
    } catch (TomlCursor.Problem p) {
      return new Outcome(Optional.of(p.detail()), text);
    }
    return new Outcome(Optional.empty(), scan.scalars.normalized());
  }

  /**
   * Returns the key paths of a valid {@code text} with their {@code {line, column}} (1-based,
   * columns in code points): where each key, table header, inline table or array element is
   * written. Empty if {@code text} has a problem.
   */
  static Map<String, int[]> positions(String text) {
    Map<String, Integer> offsets = new HashMap<>();
    TomlPreScan scan = new TomlPreScan(text, offsets);
    try {
      scan.document();
    } catch (TomlCursor.Problem p) {
      return Map.of();
    }
    Map<String, int[]> positions = new HashMap<>();
    for (Map.Entry<String, Integer> e : offsets.entrySet()) {
      positions.put(e.getKey(), scan.in.lineAndColumn(e.getValue()));
    }
    return positions;
  }

  // ---- document and lines ------------------------------------------------------------------

  private void document() {
    while (true) {
      in.skipWs();
      if (in.pos >= in.n) {
        return;
      }
      char c = in.peek();
      if (c == '[') {
        header();
      } else if (c != '#' && c != '\n' && c != '\r') {
        keyval(tables.current());
      }
      in.skipWs();
      if (in.peek() == '#') {
        in.comment();
      }
      if (in.pos >= in.n) {
        return;
      }
      if (!in.newline()) {
        throw in.problem(in.pos, "expected a line break, got " + in.describe(in.pos));
      }
    }
  }

  private void header() {
    int start = in.pos;
    boolean array = in.at("[[");
    in.pos += array ? 2 : 1;
    in.skipWs();
    String[] keys = key();
    in.skipWs();
    if (!in.at(array ? "]]" : "]")) {
      throw in.problem(
          in.pos, "expected '" + (array ? "]]" : "]") + "', got " + in.describe(in.pos));
    }
    in.pos += array ? 2 : 1;
    tables.header(keys, array, start);
  }

  private void keyval(TomlTables.Table target) {
    int start = in.pos;
    String[] keys = key();
    in.skipWs();
    if (in.peek() != '=') {
      throw in.problem(in.pos, "expected '=' after a key, got " + in.describe(in.pos));
    }
    in.pos++;
    in.skipWs();
    TomlTables.Table table = tables.keyParent(target, keys, start);
    String last = keys[keys.length - 1];
    if (tables.marking()) {
      valuePath = TomlTables.child(table.path, last);
      tables.mark(valuePath, start);
    }
    TomlTables.define(table, last, value());
  }

  // ---- keys ----------------------------------------------------------------------------------

  private String[] key() {
    String first = simpleKey();
    int afterFirst = in.pos;
    in.skipWs();
    if (in.peek() != '.') {
      in.pos = afterFirst;
      return new String[] {first}; // most keys have one part
    }
    String[] parts = new String[MAX_KEY_PARTS];
    parts[0] = first;
    int count = 1;
    in.pos++;
    in.skipWs();
    while (true) {
      if (count == MAX_KEY_PARTS) {
        throw in.problem(in.pos, "a key has more than " + MAX_KEY_PARTS + " dotted parts");
      }
      parts[count++] = simpleKey();
      int save = in.pos;
      in.skipWs();
      if (in.peek() != '.') {
        in.pos = save;
        String[] keys = new String[count];
        System.arraycopy(parts, 0, keys, 0, count);
        return keys;
      }
      in.pos++;
      in.skipWs();
    }
  }

  private String simpleKey() {
    char c = in.peek();
    if (c == '"' || c == '\'') {
      if (in.at(c == '"' ? "\"\"\"" : "'''")) {
        throw in.problem(in.pos, "a key cannot be a multi-line string");
      }
      String key = c == '"' ? TomlStrings.basic(in, true) : TomlStrings.literal(in, true);
      return Objects.requireNonNull(key, "built key");
    }
    int start = in.pos;
    while (in.pos < in.n && TomlCursor.isBareKeyChar(in.text.charAt(in.pos))) {
      in.pos++;
    }
    if (in.pos == start) {
      throw in.problem(in.pos, "expected a key, got " + in.describe(in.pos));
    }
    return in.text.substring(start, in.pos);
  }

  // ---- values --------------------------------------------------------------------------------

  /** A value: an inline table is returned as such, any other value as a leaf. */
  private TomlTables.Node value() {
    char c = in.peek();
    if (c == '{') {
      return inlineTable();
    }
    switch (c) {
      case '"' -> {
        if (in.at("\"\"\"")) {
          TomlStrings.multiLine(in, '"');
        } else {
          TomlStrings.basic(in, false);
        }
      }
      case '\'' -> {
        if (in.at("'''")) {
          TomlStrings.multiLine(in, '\'');
        } else {
          TomlStrings.literal(in, false);
        }
      }
      case '[' -> array();
      case 't' -> word("true");
      case 'f' -> word("false");
      default -> {
        if (c != '+' && c != '-' && c != 'i' && c != 'n' && !TomlCursor.isDigit(c)) {
          throw in.problem(in.pos, "expected a value, got " + in.describe(in.pos));
        }
        scalars.scalar();
      }
    }
    return TomlTables.Leaf.VALUE;
  }

  private void word(String word) {
    if (!in.at(word) || TomlCursor.isBareKeyChar(in.charAt(in.pos + word.length()))) {
      throw in.problem(in.pos, "expected a value, got " + in.describe(in.pos));
    }
    in.pos += word.length();
  }

  private void array() {
    enter(in.pos);
    in.pos++;
    in.skipWsCommentsNewlines();
    if (in.peek() == ']') {
      in.pos++;
      depth--;
      return;
    }
    String arrayPath = valuePath;
    int index = 0;
    while (true) {
      if (tables.marking()) {
        valuePath = arrayPath + "[" + index++ + "]";
        tables.mark(valuePath, in.pos);
      }
      value();
      in.skipWsCommentsNewlines();
      char c = in.peek();
      if (c == ',') {
        in.pos++;
        in.skipWsCommentsNewlines();
        if (in.peek() == ']') {
          in.pos++;
          depth--;
          return;
        }
      } else if (c == ']') {
        in.pos++;
        depth--;
        return;
      } else {
        throw in.problem(in.pos, "expected ',' or ']' in an array, got " + in.describe(in.pos));
      }
    }
  }

  private TomlTables.Table inlineTable() {
    enter(in.pos);
    in.pos++;
    TomlTables.Table table = TomlTables.openInline(valuePath);
    in.skipWs();
    if (in.peek() == '}') {
      in.pos++;
    } else {
      while (true) {
        keyval(table);
        in.skipWs();
        char c = in.peek();
        if (c == '}') {
          in.pos++;
          break;
        }
        if (c != ',') {
          throw in.problem(
              in.pos, "expected ',' or '}' in an inline table, got " + in.describe(in.pos));
        }
        in.pos++;
        in.skipWs();
        if (in.peek() == '}') {
          throw in.problem(in.pos, "an inline table cannot end with ','");
        }
      }
    }
    depth--;
    TomlTables.close(table);
    return table;
  }

  private void enter(int at) {
    if (depth == MAX_NESTING) {
      throw in.problem(
          at, "arrays and inline tables are nested deeper than " + MAX_NESTING + " levels");
    }
    depth++;
  }
}
