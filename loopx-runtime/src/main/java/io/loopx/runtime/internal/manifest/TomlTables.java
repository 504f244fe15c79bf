package io.loopx.runtime.internal.manifest;

import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The key structure of a TOML document as the {@link TomlPreScan} reads it (package-private): which
 * keys and tables exist and how each table came to be, without their values. It enforces the TOML
 * 1.0.0 rules on tables: a table is defined once (by a header, by dotted keys or as an inline
 * table), a super-table may be defined after its sub-tables but only once, dotted keys never extend
 * a table defined by a header or an inline table, an inline table or a static array is never
 * extended, and {@code [[x]]} only appends to an array of tables made by {@code [[x]]}; a key is
 * defined once. When asked, it also notes where each key path is written.
 */
final class TomlTables {
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

  /** A node of the key structure: a table, an array of tables, or any other value. */
  sealed interface Node permits Table, TableArray, Leaf {}

  /** A table: its key path, as the manifest rules name it (e.g. runtime, provides[0]). */
  static final class Table implements Node {
    private Origin origin;
    final String path;
    private final Map<String, Node> children = new HashMap<>();

    private Table(Origin origin, String path) {
      this.origin = origin;
      this.path = path;
    }
  }

  private static final class TableArray implements Node {
    private final String path;
    private int size;
    private Table last;

    TableArray(String path) {
      this.path = path;
      this.last = append();
    }

    /** Starts the next element. */
    Table append() {
      last = new Table(Origin.HEADER, path + "[" + size++ + "]");
      return last;
    }
  }

  /** A value other than a table: also a static array, which is never extended. */
  enum Leaf implements Node {
    VALUE
  }

  private final TomlCursor in;
  private final Table root = new Table(Origin.HEADER, "");
  // When asked for positions: the offset where each key path is written; else null.
  private final @Nullable Map<String, Integer> offsets;
  private Table current = root;

  /** The structure of the document read at {@code in}; notes positions into {@code offsets}. */
  TomlTables(TomlCursor in, @Nullable Map<String, Integer> offsets) {
    this.in = in;
    this.offsets = offsets;
  }

  /** The table that key/value lines go into: the root or the last header's. */
  Table current() {
    return current;
  }

  /** Whether positions are noted. */
  boolean marking() {
    return offsets != null;
  }

  /** Notes that the key path {@code path} is written at {@code offset}, if asked for. */
  void mark(String path, int offset) {
    if (offsets != null) {
      offsets.putIfAbsent(path, offset);
    }
  }

  static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** A new inline table at the key path {@code path}; {@link #close} completes it. */
  static Table openInline(String path) {
    return new Table(Origin.DOTTED, path);
  }

  /** Completes an inline table: nothing may be added to it any more. */
  static void close(Table inline) {
    inline.origin = Origin.INLINE;
  }

  /** A {@code [keys]} or {@code [[keys]]} header written at {@code start}: the table it opens. */
  void header(String[] keys, boolean array, int start) {
    Table table = root;
    for (int i = 0; i < keys.length - 1; i++) {
      Node child = table.children.get(keys[i]);
      if (child == null) {
        Table created = new Table(Origin.IMPLICIT, child(table.path, keys[i]));
        table.children.put(keys[i], created);
        mark(created.path, start);
        table = created;
      } else if (child instanceof TableArray list) {
        table = list.last;
      } else if (child instanceof Table t && t.origin != Origin.INLINE) {
        table = t;
      } else {
        throw in.problem(start, name(keys, i + 1) + " is " + what(child) + ", not a table");
      }
    }
    String last = keys[keys.length - 1];
    Node child = table.children.get(last);
    if (array) {
      if (child == null) {
        TableArray list = new TableArray(child(table.path, last));
        table.children.put(last, list);
        current = list.last;
      } else if (child instanceof TableArray list) {
        current = list.append();
      } else {
        throw in.problem(
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
      current = created;
    } else if (child instanceof Table t && t.origin == Origin.IMPLICIT) {
      t.origin = Origin.HEADER;
      current = t;
    } else {
      throw in.problem(
          start,
          "table [" + name(keys, keys.length) + "] is defined twice (already " + what(child) + ")");
    }
    mark(current.path, start);
  }

  /**
   * The key {@code keys} written at {@code start} in {@code target}: returns the table its last
   * part goes into (made or extended by the dotted parts before it), where it is not yet defined.
   */
  Table keyParent(Table target, String[] keys, int start) {
    Table table = target;
    for (int i = 0; i < keys.length - 1; i++) {
      Node child = table.children.get(keys[i]);
      if (child == null) {
        Table created = new Table(Origin.DOTTED, child(table.path, keys[i]));
        table.children.put(keys[i], created);
        mark(created.path, start);
        table = created;
      } else if (child instanceof Table t
          && (t.origin == Origin.DOTTED || t.origin == Origin.IMPLICIT)) {
        t.origin = Origin.DOTTED;
        table = t;
      } else {
        throw in.problem(
            start,
            "dotted key "
                + name(keys, keys.length)
                + " cannot extend "
                + what(child)
                + " "
                + name(keys, i + 1));
      }
    }
    if (table.children.containsKey(keys[keys.length - 1])) {
      throw in.problem(start, "key " + name(keys, keys.length) + " is defined twice");
    }
    return table;
  }

  /** Defines {@code key} in {@code table} (checked by {@link #keyParent}) as {@code value}. */
  static void define(Table table, String key, Node value) {
    table.children.put(key, value);
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
        bare = TomlCursor.isBareKeyChar(k.charAt(j));
      }
      b.append(bare ? k : "\"…\"");
    }
    return b.toString();
  }
}
