package io.loopx.samples.semanticpreference;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** The bundled corpus, the tokens and the ranking, against examples and an independent oracle. */
class PreferenceCorpusTest {
  private static final PreferenceCorpus CORPUS = PreferenceCorpus.load();

  /** The oracle's tokens: runs of Unicode letters (L*) and decimal digits (Nd). */
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{Nd}]+");

  private static Set<String> oracleTokens(String text) {
    Set<String> tokens = new LinkedHashSet<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      tokens.add(m.group().toLowerCase(Locale.ROOT));
    }
    return tokens;
  }

  /** A brute-force ranking: score every preference, drop zeros, sort, cut. */
  private static List<String> oracleRecall(List<Preference> corpus, String query, int limit) {
    Set<String> wanted = oracleTokens(query);
    Map<String, Integer> scores = new TreeMap<>();
    for (Preference p : corpus) {
      Set<String> own = oracleTokens(p.preferenceRef() + " " + p.summary());
      int score = (int) wanted.stream().filter(own::contains).count();
      if (score > 0) {
        scores.put(p.preferenceRef(), score);
      }
    }
    List<String> refs = new ArrayList<>(scores.keySet()); // ascending
    refs.sort(Comparator.comparing(scores::get, Comparator.reverseOrder())); // stable
    return refs.subList(0, Math.min(limit, refs.size()));
  }

  private static List<String> refs(List<Preference> preferences) {
    return preferences.stream().map(Preference::preferenceRef).toList();
  }

  // ------------------------------------------------------------------------------- the corpus

  @Test
  void theBundledCorpusHoldsAtLeastTwentyDistinctOneSentencePreferences() {
    List<Preference> all = CORPUS.preferences();

    assertThat(all).hasSizeGreaterThanOrEqualTo(PreferenceCorpus.MIN_SIZE);
    assertThat(refs(all)).doesNotHaveDuplicates().isSorted().allMatch(r -> r.startsWith("pref-"));
    assertThat(all).allSatisfy(p -> assertThat(p.summary()).endsWith(".").doesNotContain(". "));
    assertThat(refs(all)).contains("pref-editor-dark-theme", "pref-meeting-mornings");
  }

  @Test
  void preferencesCannotBeChangedThroughTheCorpus() {
    List<Preference> all = CORPUS.preferences();

    assertThatThrownBy(() -> all.remove(0)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(CORPUS.preferences()).isEqualTo(all);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "not json        | {                                                     | not a JSON object",
        "an array        | []                                                    | not a JSON object",
        "other version   | {\"schema_version\":\"x\",\"preferences\":[]}        | must be exactly",
        "extra key       | {\"schema_version\":\"semantic_preference_corpus_v0\",\"preferences\":[],\"x\":1}"
            + "                                                                  | must be exactly",
        "item extra key  | {\"schema_version\":\"semantic_preference_corpus_v0\",\"preferences\":"
            + "[{\"preference_ref\":\"pref-a\",\"summary\":\"A.\",\"x\":1}]}   | preferences[0]",
        "bad ref         | {\"schema_version\":\"semantic_preference_corpus_v0\",\"preferences\":"
            + "[{\"preference_ref\":\"Pref-A\",\"summary\":\"A.\"}]}           | `Pref-A`",
        "blank summary   | {\"schema_version\":\"semantic_preference_corpus_v0\",\"preferences\":"
            + "[{\"preference_ref\":\"pref-a\",\"summary\":\" \"}]}            | `pref-a`",
        "duplicate ref   | {\"schema_version\":\"semantic_preference_corpus_v0\",\"preferences\":"
            + "[{\"preference_ref\":\"pref-a\",\"summary\":\"A.\"},"
            + "{\"preference_ref\":\"pref-a\",\"summary\":\"B.\"}]}            | `pref-a` appears more than once",
      })
  void aMalformedCorpusIsRefusedNamingTheProblem(String name, String json, String problem) {
    assertThatThrownBy(() -> PreferenceCorpus.parse(json.getBytes(UTF_8), "test.json"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("corpus test.json")
        .hasMessageContaining(problem);
  }

  // ---------------------------------------------------------------------------------- tokens

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "Dark-Theme, José!           | dark theme josé",
        "pref-editor-dark-theme      | pref editor dark theme",
        "ISO 8601: 2024-05-31        | iso 8601 2024 05 31",
        "a a A                       | a",
        "你好世界 ok                  | 你好世界 ok",
        "e\u0301t\u00e9              | e té",
        "ΣΊΣΥΦΟΣ                     | σίσυφος",
        "  ?! … --                   | ^^",
      })
  void tokensAreRunsOfLettersAndDigitsLowerCased(String text, String expected) {
    List<String> tokens = expected.isEmpty() ? List.of() : List.of(expected.split(" "));

    assertThat(PreferenceCorpus.tokens(text)).containsExactlyElementsOf(tokens);
  }

  @Test
  void tokensAgreeWithARegularExpressionOracle() {
    qt().withExamples(2_000)
        .forAll(strings().allPossible().ofLengthBetween(0, 24))
        .checkAssert(
            s -> assertThat(PreferenceCorpus.tokens(s)).containsExactlyElementsOf(oracleTokens(s)));
  }

  // --------------------------------------------------------------------------------- ranking

  @Test
  void recallRefusesALimitBelowOne() {
    assertThatThrownBy(() -> CORPUS.recall("dark", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
  }

  @Test
  void aQueryWithoutTokensMatchesNothing() {
    assertThat(CORPUS.recall("  ... !!", 20)).isEmpty();
  }

  /** Query words: corpus words in any case, words of no preference, and punctuation. */
  private static Gen<String> queries() {
    List<String> words = new ArrayList<>();
    for (Preference p : CORPUS.preferences()) {
      words.addAll(PreferenceCorpus.tokens(p.preferenceRef() + " " + p.summary()));
    }
    words.addAll(List.of("zebra", "JOSÉ", "Morning", "THE", "-", ", ", "…", "42"));
    Gen<String> word = Generate.pick(words);
    return lists().of(word).ofSizeBetween(0, 6).map(ws -> String.join(" ", ws));
  }

  @Test
  void recallAgreesWithABruteForceOracle() {
    qt().withExamples(1_000)
        .forAll(queries(), integers().between(1, 25))
        .checkAssert(
            (query, limit) ->
                assertThat(refs(CORPUS.recall(query, limit)))
                    .containsExactlyElementsOf(oracleRecall(CORPUS.preferences(), query, limit)));
  }

  @Test
  void recallIsAPrefixOfALargerRecall() {
    qt().withExamples(500)
        .forAll(queries(), integers().between(1, 25))
        .checkAssert(
            (query, limit) -> {
              List<Preference> all = CORPUS.recall(query, Integer.MAX_VALUE);
              assertThat(CORPUS.recall(query, limit))
                  .isEqualTo(all.subList(0, Math.min(limit, all.size())));
            });
  }
}
