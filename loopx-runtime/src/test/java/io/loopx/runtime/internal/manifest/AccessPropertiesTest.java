package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeAccess;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Properties of {@code runtime.access}: the normalised form (and so the revision) does not depend
 * on the order the words are written in or the whitespace around them; a declaration round-trips
 * through its words, its normalised JSON and its snapshot.
 */
class AccessPropertiesTest {
  private static final int EXAMPLES = 200;
  private static final List<String> ROOTS =
      List.of("data", "cache", "models", "a", "a-b", "z9", "x-1-y", "r" + "0".repeat(31));
  private static final String IMPLEMENTS =
      "\n[[implements]]\ncapability_id = \"semantic-preference\"\nprotocol = \"golden_example_v0\"\n";

  /** A declaration: network or not, and per root of the pool none, read or write (at most 15). */
  private static Gen<RuntimeAccess> declarations() {
    return booleans()
        .all()
        .zip(
            longs().all(),
            (network, seed) -> {
              Random r = new Random(seed);
              List<String> read = new ArrayList<>();
              List<String> write = new ArrayList<>();
              for (String root : ROOTS) {
                switch (r.nextInt(3)) {
                  case 1 -> read.add(root);
                  case 2 -> write.add(root);
                  default -> {}
                }
              }
              return new RuntimeAccess(network, read, write);
            });
  }

  private static String toml(List<String> words, Random r) {
    return words.stream()
        .map(w -> "\"" + " ".repeat(r.nextInt(2)) + w + "\t".repeat(r.nextInt(2)) + "\"")
        .collect(Collectors.joining(", ", "access = [", "]\n"));
  }

  @Test
  void theNormalisedFormIgnoresOrderAndWhitespace() {
    qt().withExamples(EXAMPLES)
        .forAll(declarations(), longs().all())
        .checkAssert(
            (access, seed) -> {
              Random r = new Random(seed);
              List<String> shuffled = new ArrayList<>(access.wireWords());
              Collections.shuffle(shuffled, r);
              ExtensionManifest sorted =
                  parse(GOLDEN + toml(access.wireWords(), r) + IMPLEMENTS).manifest();
              ExtensionManifest written = parse(GOLDEN + toml(shuffled, r) + IMPLEMENTS).manifest();
              assertThat(written.toCanonicalJson()).isEqualTo(sorted.toCanonicalJson());
              assertThat(written.revision()).isEqualTo(sorted.revision());
              assertThat(written.runtime().orElseThrow().access()).isEqualTo(access);
            });
  }

  @Test
  void aDeclarationRoundTripsThroughItsWordsItsJsonAndItsSnapshot() {
    qt().withExamples(EXAMPLES)
        .forAll(declarations(), integers().between(0, 1))
        .checkAssert(
            (access, ignored) -> {
              assertThat(RuntimeAccess.of(access.wireWords())).isEqualTo(access);
              assertThat(access.wireWords()).isSorted().doesNotHaveDuplicates();
              ExtensionManifest m =
                  parse(GOLDEN + toml(access.wireWords(), new Random(0)) + IMPLEMENTS).manifest();
              ExtensionManifest back = LOADER.fromNormalizedJson(m.toNormalizedJson(), "state");
              assertThat(back).isEqualTo(m);
              assertThat(back.revision()).isEqualTo(m.revision());
              boolean none = access.isNone();
              assertThat(m.toCanonicalJson().contains("\"access\"")).isEqualTo(!none);
              if (none) {
                assertThat(m.revision())
                    .isEqualTo(parse(GOLDEN + IMPLEMENTS).manifest().revision());
              }
            });
  }
}
