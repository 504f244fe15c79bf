package io.loopx.runtime.internal.manifest;

import io.loopx.api.ApiRange;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.ManifestException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Where a manifest tree came from, and the few places where the manifest contract
 * (docs/contract/manifest.md) reads the two differently. A TOML file may omit defaulted keys, may
 * carry unknown top-level keys (dropped) and must admit this runtime's API; a normalised snapshot
 * must have the exact key sets of the normalised form with a {@code runtime} of {@code null} when
 * absent, and its API range is checked for grammar only (whether it admits this runtime is a doctor
 * status, not a reason to refuse durable state). Messages name the types in the words of each.
 */
enum Dialect {
  /** An {@code extension.toml} file, converted to a tree by {@link TomlDocument}. */
  TOML("table", "a float", "a datetime", false),
  /** A normalised manifest snapshot, as stored in a state. */
  SNAPSHOT("object", "a non-integral number", "a non-JSON value", true);

  private final String tableWord;
  private final String numberWord;
  private final String otherWord;
  private final boolean normalised;

  Dialect(String tableWord, String numberWord, String otherWord, boolean normalised) {
    this.tableWord = tableWord;
    this.numberWord = numberWord;
    this.otherWord = otherWord;
    this.normalised = normalised;
  }

  /** Returns the word for a table: "table" in TOML, "object" in JSON. */
  String tableWord() {
    return tableWord;
  }

  /** Names the type of {@code node} for a message ("a string", "a float", ...). */
  String describe(JsonNode node) {
    return ManifestValues.describe(node, tableWord, numberWord, otherWord);
  }

  /** Returns the keys a table of this dialect must have: all of {@code keys}, or none. */
  List<String> requiredKeys(List<String> keys) {
    return normalised ? keys : List.of();
  }

  /** Returns the only keys a table may have, or {@code null} when unknown keys are dropped. */
  @Nullable List<String> closedKeys(List<String> keys) {
    return normalised ? keys : null;
  }

  /** Returns whether a present {@code node} stands for an absent table ({@code null}). */
  boolean isAbsent(JsonNode node) {
    return normalised && node.isNull();
  }

  /** Throws {@code api_incompatible} if this dialect requires a range admitting this runtime. */
  void requireCompatible(ApiRange range, String source) {
    if (!normalised && !range.admitsCurrent()) {
      throw ManifestException.apiIncompatible(source, range);
    }
  }
}
