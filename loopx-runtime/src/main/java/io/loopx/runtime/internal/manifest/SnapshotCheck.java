package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.TreeReader.child;
import static io.loopx.runtime.internal.manifest.TreeReader.index;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The last rule of a stored manifest snapshot (docs/contract/manifest.md): after the manifest
 * rules, the snapshot must normalise to itself, so a state holds only normalised manifests.
 */
final class SnapshotCheck {
  private SnapshotCheck() {}

  /**
   * Fails naming the first key where {@code snapshot} differs from the normalised form of {@code
   * manifest}, the manifest read from it.
   */
  static ExtensionManifest requireNormalised(
      JsonNode snapshot, ExtensionManifest manifest, String source) {
    Optional<String> difference = firstDifference(snapshot, manifest.toNormalizedJson(), "");
    if (difference.isPresent()) {
      String key = difference.get().isEmpty() ? ManifestException.FILE_KEY : difference.get();
      throw new ManifestException(
          source, key, "is not in normalised form (normalising the snapshot changes it)");
    }
    return manifest;
  }

  /**
   * Returns the path of the first place where {@code actual} differs from {@code expected} as a
   * JSON value ({@code ""} for the root), or empty when they are equal. Keys are visited in sorted
   * order; integers compare by value.
   */
  static Optional<String> firstDifference(JsonNode actual, JsonNode expected, String path) {
    if (actual.isObject() && expected.isObject()) {
      Set<String> keys = new TreeSet<>(actual.propertyNames());
      keys.addAll(expected.propertyNames());
      for (String key : keys) {
        JsonNode a = actual.get(key);
        JsonNode e = expected.get(key);
        if (a == null || e == null) {
          return Optional.of(child(path, key));
        }
        Optional<String> d = firstDifference(a, e, child(path, key));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (actual.isArray() && expected.isArray()) {
      if (actual.size() != expected.size()) {
        return Optional.of(path);
      }
      for (int i = 0; i < actual.size(); i++) {
        Optional<String> d = firstDifference(actual.get(i), expected.get(i), index(path, i));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (actual.isIntegralNumber() && expected.isIntegralNumber()) {
      return actual.bigIntegerValue().equals(expected.bigIntegerValue())
          ? Optional.empty()
          : Optional.of(path);
    }
    return actual.equals(expected) ? Optional.empty() : Optional.of(path);
  }
}
