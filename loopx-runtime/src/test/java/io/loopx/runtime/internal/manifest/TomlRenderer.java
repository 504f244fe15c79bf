package io.loopx.runtime.internal.manifest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a tree of plain values (maps, lists, strings, integers, booleans, {@link Raw} literals)
 * as TOML, with the layout randomised by a {@link Random}: key order, table style (section, inline,
 * dotted keys), string style and padding, integer notation, comments, blank lines and whitespace,
 * multi-line arrays, and unknown top-level keys. Every rendering of one tree means the same
 * manifest.
 */
final class TomlRenderer {
  /** A literal rendered verbatim (used to corrupt a value). */
  record Raw(String literal) {
    @Override
    public String toString() {
      return literal;
    }
  }

  private static final Pattern BARE_KEY = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)|\\[(\\d+)]");
  private static final List<String> COMMENTS =
      List.of("note", "key = \"value\"", "[not a table]", "it's \"quoted\"", "ünïcödé", "# again");
  private static final List<String> UNKNOWN_VALUES =
      List.of("1979-05-27T07:32:00Z", "0.5", "[1, \"two\", 3.0]", "{ a = 1 }", "\"text\"", "true");

  private final Random random;
  private final StringBuilder out = new StringBuilder();

  private TomlRenderer(Random random) {
    this.random = random;
  }

  /** Renders {@code doc} with a layout chosen by {@code random}. */
  static String render(Map<String, Object> doc, Random random) {
    return new TomlRenderer(random).document(doc);
  }

  /** Returns a deep copy of {@code doc} with the node at {@code path} replaced by {@code raw}. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> replace(Map<String, Object> doc, String path, Raw raw) {
    Map<String, Object> copy = (Map<String, Object>) deepCopy(doc);
    List<Object> segments = new ArrayList<>();
    Matcher m = SEGMENT.matcher(path);
    while (m.find()) {
      segments.add(m.group(1) != null ? m.group(1) : (Object) Integer.valueOf(m.group(2)));
    }
    Object parent = copy;
    for (int i = 0; i < segments.size() - 1; i++) {
      parent = child(parent, segments.get(i));
    }
    Object last = segments.get(segments.size() - 1);
    if (last instanceof Integer index) {
      ((List<Object>) parent).set(index, raw);
    } else {
      ((Map<String, Object>) parent).put((String) last, raw);
    }
    return copy;
  }

  private static Object child(Object parent, Object segment) {
    return segment instanceof Integer i
        ? ((List<?>) parent).get(i)
        : ((Map<?, ?>) parent).get(segment);
  }

  private static Object deepCopy(Object node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put((String) k, deepCopy(v)));
      return copy;
    }
    if (node instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(deepCopy(v)));
      return copy;
    }
    return node;
  }

  // ------------------------------------------------------------------ document layout

  private String document(Map<String, Object> doc) {
    List<String> simple = new ArrayList<>();
    List<List<String>> sections = new ArrayList<>();
    for (Map.Entry<String, Object> e : doc.entrySet()) {
      String key = key(e.getKey());
      Object value = e.getValue();
      if (value instanceof Map<?, ?> table) {
        int style = random.nextInt(3);
        if (style == 0) {
          simple.add(key + eq() + inlineTable(table));
        } else if (style == 1) {
          for (String line : dottedLines(key, table)) {
            simple.add(line);
          }
        } else {
          sections.add(section("[" + key + "]", table));
        }
      } else if (isArrayOfTables(value) && random.nextInt(4) != 0) {
        List<String> lines = new ArrayList<>();
        for (Object element : (List<?>) value) {
          lines.addAll(section("[[" + key + "]]", (Map<?, ?>) element));
        }
        sections.add(lines);
      } else {
        simple.add(key + eq() + value(value) + trailingComment());
      }
    }
    for (int i = random.nextInt(3); i > 0; i--) {
      simple.add("x_unknown_" + i + eq() + pick(UNKNOWN_VALUES));
    }
    if (random.nextInt(4) == 0) {
      sections.add(List.of("[x_unknown_table]", "when = 2024-01-01", "ratio = 1.5"));
    }
    Collections.shuffle(simple, random);
    Collections.shuffle(sections, random);
    if (random.nextBoolean()) {
      out.append("# generated manifest\n");
    }
    lines(simple);
    for (List<String> section : sections) {
      blank();
      lines(section);
    }
    return out.toString();
  }

  private List<String> section(String header, Map<?, ?> table) {
    List<String> lines = new ArrayList<>();
    lines.add(header + (random.nextInt(4) == 0 ? " # section" : ""));
    List<String> body = new ArrayList<>();
    for (Map.Entry<?, ?> e : table.entrySet()) {
      String key = key((String) e.getKey());
      if (e.getValue() instanceof Map<?, ?> sub && random.nextBoolean()) {
        body.addAll(dottedLines(key, sub));
      } else {
        body.add(key + eq() + value(e.getValue()) + trailingComment());
      }
    }
    Collections.shuffle(body, random);
    lines.addAll(body);
    return lines;
  }

  private List<String> dottedLines(String prefix, Map<?, ?> table) {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<?, ?> e : table.entrySet()) {
      String key = prefix + (random.nextBoolean() ? "." : " . ") + key((String) e.getKey());
      if (e.getValue() instanceof Map<?, ?> sub && !sub.isEmpty() && random.nextBoolean()) {
        lines.addAll(dottedLines(key, sub));
      } else {
        lines.add(key + eq() + value(e.getValue()) + trailingComment());
      }
    }
    if (lines.isEmpty()) {
      lines.add(prefix + eq() + "{}");
    }
    return lines;
  }

  private void lines(List<String> lines) {
    for (String line : lines) {
      if (random.nextInt(6) == 0) {
        out.append("# ").append(pick(COMMENTS)).append('\n');
      }
      if (random.nextInt(8) == 0) {
        blank();
      }
      out.append(random.nextInt(5) == 0 ? "  " : "").append(line).append('\n');
    }
  }

  private void blank() {
    out.append(random.nextBoolean() ? "\n" : " \t\n");
  }

  // ------------------------------------------------------------------ values

  private String value(Object value) {
    if (value instanceof Raw raw) {
      return raw.literal();
    }
    if (value instanceof String s) {
      return string(s);
    }
    if (value instanceof Boolean b) {
      return b.toString();
    }
    if (value instanceof Integer || value instanceof Long) {
      return integer(((Number) value).longValue());
    }
    if (value instanceof Map<?, ?> table) {
      return inlineTable(table);
    }
    if (value instanceof List<?> list) {
      return array(list);
    }
    throw new IllegalArgumentException("cannot render " + value);
  }

  private String array(List<?> list) {
    boolean multiLine = random.nextInt(3) == 0;
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < list.size(); i++) {
      if (multiLine) {
        b.append("\n    ");
      } else if (i > 0) {
        b.append(random.nextBoolean() ? " " : "");
      }
      b.append(value(list.get(i)));
      if (i < list.size() - 1 || (multiLine && random.nextBoolean())) {
        b.append(',');
      }
      if (multiLine && random.nextInt(3) == 0) {
        b.append(" # element ").append(i);
      }
    }
    if (multiLine) {
      b.append('\n');
    }
    return b.append(']').toString();
  }

  private String inlineTable(Map<?, ?> table) {
    List<String> entries = new ArrayList<>();
    for (Map.Entry<?, ?> e : table.entrySet()) {
      entries.add(key((String) e.getKey()) + eq() + inlineValue(e.getValue()));
    }
    Collections.shuffle(entries, random);
    return entries.isEmpty() ? "{}" : "{ " + String.join(", ", entries) + " }";
  }

  /** Inline tables must stay on one line: no multi-line arrays inside them. */
  private String inlineValue(Object value) {
    if (value instanceof List<?> list) {
      List<String> parts = new ArrayList<>();
      for (Object v : list) {
        parts.add(inlineValue(v));
      }
      return "[" + String.join(", ", parts) + "]";
    }
    if (value instanceof Map<?, ?> table) {
      return inlineTable(table);
    }
    return value(value);
  }

  private String string(String s) {
    String padded = random.nextInt(4) == 0 ? " ".repeat(1 + random.nextInt(2)) + s + " " : s;
    int style = random.nextInt(4);
    if (style == 0 && literalSafe(padded)) {
      return "'" + padded + "'";
    }
    if (style == 1 && literalSafe(padded) && !padded.contains("'''")) {
      return "'''" + padded + "'''";
    }
    String escaped = escape(padded);
    if (style == 2) {
      return "\"\"\"" + escaped + "\"\"\"";
    }
    return "\"" + escaped + "\"";
  }

  private static boolean literalSafe(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'' || (c < 0x20 && c != '\t') || c == 0x7F) {
        return false;
      }
    }
    return !s.endsWith("'");
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7F) {
            b.append(String.format("\\u%04X", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  private String integer(long v) {
    int style = random.nextInt(4);
    // night-config 3.8.3 misreads hex literals with an e/E digit as floats: avoid them.
    if (style == 0 && v >= 0 && !Long.toHexString(v).contains("e")) {
      return "0x" + Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
    }
    if (style == 1 && v > 0) {
      return "+" + v;
    }
    if (style == 2 && Math.abs(v) >= 1000) {
      String digits = Long.toString(Math.abs(v));
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < digits.length(); i++) {
        if (i > 0 && (digits.length() - i) % 3 == 0) {
          b.append('_');
        }
        b.append(digits.charAt(i));
      }
      return (v < 0 ? "-" : "") + b;
    }
    return Long.toString(v);
  }

  private String key(String key) {
    if (BARE_KEY.matcher(key).matches() && random.nextInt(5) != 0) {
      return key;
    }
    return random.nextBoolean() && literalSafe(key) ? "'" + key + "'" : "\"" + escape(key) + "\"";
  }

  private String eq() {
    return pick(List.of(" = ", "=", "  =\t", " =  "));
  }

  private String trailingComment() {
    return random.nextInt(5) == 0 ? " # " + pick(COMMENTS) : "";
  }

  private static boolean isArrayOfTables(Object value) {
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      return false;
    }
    for (Object element : list) {
      if (!(element instanceof Map<?, ?>)) {
        return false;
      }
    }
    return true;
  }

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
