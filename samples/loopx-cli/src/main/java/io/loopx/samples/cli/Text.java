package io.loopx.samples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Plain-text building blocks of the text format: aligned tables and {@code key: value} lines. The
 * data they show is {@linkplain SafeText#escaped escaped}; only {@link Style} adds escape codes.
 */
final class Text {
  private Text() {}

  /**
   * Returns a JSON scalar as text: strings bare, {@code null} as {@code -}; control, separator and
   * bidirectional control characters {@linkplain SafeText#escaped escaped}.
   */
  static String scalar(JsonNode node) {
    if (node.isNull() || node.isMissingNode()) {
      return "-";
    }
    if (node.isString()) {
      return SafeText.escaped(node.stringValue());
    }
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.values().forEach(v -> items.add(scalar(v)));
      return "[" + String.join(", ", items) + "]";
    }
    return SafeText.escaped(node.toString());
  }

  /** Returns {@code text} padded with spaces to {@code width} code points. */
  static String pad(String text, int width) {
    int length = text.codePointCount(0, text.length());
    return length >= width ? text : text + " ".repeat(width - length);
  }

  /**
   * Renders {@code key: value} lines for the scalar leaves of {@code object}: nested objects are
   * flattened with dotted keys ({@code doctor.status}), arrays of objects with an index ({@code
   * extensions[0].id}), arrays of scalars inline, multi-line strings (a {@code stderr_tail}) as
   * indented lines under their key. Keys are aligned; the values of keys ending in {@code status}
   * are highlighted. Keys and values are {@linkplain SafeText#escaped escaped}.
   */
  static String keyValues(JsonNode object, Style style) {
    List<Map.Entry<String, JsonNode>> lines = new ArrayList<>();
    flatten("", object, lines);
    int width = 0;
    for (Map.Entry<String, JsonNode> line : lines) {
      width = Math.max(width, line.getKey().length() + 1);
    }
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, JsonNode> line : lines) {
      String key = line.getKey();
      JsonNode node = line.getValue();
      if (node.isString() && node.stringValue().indexOf('\n') >= 0) {
        // Multi-line text (a stderr tail): one escaped line each, indented under the key.
        out.append(key).append(":\n");
        for (String text : node.stringValue().split("\n", -1)) {
          if (!text.isEmpty()) {
            out.append("    ").append(SafeText.escaped(text)).append('\n');
          }
        }
        continue;
      }
      String value = scalar(node);
      boolean status = key.equals("status") || key.endsWith(".status");
      out.append(pad(key + ":", width))
          .append(' ')
          .append(status ? style.status(value) : value)
          .append('\n');
    }
    return out.toString();
  }

  private static void flatten(String prefix, JsonNode node, List<Map.Entry<String, JsonNode>> out) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String key = SafeText.escaped(e.getKey());
        flatten(prefix.isEmpty() ? key : prefix + "." + key, e.getValue(), out);
      }
    } else if (node.isArray() && containsContainers(node)) {
      int i = 0;
      for (JsonNode element : node.values()) {
        flatten(prefix + "[" + i++ + "]", element, out);
      }
    } else {
      out.add(Map.entry(prefix, node));
    }
  }

  private static boolean containsContainers(JsonNode array) {
    for (JsonNode element : array.values()) {
      if (element.isContainer()) {
        return true;
      }
    }
    return false;
  }

  /** An aligned table with a header row; cells in a highlighted column are status words. */
  static final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();
    private final Predicate<Integer> statusColumn;

    /** Creates a table; {@code statusColumn} says which column indexes hold status words. */
    Table(List<String> headers, Predicate<Integer> statusColumn) {
      this.headers = List.copyOf(headers);
      this.statusColumn = statusColumn;
    }

    /** Adds a row of exactly one cell per header, {@linkplain SafeText#escaped escaped}. */
    Table row(List<String> cells) {
      if (cells.size() != headers.size()) {
        throw new IllegalArgumentException("expected " + headers.size() + " cells: " + cells);
      }
      rows.add(cells.stream().map(SafeText::escaped).toList());
      return this;
    }

    /** Returns the table, or {@code emptyLine} when it has no rows. */
    String render(Style style, String emptyLine) {
      if (rows.isEmpty()) {
        return emptyLine + "\n";
      }
      int[] widths = new int[headers.size()];
      for (int c = 0; c < headers.size(); c++) {
        widths[c] = headers.get(c).length();
        for (List<String> row : rows) {
          widths[c] = Math.max(widths[c], row.get(c).codePointCount(0, row.get(c).length()));
        }
      }
      StringBuilder out = new StringBuilder();
      appendRow(out, headers, widths, style, true);
      for (List<String> row : rows) {
        appendRow(out, row, widths, style, false);
      }
      return out.toString();
    }

    private void appendRow(
        StringBuilder out, List<String> cells, int[] widths, Style style, boolean header) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < cells.size(); c++) {
        boolean last = c == cells.size() - 1;
        String cell = last ? cells.get(c) : pad(cells.get(c), widths[c]);
        if (header) {
          cell = style.bold(cell);
        } else if (statusColumn.test(c)) {
          cell = style.status(cell);
        }
        line.append(cell);
        if (!last) {
          line.append("  ");
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
