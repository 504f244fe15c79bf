package io.loopx.samples.semanticpreference;

import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The preferences the provider can recall, and the ranking that recalls them.
 *
 * <p><b>Tokens</b> of a text are its maximal runs of code points for which {@link
 * Character#isLetterOrDigit(int)} holds (Unicode general categories {@code Lu}, {@code Ll}, {@code
 * Lt}, {@code Lm}, {@code Lo} and {@code Nd}), each lower-cased with {@link
 * String#toLowerCase(Locale) toLowerCase(Locale.ROOT)}. Everything else separates tokens: spaces,
 * punctuation, hyphens, combining marks. So {@code "Dark-Theme, José!"} has the tokens {@code
 * dark}, {@code theme} and {@code josé}.
 *
 * <p><b>Ranking</b> ({@link #recall}): a preference's tokens are those of its {@code
 * preference_ref} and its {@code summary} together. Its score for a query is the number of
 * <em>distinct</em> query tokens among them (repeating a word in the query does not count twice).
 * Only preferences with a score of at least 1 are returned, by score descending, ties by {@code
 * preference_ref} ascending ({@link String#compareTo}), at most {@code limit} of them. A query
 * without tokens matches nothing. Note that every reference has the token {@code pref}.
 *
 * <p>Immutable and thread-safe.
 */
public final class PreferenceCorpus {
  /** The corpus resource inside the jar. */
  public static final String RESOURCE =
      "/io/loopx/samples/semanticpreference/corpus/preferences.json";

  /** The corpus file's {@code schema_version}. */
  public static final String SCHEMA_VERSION = "semantic_preference_corpus_v0";

  /** The fewest preferences the bundled corpus holds. */
  public static final int MIN_SIZE = 20;

  private static final Comparator<Scored> RANKING =
      Comparator.comparingInt(Scored::score)
          .reversed()
          .thenComparing(s -> s.preference().preferenceRef());

  private final List<Indexed> entries;

  private PreferenceCorpus(List<Indexed> entries) {
    this.entries = entries;
  }

  private record Indexed(Preference preference, Set<String> tokens) {}

  private record Scored(Preference preference, int score) {}

  /**
   * Returns a corpus of {@code preferences}.
   *
   * @throws IllegalArgumentException naming the reference when two preferences share one
   */
  public static PreferenceCorpus of(List<Preference> preferences) {
    List<Preference> sorted = new ArrayList<>(preferences);
    sorted.sort(Comparator.comparing(Preference::preferenceRef));
    List<Indexed> entries = new ArrayList<>(sorted.size());
    for (int i = 0; i < sorted.size(); i++) {
      Preference p = sorted.get(i);
      if (i > 0 && sorted.get(i - 1).preferenceRef().equals(p.preferenceRef())) {
        throw new IllegalArgumentException(
            "preference_ref `" + p.preferenceRef() + "` appears more than once");
      }
      Set<String> tokens = new HashSet<>(tokens(p.preferenceRef()));
      tokens.addAll(tokens(p.summary()));
      entries.add(new Indexed(p, Set.copyOf(tokens)));
    }
    return new PreferenceCorpus(List.copyOf(entries));
  }

  /**
   * Loads the corpus shipped in this jar ({@value #RESOURCE}): {@code {"schema_version":
   * "semantic_preference_corpus_v0","preferences":[{"preference_ref":...,"summary":...},...]}} with
   * at least {@value #MIN_SIZE} preferences. Reads nothing else.
   *
   * @throws IllegalStateException naming the problem when the resource is missing or malformed (a
   *     packaging defect)
   */
  public static PreferenceCorpus load() {
    byte[] bytes;
    try (InputStream in = PreferenceCorpus.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("corpus resource " + RESOURCE + " is missing");
      }
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("corpus resource " + RESOURCE + " cannot be read", e);
    }
    PreferenceCorpus corpus = parse(bytes, RESOURCE);
    if (corpus.size() < MIN_SIZE) {
      throw new IllegalStateException(
          "corpus "
              + RESOURCE
              + " holds "
              + corpus.size()
              + " preferences, fewer than "
              + MIN_SIZE);
    }
    return corpus;
  }

  /**
   * Parses a corpus document (see {@link #load()}); {@code source} names it in messages.
   *
   * @throws IllegalStateException naming the problem when the document is malformed
   */
  static PreferenceCorpus parse(byte[] json, String source) {
    ObjectNode root;
    try {
      root = StrictJson.parseObject(json);
    } catch (InvalidJsonException e) {
      throw new IllegalStateException(
          "corpus " + source + " is not a JSON object: " + e.getMessage(), e);
    }
    if (!Set.copyOf(root.propertyNames()).equals(Set.of("schema_version", "preferences"))
        || !SCHEMA_VERSION.equals(root.path("schema_version").asString(""))
        || !root.path("preferences").isArray()) {
      throw new IllegalStateException(
          "corpus "
              + source
              + " must be exactly {\"schema_version\":\""
              + SCHEMA_VERSION
              + "\",\"preferences\":[...]}");
    }
    List<Preference> preferences = new ArrayList<>();
    int index = 0;
    for (JsonNode item : root.path("preferences")) {
      if (!item.isObject()
          || !Set.copyOf(item.propertyNames()).equals(Set.of("preference_ref", "summary"))
          || !item.path("preference_ref").isString()
          || !item.path("summary").isString()) {
        throw new IllegalStateException(
            "corpus "
                + source
                + ": preferences["
                + index
                + "] must be exactly {\"preference_ref\":STRING,\"summary\":STRING}");
      }
      try {
        preferences.add(
            new Preference(
                item.path("preference_ref").asString(), item.path("summary").asString()));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(
            "corpus " + source + ": preferences[" + index + "]: " + e.getMessage(), e);
      }
      index++;
    }
    try {
      return of(preferences);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("corpus " + source + ": " + e.getMessage(), e);
    }
  }

  /** Returns the number of preferences. */
  public int size() {
    return entries.size();
  }

  /** Returns all preferences, by {@code preference_ref} ascending (an unmodifiable list). */
  public List<Preference> preferences() {
    return entries.stream().map(Indexed::preference).toList();
  }

  /**
   * Returns the preferences that share at least one token with {@code query}, ranked as the class
   * comment says, at most {@code limit} of them (an unmodifiable list, possibly empty).
   *
   * @throws IllegalArgumentException if {@code limit} is less than 1
   */
  public List<Preference> recall(String query, int limit) {
    Objects.requireNonNull(query, "query");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, not " + limit);
    }
    Set<String> wanted = tokens(query);
    if (wanted.isEmpty()) {
      return List.of();
    }
    List<Scored> scored = new ArrayList<>();
    for (Indexed e : entries) {
      int score = 0;
      for (String token : wanted) {
        if (e.tokens().contains(token)) {
          score++;
        }
      }
      if (score > 0) {
        scored.add(new Scored(e.preference(), score));
      }
    }
    scored.sort(RANKING);
    return scored.stream().limit(limit).map(Scored::preference).toList();
  }

  /**
   * Returns the distinct tokens of {@code text} (see the class comment) in the order they first
   * appear, as an unmodifiable set.
   */
  public static Set<String> tokens(String text) {
    Objects.requireNonNull(text, "text");
    Set<String> tokens = new LinkedHashSet<>();
    int start = -1;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        if (start < 0) {
          start = i;
        }
      } else if (start >= 0) {
        tokens.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        start = -1;
      }
      i += Character.charCount(cp);
    }
    if (start >= 0) {
      tokens.add(text.substring(start).toLowerCase(Locale.ROOT));
    }
    return Collections.unmodifiableSet(tokens);
  }
}
