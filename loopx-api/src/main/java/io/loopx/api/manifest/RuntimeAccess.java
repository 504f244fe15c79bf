package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.ManifestValues;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * The optional {@code runtime.access} declaration (docs/contract/manifest.md#runtime-access): what
 * a provider may touch beyond its package and its private scratch directory when the host isolates
 * it (docs/access.md). A closed vocabulary: {@code network}, {@code read:<root>} and {@code
 * write:<root>}, where a root is a lower-kebab name the host maps to a directory ({@code
 * Loopx.Builder.accessRoot}); write implies read. Immutable; the sets are sorted and unmodifiable.
 *
 * @param network whether the provider may use the network ({@code network})
 * @param readRoots the roots it may read ({@code read:<root>})
 * @param writeRoots the roots it may read and write ({@code write:<root>}), disjoint from {@code
 *     readRoots}
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public record RuntimeAccess(
    boolean network, SortedSet<String> readRoots, SortedSet<String> writeRoots) {
  /** The most entries of a declaration (words, {@code network} included). */
  public static final int MAX_ENTRIES = ManifestValues.MAX_ACCESS_ENTRIES;

  /** The longest root name, in characters. */
  public static final int MAX_ROOT_LENGTH = ManifestValues.MAX_ACCESS_ROOT;

  /** No access: what an absent or empty {@code runtime.access} means. */
  public static final RuntimeAccess NONE = new RuntimeAccess(false, List.of(), List.of());

  /**
   * Validates and copies: every root a valid name, no root both read and written, at most {@value
   * #MAX_ENTRIES} entries.
   *
   * @throws InvalidValueException naming {@code runtime.access} and the broken rule
   */
  public RuntimeAccess {
    readRoots = roots(readRoots);
    writeRoots = roots(writeRoots);
    for (String root : readRoots) {
      if (writeRoots.contains(root)) {
        throw new InvalidValueException(
            "runtime.access", root, ManifestValues.accessReadAndWrite(root));
      }
    }
    int entries = (network ? 1 : 0) + readRoots.size() + writeRoots.size();
    if (entries > MAX_ENTRIES) {
      throw new InvalidValueException(
          "runtime.access",
          Integer.toString(entries),
          "must hold at most " + MAX_ENTRIES + " entries");
    }
  }

  /** Creates a declaration from any collections of roots (copied and sorted). */
  public RuntimeAccess(
      boolean network, Collection<String> readRoots, Collection<String> writeRoots) {
    this(network, sorted(readRoots), sorted(writeRoots));
  }

  /**
   * Reads a declaration from its words ({@code network}, {@code read:<root>}, {@code
   * write:<root>}), in any order; an empty list is {@link #NONE}.
   *
   * @throws InvalidValueException for a word outside the vocabulary, a repeated word, a root both
   *     read and written, or more than {@value #MAX_ENTRIES} words
   */
  public static RuntimeAccess of(List<String> words) {
    List<String> copy = List.copyOf(words);
    if (copy.size() > MAX_ENTRIES) {
      throw new InvalidValueException(
          "runtime.access",
          Integer.toString(copy.size()),
          "must hold at most " + MAX_ENTRIES + " entries");
    }
    boolean network = false;
    List<String> read = new ArrayList<>();
    List<String> write = new ArrayList<>();
    Checks.unique("runtime.access", copy);
    for (String word : copy) {
      Checks.rule("runtime.access", word, ManifestValues.accessWord(word));
      if (word.equals(ManifestValues.ACCESS_NETWORK)) {
        network = true;
      } else if (word.startsWith(ManifestValues.ACCESS_READ)) {
        read.add(word.substring(ManifestValues.ACCESS_READ.length()));
      } else {
        write.add(word.substring(ManifestValues.ACCESS_WRITE.length()));
      }
    }
    return new RuntimeAccess(network, read, write);
  }

  /** Returns whether nothing is declared (no network, no root). */
  public boolean isNone() {
    return !network && readRoots.isEmpty() && writeRoots.isEmpty();
  }

  /** Returns every root declared, read or written, sorted. */
  public SortedSet<String> roots() {
    SortedSet<String> all = new TreeSet<>(readRoots);
    all.addAll(writeRoots);
    return Collections.unmodifiableSortedSet(all);
  }

  /**
   * Returns the declaration's words in their normalised order (sorted): {@code network}, then each
   * {@code read:<root>}, then each {@code write:<root>}, roots sorted; empty for {@link #NONE}.
   */
  public List<String> wireWords() {
    List<String> words = new ArrayList<>();
    if (network) {
      words.add(ManifestValues.ACCESS_NETWORK);
    }
    readRoots.forEach(r -> words.add(ManifestValues.ACCESS_READ + r));
    writeRoots.forEach(r -> words.add(ManifestValues.ACCESS_WRITE + r));
    return List.copyOf(words);
  }

  private static SortedSet<String> sorted(Collection<String> roots) {
    Objects.requireNonNull(roots, "roots");
    SortedSet<String> copy = new TreeSet<>();
    for (String root : roots) {
      copy.add(Objects.requireNonNull(root, "root"));
    }
    return copy;
  }

  private static SortedSet<String> roots(SortedSet<String> roots) {
    SortedSet<String> copy = sorted(roots);
    for (String root : copy) {
      Checks.rule("runtime.access", root, ManifestValues.accessRoot(root));
    }
    return Collections.unmodifiableSortedSet(copy);
  }
}
