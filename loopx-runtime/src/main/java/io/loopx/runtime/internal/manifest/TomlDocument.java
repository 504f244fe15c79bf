package io.loopx.runtime.internal.manifest;

import com.electronwill.nightconfig.core.CommentedConfig;
import com.electronwill.nightconfig.core.UnmodifiableConfig;
import com.electronwill.nightconfig.core.io.ParsingMode;
import com.electronwill.nightconfig.core.utils.FastStringReader;
import com.electronwill.nightconfig.toml.TomlFormat;
import com.electronwill.nightconfig.toml.TomlParser;
import io.loopx.api.internal.StrictUtf8;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.ManifestProblem;
import java.time.temporal.Temporal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns manifest bytes into a neutral JSON tree (package-private): strict UTF-8 (a leading
 * byte-order mark is dropped), the complete TOML 1.0.0 check of {@link TomlPreScan}, which builds
 * no values, then night-config's TOML parser, which builds the one tree of every document. Tables
 * become objects in declaration order, integers become int or long nodes, floats double nodes, and
 * TOML datetimes POJO nodes (so that the validator can reject them where it reads them).
 */
final class TomlDocument {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern POSITION = Pattern.compile("line (\\d{1,9}), column (\\d{1,9}): ");

  private TomlDocument() {}

  /** Decodes and parses {@code content}; every failure is a {@link ManifestException}. */
  static ObjectNode parse(byte[] content, String source) {
    String text = decodeUtf8(content, source);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1); // TOML allows a byte-order mark at the start
    }
    TomlPreScan.Outcome scan = TomlPreScan.scan(text);
    if (scan.problem().isPresent()) {
      throw syntaxProblem(source, scan.problem().get());
    }
    return parseChecked(scan.normalized(), source);
  }

  /** Parses a document that passed the pre-scan (its normalised text) and converts the values. */
  private static ObjectNode parseChecked(String checked, String source) {
    CommentedConfig config = TomlFormat.newConfig(LinkedHashMap::new);
    try {
      // night-config rejects a table header on the very last line without a line break. Its
      // parse(String, Config, ParsingMode) reads through a StringReader, whose locked read() per
      // character costs more than the parse itself: read through its FastStringReader instead.
      String text = checked.endsWith("\n") ? checked : checked + "\n";
      new TomlParser().parse(new FastStringReader(text), config, ParsingMode.REPLACE);
    } catch (RuntimeException e) {
      // Not reached for a document the scan passed, unless night-config disagrees with it.
      throw fileProblem(source, "is not valid TOML: " + e.getMessage(), e);
    }
    return toObject(config, source);
  }

  /**
   * Returns the key paths of {@code content} (a document that parsed) with their {@code {line,
   * column}}: where each key, table header or inline table element is written.
   */
  static Map<String, int[]> positions(byte[] content) {
    String text = StrictUtf8.decode(content, offset -> new IllegalStateException("not UTF-8"));
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    return TomlPreScan.positions(text);
  }

  /**
   * The TOML syntax problem {@code problem} ({@code line L, column C: detail}): one problem, at
   * that line and column, since nothing after it can be trusted.
   */
  private static ManifestException syntaxProblem(String source, String problem) {
    ManifestException e = fileProblem(source, "is not valid TOML: " + problem, null);
    Matcher m = POSITION.matcher(problem);
    if (!m.lookingAt()) {
      return e;
    }
    return new ManifestException(
        e,
        List.of(
            new ManifestProblem(
                e.key(),
                OptionalInt.of(Integer.parseInt(m.group(1))),
                OptionalInt.of(Integer.parseInt(m.group(2))),
                String.valueOf(e.getMessage()))));
  }

  private static String decodeUtf8(byte[] content, String source) {
    return StrictUtf8.decode(
        content,
        offset ->
            fileProblem(
                source,
                "is not valid UTF-8 (invalid byte sequence at offset " + offset + ")",
                null));
  }

  private static ObjectNode toObject(UnmodifiableConfig config, String source) {
    ObjectNode object = NODES.objectNode();
    for (UnmodifiableConfig.Entry entry : config.entrySet()) {
      object.set(entry.getKey(), toNode(entry.getRawValue(), source));
    }
    return object;
  }

  private static JsonNode toNode(@Nullable Object value, String source) {
    if (value instanceof UnmodifiableConfig table) {
      return toObject(table, source);
    }
    if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode();
      for (Object element : list) {
        array.add(toNode(element, source));
      }
      return array;
    }
    if (value instanceof String s) {
      return NODES.stringNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i.intValue());
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l.longValue());
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d.doubleValue());
    }
    if (value instanceof Temporal t) {
      return NODES.pojoNode(t);
    }
    throw fileProblem(
        source,
        "is not valid TOML: unsupported value of type "
            + (value == null ? "null" : value.getClass().getSimpleName()),
        null);
  }

  private static ManifestException fileProblem(
      String source, String detail, @Nullable Throwable cause) {
    return new ManifestException(source, ManifestException.FILE_KEY, detail, cause);
  }
}
