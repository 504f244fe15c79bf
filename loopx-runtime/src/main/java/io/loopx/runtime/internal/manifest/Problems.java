package io.loopx.runtime.internal.manifest;

import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.ManifestProblem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The problems found so far in one manifest tree, in the order the rules ran (package-private). A
 * rule that fails is recorded and the reading goes on with the next rule; what depends on a failed
 * value is skipped, so every recorded problem is one of its own. Not thread-safe: one per reading.
 */
final class Problems {
  private final List<ManifestException> found = new ArrayList<>();
  private final Set<String> messages = new HashSet<>();

  /** Records {@code problem}, unless the same message is recorded already. */
  void record(ManifestException problem) {
    if (messages.add(String.valueOf(problem.getMessage()))) {
      found.add(problem);
    }
  }

  /** Runs {@code step}; its failure is recorded and yields {@code null}. */
  <T> @Nullable T attempt(Supplier<T> step) {
    try {
      return step.get();
    } catch (ManifestException e) {
      record(e);
      return null;
    }
  }

  /** Runs {@code step}; returns whether it passed (its failure is recorded). */
  boolean run(Runnable step) {
    try {
      step.run();
      return true;
    } catch (ManifestException e) {
      record(e);
      return false;
    }
  }

  /** Returns how many problems are recorded: a mark to ask later whether a step added any. */
  int count() {
    return found.size();
  }

  /**
   * Throws the first problem reporting all, if any; a problem's position is looked up by its key in
   * {@code positions} (key path to {@code {line, column}}), asked only when there is a problem.
   */
  void throwIfAny(Supplier<Map<String, int[]>> positions) {
    if (found.isEmpty()) {
      return;
    }
    Map<String, int[]> at = positions.get();
    List<ManifestProblem> all = new ArrayList<>(found.size());
    for (ManifestException e : found) {
      int @Nullable [] position = positionOf(at, e.key());
      all.add(
          new ManifestProblem(
              e.key(),
              position == null ? OptionalInt.empty() : OptionalInt.of(position[0]),
              position == null ? OptionalInt.empty() : OptionalInt.of(position[1]),
              String.valueOf(e.getMessage())));
    }
    throw new ManifestException(found.get(0), all);
  }

  /** Returns the position of {@code key}, else of the nearest enclosing key that has one. */
  private static int @Nullable [] positionOf(Map<String, int[]> at, String key) {
    String path = key;
    while (!path.isEmpty()) {
      int[] position = at.get(path);
      if (position != null) {
        return position;
      }
      path = path.substring(0, Math.max(0, Math.max(path.lastIndexOf('.'), path.lastIndexOf('['))));
    }
    return null;
  }
}
