package io.loopx.runtime.internal.state;

import io.loopx.api.ExtensionId;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.StateFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * The per-entry decode and encode caches of the file store (package-private): where each entry's
 * value lies in a state file's bytes, decoding that reuses the record of an entry whose bytes did
 * not change, and encoding that splices the bytes of unchanged entries.
 *
 * <p>Both are shortcuts of {@link StateFormat}, never a second format: a spliced file is
 * byte-identical to {@link StateFormat#encode} of the same state, and a reusing decode returns what
 * {@link StateFormat#decode} returns for the same bytes (any failure of the shortcut falls back to
 * {@link StateFormat#decode}, which reports the canonical error). A reused record was decoded, with
 * every check, from exactly the same bytes under the same key: the whole document is still parsed
 * as strict JSON and its top level checked, so any changed byte either fails the parse or the top
 * level, or changes an entry's bytes, which then is decoded again in full.
 */
final class StateEntries {
  /** What {@link StateFormat#encode} writes before the first entry of a non-empty state. */
  private static final byte[] PREFIX =
      ("{\n  \"schema_version\" : \""
              + ActivationState.SCHEMA_VERSION
              + "\",\n  \"extensions\" : {\n")
          .getBytes(StandardCharsets.UTF_8);

  /** What it writes between two entries. */
  private static final byte[] SEPARATOR = ",\n".getBytes(StandardCharsets.UTF_8);

  /** What it writes after the last entry (with the file's final newline). */
  private static final byte[] SUFFIX = "\n  }\n}\n".getBytes(StandardCharsets.UTF_8);

  private StateEntries() {}

  /**
   * One entry of a state file: its record, and where its value (the JSON object under its key) lies
   * in {@code source}. {@code canonical} when those bytes are exactly what {@link
   * StateFormat#encode} writes for the record (so an encode may copy them).
   */
  record Item(ExtensionRecord record, byte[] source, int start, int end, boolean canonical) {
    boolean sameBytes(byte[] other, int from, int to) {
      return Arrays.equals(source, start, end, other, from, to);
    }
  }

  /** A decoded state with the items of its entries, keyed by id text. */
  record Entries(ActivationState state, Map<String, Item> items) {}

  /** The key and the value span of one member of {@code extensions}. */
  record Span(String key, int start, int end) {}

  /**
   * Decodes {@code bytes}, reusing the record of every entry whose key and bytes equal those of an
   * item of {@code previous} (whose bytes are {@code previousBytes}); without previous items,
   * exactly {@link StateFormat#decode}, and the result has no items (see {@link #items}).
   *
   * @throws io.loopx.api.LoopxException what {@link StateFormat#decode} throws for these bytes
   */
  static Entries decode(byte[] bytes, Entries previous, byte[] previousBytes) {
    if (!previous.items().isEmpty()) {
      try {
        Optional<Entries> one = oneEntryChanged(bytes, previous, previousBytes);
        return one.isPresent() ? one.get() : decodeReusing(bytes, previous.items());
      } catch (RuntimeException e) {
        // Not a valid document, or one this shortcut does not understand: the full decode
        // decides, with its own error.
      }
    }
    return new Entries(StateFormat.decode(bytes), Map.of());
  }

  /**
   * The common case of a write by another store: the bytes differ from {@code previousBytes} (a
   * valid document, whose items {@code previous} holds) only inside the value of one entry. Then
   * the new document is the previous one with that value replaced, and it is valid, and decodes to
   * the previous state with that entry replaced, exactly when the new value is a valid entry
   * ({@link StateFormat#decodeEntry}, strict JSON and every check). Empty when the difference is
   * not inside one entry's value.
   */
  private static Optional<Entries> oneEntryChanged(
      byte[] bytes, Entries previous, byte[] previousBytes) {
    int first = Arrays.mismatch(previousBytes, bytes);
    if (first < 0) {
      return Optional.of(previous);
    }
    Item changed = null;
    String changedKey = null;
    for (Map.Entry<String, Item> e : previous.items().entrySet()) {
      Item item = e.getValue();
      if (item.start() <= first && first < item.end()) {
        changed = item;
        changedKey = e.getKey();
        break;
      }
    }
    if (changed == null || changedKey == null || changed.source() != previousBytes) {
      return Optional.empty();
    }
    int delta = bytes.length - previousBytes.length;
    int end = changed.end() + delta;
    if (end <= changed.start()
        || !Arrays.equals(
            previousBytes, changed.end(), previousBytes.length, bytes, end, bytes.length)) {
      return Optional.empty();
    }
    ExtensionRecord record =
        StateFormat.decodeEntry(changedKey, Arrays.copyOfRange(bytes, changed.start(), end));
    Map<String, Item> items = new HashMap<>();
    for (Map.Entry<String, Item> e : previous.items().entrySet()) {
      Item item = e.getValue();
      if (item.source() != previousBytes) {
        return Optional.empty();
      }
      Item moved;
      if (item == changed) {
        moved = new Item(record, bytes, item.start(), end, false);
      } else if (item.end() <= changed.start()) {
        moved = new Item(item.record(), bytes, item.start(), item.end(), item.canonical());
      } else {
        moved =
            new Item(
                item.record(), bytes, item.start() + delta, item.end() + delta, item.canonical());
      }
      items.put(e.getKey(), moved);
    }
    return Optional.of(
        new Entries(
            previous.state().with(record.id(), Optional.of(record)),
            Collections.unmodifiableMap(items)));
  }

  private static Entries decodeReusing(byte[] bytes, Map<String, Item> previous) {
    JsonNode root = StrictJson.parse(bytes); // every byte: UTF-8, syntax, duplicate keys
    if (!root.isObject()
        || root.size() != 2
        || !root.has("schema_version")
        || !root.get("schema_version").isString()
        || !ActivationState.SCHEMA_VERSION.equals(root.get("schema_version").asString())
        || !root.has("extensions")
        || !root.get("extensions").isObject()) {
      throw new IllegalStateException("not a state document");
    }
    List<Span> spans = scan(bytes).orElseThrow(() -> new IllegalStateException("layout"));
    JsonNode extensions = root.get("extensions");
    if (extensions.size() != spans.size()) {
      throw new IllegalStateException("layout");
    }
    Iterator<String> names = extensions.propertyNames().iterator();
    TreeMap<ExtensionId, ExtensionRecord> records = new TreeMap<>();
    Map<String, Item> items = new HashMap<>();
    for (Span s : spans) {
      if (!names.hasNext() || !names.next().equals(s.key())) {
        throw new IllegalStateException("layout");
      }
      Item before = previous.get(s.key());
      Item item;
      if (before != null && before.sameBytes(bytes, s.start(), s.end())) {
        item = new Item(before.record(), bytes, s.start(), s.end(), before.canonical());
      } else {
        ExtensionRecord record =
            StateFormat.decodeEntry(s.key(), Arrays.copyOfRange(bytes, s.start(), s.end()));
        item = new Item(record, bytes, s.start(), s.end(), false);
      }
      records.put(item.record().id(), item.record());
      items.put(s.key(), item);
    }
    return new Entries(new ActivationState(records), Collections.unmodifiableMap(items));
  }

  /**
   * The items of {@code state} decoded from {@code bytes} in full; none when the layout is not the
   * usual one. Found only when a later read needs them (a process that reads once never does).
   */
  static Map<String, Item> items(byte[] bytes, ActivationState state) {
    Optional<List<Span>> spans;
    try {
      spans = scan(bytes);
    } catch (RuntimeException e) {
      spans = Optional.empty();
    }
    if (spans.isEmpty() || spans.get().size() != state.extensions().size()) {
      return Map.of();
    }
    Map<String, Item> items = new HashMap<>();
    for (Span s : spans.get()) {
      Optional<ExtensionRecord> record = id(s.key()).flatMap(state::get);
      if (record.isEmpty()) {
        return Map.of();
      }
      items.put(s.key(), new Item(record.get(), bytes, s.start(), s.end(), false));
    }
    return Collections.unmodifiableMap(items);
  }

  private static Optional<ExtensionId> id(String key) {
    try {
      return Optional.of(ExtensionId.of(key));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Encodes {@code state} as {@link StateFormat#encode} does, copying the bytes of every entry
   * whose record is the very instance of a canonical item of {@code previous}, and encoding the
   * others one by one.
   */
  static Encoded encode(ActivationState state, Map<String, Item> previous) {
    if (state.isEmpty()) {
      return new Encoded(StateFormat.encode(state), Map.of());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(estimate(state, previous));
    List<int[]> spans = new ArrayList<>(state.extensions().size());
    out.writeBytes(PREFIX);
    boolean first = true;
    for (ExtensionRecord record : state.extensions().values()) {
      if (!first) {
        out.writeBytes(SEPARATOR);
      }
      first = false;
      byte[] key = memberKey(record.id());
      Item before = previous.get(record.id().value());
      out.writeBytes(key);
      int start = out.size();
      if (before != null && before.record() == record && before.canonical()) {
        out.write(before.source(), before.start(), before.end() - before.start());
      } else {
        Optional<byte[]> value = encodeValue(record, key);
        if (value.isEmpty()) { // not the expected layout: the full encode, nothing cached
          return new Encoded(StateFormat.encode(state), Map.of());
        }
        out.writeBytes(value.get());
      }
      spans.add(new int[] {start, out.size()});
    }
    out.writeBytes(SUFFIX);
    byte[] bytes = out.toByteArray();
    Map<String, Item> items = new HashMap<>();
    int i = 0;
    for (ExtensionRecord record : state.extensions().values()) {
      int[] span = spans.get(i++);
      items.put(record.id().value(), new Item(record, bytes, span[0], span[1], true));
    }
    return new Encoded(bytes, Collections.unmodifiableMap(items));
  }

  /** The bytes of an encode and the items of its entries (whose source they are). */
  record Encoded(byte[] bytes, Map<String, Item> items) {}

  private static int estimate(ActivationState state, Map<String, Item> previous) {
    long size = PREFIX.length + SUFFIX.length;
    for (Item item : previous.values()) {
      size += item.end() - item.start() + 64;
    }
    size += 8192L * Math.max(0, state.extensions().size() - previous.size());
    return (int) Math.min(size, Integer.MAX_VALUE - 16);
  }

  /** {@code "<id>" : } as the pretty printer writes it (ids need no escaping). */
  private static byte[] memberKey(ExtensionId id) {
    return ("    \"" + id.value() + "\" : ").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The value bytes of {@code record} as {@link StateFormat#encode} writes them: cut from the
   * encoding of the state holding only this record, after checking that it is {@code PREFIX},
   * {@code key}, the value and {@code SUFFIX}; empty when it is not.
   */
  private static Optional<byte[]> encodeValue(ExtensionRecord record, byte[] key) {
    TreeMap<ExtensionId, ExtensionRecord> one = new TreeMap<>();
    one.put(record.id(), record);
    byte[] doc = StateFormat.encode(new ActivationState(one));
    int from = PREFIX.length + key.length;
    int to = doc.length - SUFFIX.length;
    if (to <= from
        || !Arrays.equals(doc, 0, PREFIX.length, PREFIX, 0, PREFIX.length)
        || !Arrays.equals(doc, PREFIX.length, from, key, 0, key.length)
        || !Arrays.equals(doc, to, doc.length, SUFFIX, 0, SUFFIX.length)) {
      return Optional.empty();
    }
    return Optional.of(Arrays.copyOfRange(doc, from, to));
  }

  /**
   * The members of the top-level {@code extensions} object of a document that is valid strict JSON
   * (the caller parsed it): each key (when written without escapes) and the span of its value.
   * Empty when a key of the document or of {@code extensions} holds an escape, or {@code
   * extensions} is not found; may throw on a document that is not valid JSON.
   */
  static Optional<List<Span>> scan(byte[] b) {
    int i = skipWhitespace(b, 0);
    if (b[i] != '{') {
      return Optional.empty();
    }
    i = skipWhitespace(b, i + 1);
    List<Span> found = null;
    while (b[i] != '}') {
      int keyEnd = skipString(b, i);
      boolean isExtensions = rawKey(b, i, keyEnd).equals(Optional.of("extensions"));
      i = skipWhitespace(b, keyEnd);
      i = skipWhitespace(b, i + 1); // the ':'
      int valueEnd = skipValue(b, i);
      if (isExtensions) {
        if (b[i] != '{' || found != null) {
          return Optional.empty();
        }
        Optional<List<Span>> members = members(b, i);
        if (members.isEmpty()) {
          return Optional.empty();
        }
        found = members.get();
      }
      i = skipWhitespace(b, valueEnd);
      if (b[i] == ',') {
        i = skipWhitespace(b, i + 1);
      }
    }
    return Optional.ofNullable(found);
  }

  private static Optional<List<Span>> members(byte[] b, int open) {
    List<Span> spans = new ArrayList<>();
    int i = skipWhitespace(b, open + 1);
    while (b[i] != '}') {
      int keyEnd = skipString(b, i);
      Optional<String> key = rawKey(b, i, keyEnd);
      if (key.isEmpty()) {
        return Optional.empty();
      }
      i = skipWhitespace(b, keyEnd);
      i = skipWhitespace(b, i + 1); // the ':'
      int valueEnd = skipValue(b, i);
      spans.add(new Span(key.get(), i, valueEnd));
      i = skipWhitespace(b, valueEnd);
      if (b[i] == ',') {
        i = skipWhitespace(b, i + 1);
      }
    }
    return Optional.of(spans);
  }

  /** The text of the string token {@code b[from, to)}; empty when it holds an escape. */
  private static Optional<String> rawKey(byte[] b, int from, int to) {
    if (to - from < 2 || b[from] != '"') {
      return Optional.empty();
    }
    for (int k = from + 1; k < to - 1; k++) {
      if (b[k] == '\\') {
        return Optional.empty();
      }
    }
    return Optional.of(new String(b, from + 1, to - from - 2, StandardCharsets.UTF_8));
  }

  private static int skipWhitespace(byte[] b, int i) {
    while (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
      i++;
    }
    return i;
  }

  /**
   * The index after the string token starting at {@code i} (in UTF-8 no byte of a multi-byte
   * character is a quote or a backslash).
   */
  private static int skipString(byte[] b, int i) {
    if (b[i] != '"') {
      throw new IllegalStateException("not a string");
    }
    i++;
    while (b[i] != '"') {
      i += b[i] == '\\' ? 2 : 1;
    }
    return i + 1;
  }

  private static int skipValue(byte[] b, int i) {
    byte c = b[i];
    if (c == '"') {
      return skipString(b, i);
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      while (true) {
        c = b[i];
        if (c == '"') {
          i = skipString(b, i);
          continue;
        }
        if (c == '{' || c == '[') {
          depth++;
        } else if (c == '}' || c == ']') {
          depth--;
          if (depth == 0) {
            return i + 1;
          }
        }
        i++;
      }
    }
    while (i < b.length
        && b[i] != ','
        && b[i] != '}'
        && b[i] != ']'
        && b[i] != ' '
        && b[i] != '\n'
        && b[i] != '\r'
        && b[i] != '\t') {
      i++;
    }
    return i;
  }
}
