package io.loopx.runtime.internal.manifest;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.ManifestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads one table of a manifest tree and knows its own key path ({@code ""} for the root, then e.g.
 * {@code runtime} or {@code provides[0]}), so every failure it raises names the file and the dotted
 * key of the value: {@code <source>: <key>: <detail>}, with {@value ManifestException#FILE_KEY} for
 * the root. Strings are Unicode, free of control characters (launch strings aside) and read
 * trimmed; the words of messages come from the {@link Dialect}. Immutable.
 */
final class TreeReader {
  private final JsonNode node;
  private final String path;
  private final String source;
  private final Dialect dialect;
  private final Problems problems;

  private TreeReader(
      JsonNode node, String path, String source, Dialect dialect, Problems problems) {
    this.node = node;
    this.path = path;
    this.source = source;
    this.dialect = dialect;
    this.problems = problems;
  }

  /**
   * Returns the reader of a whole manifest tree, which must be a table; its problems (and those of
   * every reader made from it) are collected in {@code problems}.
   */
  static TreeReader root(JsonNode root, String source, Dialect dialect, Problems problems) {
    return new TreeReader(root, "", source, dialect, problems).asTable();
  }

  /** Returns the problems of the tree this reader belongs to. */
  Problems problems() {
    return problems;
  }

  /** Returns this table's key path: {@code ""} for the root. */
  String path() {
    return path;
  }

  /** Returns this table's tree. */
  JsonNode node() {
    return node;
  }

  /** Returns the dialect of the tree. */
  Dialect dialect() {
    return dialect;
  }

  /** Returns the key path of {@code key} in this table. */
  String pathOf(String key) {
    return child(path, key);
  }

  /** Returns the key path of element {@code i} of the array at {@code key} in this table. */
  String pathOf(String key, int i) {
    return index(pathOf(key), i);
  }

  /**
   * Returns whether this table declares entries at {@code key}: a value other than an empty array.
   */
  boolean declares(String key) {
    JsonNode value = node.get(key);
    return value != null && !(value.isArray() && value.isEmpty());
  }

  /** Returns the value at {@code key}, or {@code null} when absent. */
  @Nullable JsonNode get(String key) {
    return node.get(key);
  }

  /**
   * Records every unknown key (when {@code allowed} is given), then every missing {@code required}
   * key, as problems.
   */
  void checkKeys(@Nullable List<String> allowed, List<String> required) {
    if (allowed != null) {
      for (String key : node.propertyNames()) {
        if (!allowed.contains(key)) {
          problems.record(failAt(pathOf(key), "unknown key"));
        }
      }
    }
    for (String key : required) {
      if (!node.has(key)) {
        problems.record(failAt(pathOf(key), "is required"));
      }
    }
  }

  /**
   * Reads the table at {@code key}; empty when absent (or {@code null} where that means absent).
   */
  Optional<TreeReader> optionalTable(String key) {
    JsonNode value = node.get(key);
    if (value == null || dialect.isAbsent(value)) {
      return Optional.empty();
    }
    return Optional.of(new TreeReader(value, pathOf(key), source, dialect, problems).asTable());
  }

  /**
   * Reads an optional array of tables; absent means empty. An element that is not a table is
   * recorded as a problem and left out.
   */
  List<TreeReader> tables(String key) {
    JsonNode value = node.get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw failAt(
          pathOf(key),
          "must be an array of " + dialect.tableWord() + "s, got " + dialect.describe(value));
    }
    List<TreeReader> tables = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      TreeReader element = new TreeReader(value.get(i), pathOf(key, i), source, dialect, problems);
      if (problems.run(element::asTable)) {
        tables.add(element);
      }
    }
    return tables;
  }

  /** Reads a required, non-empty string (trimmed). */
  String requiredString(String key) {
    JsonNode value = node.get(key);
    if (value == null) {
      throw failAt(pathOf(key), "is required");
    }
    String text = text(value, key, -1, true);
    if (text.isEmpty()) {
      throw failAt(pathOf(key), "must not be empty");
    }
    return text;
  }

  /** Reads a required string and converts it with {@code factory}, a validating factory. */
  <T> T required(String key, Function<String, T> factory) {
    return parseKey(key, requiredString(key), factory);
  }

  /** Reads an optional string; absent, or empty after trimming, is empty. */
  Optional<String> optionalString(String key) {
    JsonNode value = node.get(key);
    if (value == null) {
      return Optional.empty();
    }
    String text = text(value, key, -1, true);
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /**
   * Reads an optional launch string ({@code runtime.entrypoint}): as {@link #optionalString}, but
   * control characters are the launch rules' business, not this reader's.
   */
  Optional<String> optionalLaunchString(String key) {
    JsonNode value = node.get(key);
    if (value == null) {
      return Optional.empty();
    }
    String text = text(value, key, -1, false);
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /** Reads an optional array of non-empty manifest text strings (trimmed); absent means empty. */
  List<String> stringArray(String key) {
    return stringArray(key, true);
  }

  /**
   * Reads an optional array of launch arguments ({@code runtime.args}, {@code
   * runtime.doctor_args}): as {@link #stringArray}, but control characters are the launch rules'
   * business.
   */
  List<String> launchArguments(String key) {
    return stringArray(key, false);
  }

  private List<String> stringArray(String key, boolean manifestText) {
    JsonNode value = node.get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw failAt(pathOf(key), "must be an array of strings, got " + dialect.describe(value));
    }
    List<String> values = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      String element = text(value.get(i), key, i, manifestText);
      if (element.isEmpty()) {
        throw failAt(pathOf(key, i), "must not be empty");
      }
      values.add(element);
    }
    return values;
  }

  /**
   * Returns the trimmed text of a string node at {@code at}; any other type is invalid, and so is
   * text with a lone surrogate or, once trimmed, a control, separator or bidirectional control
   * character ({@link ManifestValues#unsafeCharacter}).
   */
  String text(JsonNode value, String at) {
    return text(value, at, true);
  }

  private String text(JsonNode value, String at, boolean manifestText) {
    if (!value.isString()) {
      throw failAt(at, "must be a string, got " + dialect.describe(value));
    }
    String text = value.stringValue();
    check(at, ManifestValues.loneSurrogate(text));
    String trimmed = text.strip();
    if (manifestText) {
      check(at, ManifestValues.unsafeCharacter(trimmed));
    }
    return trimmed;
  }

  /**
   * As {@link #text(JsonNode, String, boolean)} for the value at {@code key} (element {@code i} of
   * the array there, unless {@code i} is negative); the key path is made only for a failure.
   */
  private String text(JsonNode value, String key, int i, boolean manifestText) {
    if (!value.isString()) {
      throw failAt(pathAt(key, i), "must be a string, got " + dialect.describe(value));
    }
    String text = value.stringValue();
    checkElement(key, i, ManifestValues.loneSurrogate(text));
    String trimmed = text.strip();
    if (manifestText) {
      checkElement(key, i, ManifestValues.unsafeCharacter(trimmed));
    }
    return trimmed;
  }

  /** Returns the key path of {@code key}, or of element {@code i} of it if {@code i >= 0}. */
  private String pathAt(String key, int i) {
    return i < 0 ? pathOf(key) : pathOf(key, i);
  }

  /** Converts {@code value} with a validating factory; its refusal fails at {@code at}. */
  <T> T parse(String at, String value, Function<String, T> factory) {
    try {
      return factory.apply(value);
    } catch (InvalidValueException e) {
      throw failAt(at, e.getMessage(), e);
    }
  }

  /**
   * Converts the value at {@code key} with a validating factory; its refusal fails at that key's
   * path.
   */
  <T> T parseKey(String key, String value, Function<String, T> factory) {
    return parseElement(key, -1, value, factory);
  }

  /**
   * Converts element {@code i} of the array at {@code key} (the value at {@code key} itself if
   * {@code i} is negative) with a validating factory; its refusal fails at that key path.
   */
  <T> T parseElement(String key, int i, String value, Function<String, T> factory) {
    try {
      return factory.apply(value);
    } catch (InvalidValueException e) {
      throw failAt(pathAt(key, i), e.getMessage(), e);
    }
  }

  /** Fails at the key path of {@code key} with the {@code problem}, if any. */
  void checkKey(String key, Optional<String> problem) {
    checkElement(key, -1, problem);
  }

  /**
   * Fails at the key path of element {@code i} of the array at {@code key} (of {@code key} itself
   * if {@code i} is negative) with the {@code problem}, if any.
   */
  void checkElement(String key, int i, Optional<String> problem) {
    if (problem.isPresent()) {
      throw failAt(pathAt(key, i), problem.get());
    }
  }

  /** Fails at {@code at} with the {@code problem}, if any. */
  void check(String at, Optional<String> problem) {
    if (problem.isPresent()) {
      throw failAt(at, problem.get());
    }
  }

  /** Returns the failure of this table as a whole. */
  ManifestException fail(String detail) {
    return failAt(path, detail, null);
  }

  /** Returns the failure of this table as a whole, caused by a record's refusal. */
  ManifestException fail(InvalidValueException refusal) {
    return failAt(path, refusal.getMessage(), refusal);
  }

  /** Returns the failure of the value at key path {@code at}. */
  ManifestException failAt(String at, String detail) {
    return failAt(at, detail, null);
  }

  private ManifestException failAt(String at, String detail, @Nullable Throwable cause) {
    return new ManifestException(
        source, at.isEmpty() ? ManifestException.FILE_KEY : at, detail, cause);
  }

  /** Runs {@code step}; its failure is recorded and yields {@code null}. */
  <T> @Nullable T attempt(Supplier<T> step) {
    return problems.attempt(step);
  }

  /** Runs {@code step}; returns whether it passed (its failure is recorded). */
  boolean run(Runnable step) {
    return problems.run(step);
  }

  /** Returns how many problems the tree has so far. */
  int problemCount() {
    return problems.count();
  }

  private TreeReader asTable() {
    if (!node.isObject()) {
      throw fail("must be a " + dialect.tableWord() + ", got " + dialect.describe(node));
    }
    return this;
  }

  /** Returns {@code key} under the key path {@code path}. */
  static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Returns element {@code i} under the key path {@code path}. */
  static String index(String path, int i) {
    return path + "[" + i + "]";
  }
}
