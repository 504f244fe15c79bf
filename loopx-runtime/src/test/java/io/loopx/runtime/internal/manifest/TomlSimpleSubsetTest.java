package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import tools.jackson.databind.node.ObjectNode;

/**
 * For a document of the pre-scan's simple subset the loader uses the tree the pre-scan built
 * instead of night-config's: on every valid document of the tests (the rule tests' manifests, the
 * TOML strictness corpus, the fuzz seeds and the edge cases below) both trees are equal, with the
 * same node types (int or long) and the same key order; documents outside the subset get no tree
 * from the scan.
 */
class TomlSimpleSubsetTest {
  private static final String SEEDS =
      "ManifestLoaderFuzzTestInputs/parseYieldsAManifestOrAManifestException";

  /** Simple-subset edge cases: integer sizes, signs, escapes, every kind of table. */
  private static final List<String> EDGES =
      List.of(
          "a = 2147483647\nb = 2147483648\nc = -2147483648\nd = -2147483649\n",
          "a = 0\nb = -0\nc = +7\nd = 1_000\ne = 9223372036854775807\nf = -9223372036854775808\n",
          "a = \"\"\nb = ''\nc = \"\\u00e9\\U0001F600\\t\\\"\\\\\"\nd = 'C:\\\\x'\ne = \"x\\ny\"\n",
          "\"quoted key\" = 1\n'lit' = 2\n\"\" = 3\n\"\\u00e9\" = 4\na.\"b.c\".d = 5\n",
          "a = []\nb = [1, \"x\", true, [2, [3]], {x = 1}, {}]\nc = [\n  1, # c\n  2,\n]\n",
          "t = { a = 1, b = { c = [1, 2], d.e = \"x\" }, f.g.h = true }\n",
          "[[a]]\nx = 1\n[[a.b]]\ny = 2\n[[a]]\n[a.c]\nz = 3\n[[a.b]]\n",
          "[x.y.z]\nk = 1\n[x]\nj = 2\n[x.w]\ni = 3\n",
          "top = 1\n[a]\nb.c = 1\nb.d = 2\n[a.b.e]\nf = 3\n",
          "z = 1\ny = 2\nx = 3\n[m]\nb = 1\na = 2\n[c]\n",
          "a=1\r\nb = 'x' # comment\r\n[t]\r\nc = false\r\n",
          "key = \"no newline at the end\"",
          "[header]");

  @Test
  void theScansTreeIsNightConfigsTreeForEverySimpleDocument()
      throws IOException, URISyntaxException {
    List<Named<String>> documents = new ArrayList<>();
    for (int i = 0; i < EDGES.size(); i++) {
      documents.add(Named.of("edge " + i, EDGES.get(i)));
    }
    documents.add(Named.of("full", Manifests.FULL));
    documents.add(Named.of("golden", Manifests.GOLDEN));
    add(documents, ManifestRulesTest.singleFaults());
    add(documents, ManifestRulesTest.doubleFaults());
    add(documents, TomlStrictnessTest.valid());
    URL seeds = Objects.requireNonNull(getClass().getResource(SEEDS), SEEDS);
    try (Stream<Path> files = Files.list(Path.of(seeds.toURI()))) {
      for (Path file : files.sorted().toList()) {
        documents.add(
            Named.of(
                file.getFileName().toString(),
                new String(Files.readAllBytes(file), StandardCharsets.UTF_8)));
      }
    }
    int simple = 0;
    int other = 0;
    for (Named<String> document : documents) {
      String text = document.getPayload();
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      TomlPreScan.Outcome scan = TomlPreScan.scan(text);
      if (scan.problem().isPresent()) {
        continue;
      }
      if (scan.tree().isEmpty()) {
        other++;
        continue;
      }
      simple++;
      ObjectNode built = scan.tree().get();
      ObjectNode parsed = TomlDocument.parseChecked(scan.normalized(), "t.toml");
      assertThat(built).as(document.getName()).isEqualTo(parsed);
      assertThat(built.toString()).as(document.getName()).isEqualTo(parsed.toString());
    }
    assertThat(simple).isGreaterThan(150);
    assertThat(other).isGreaterThan(10);
  }

  @Test
  void documentsOutsideTheSubsetAreLeftToTheParser() {
    for (String value :
        List.of(
            "1.5",
            "1e3",
            "inf",
            "-nan",
            "0x1F",
            "0o7",
            "0b1",
            "1979-05-27",
            "07:32:00",
            "1979-05-27T07:32:00Z",
            "\"\"\"x\"\"\"",
            "'''x'''",
            "[1, 2.5]",
            "{ a = 1979-05-27 }")) {
      TomlPreScan.Outcome scan = TomlPreScan.scan("a = 1\nv = " + value + "\n");
      assertThat(scan.problem()).as(value).isEmpty();
      assertThat(scan.tree()).as(value).isEmpty();
    }
  }

  private static void add(List<Named<String>> documents, Stream<Arguments> cases) {
    cases.forEach(
        a -> {
          Object[] args = a.get();
          if (args[0] instanceof Named<?> named) {
            documents.add(Named.of(named.getName(), (String) named.getPayload()));
          } else {
            documents.add(Named.of((String) args[0], (String) args[1]));
          }
        });
  }
}
