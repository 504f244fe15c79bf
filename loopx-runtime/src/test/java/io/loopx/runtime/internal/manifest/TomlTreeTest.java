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
 * night-config builds the one tree of every document the pre-scan passes (the pre-scan builds
 * none): it never refuses such a document on any valid document of the tests (the rule tests'
 * manifests, the TOML strictness corpus, the fuzz seeds and the edge cases below), and its tree
 * keeps the declaration order, int or long nodes by size, and every value form. The expected trees
 * are those the pre-scan built for these edge cases before it stopped building trees.
 */
class TomlTreeTest {
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

  /** The tree of each edge case, in order. */
  private static final List<String> EDGE_TREES =
      List.of(
          "{\"a\":2147483647,\"b\":2147483648,\"c\":-2147483648,\"d\":-2147483649}",
          "{\"a\":0,\"b\":0,\"c\":7,\"d\":1000,\"e\":9223372036854775807,"
              + "\"f\":-9223372036854775808}",
          "{\"a\":\"\",\"b\":\"\",\"c\":\"\u00e9\uD83D\uDE00\\t\\\"\\\\\",\"d\":\"C:\\\\\\\\x\","
              + "\"e\":\"x\\ny\"}",
          "{\"quoted key\":1,\"lit\":2,\"\":3,\"\u00e9\":4,\"a\":{\"b.c\":{\"d\":5}}}",
          "{\"a\":[],\"b\":[1,\"x\",true,[2,[3]],{\"x\":1},{}],\"c\":[1,2]}",
          "{\"t\":{\"a\":1,\"b\":{\"c\":[1,2],\"d\":{\"e\":\"x\"}},\"f\":{\"g\":{\"h\":true}}}}",
          "{\"a\":[{\"x\":1,\"b\":[{\"y\":2}]},{\"c\":{\"z\":3},\"b\":[{}]}]}",
          "{\"x\":{\"y\":{\"z\":{\"k\":1}},\"j\":2,\"w\":{\"i\":3}}}",
          "{\"top\":1,\"a\":{\"b\":{\"c\":1,\"d\":2,\"e\":{\"f\":3}}}}",
          "{\"z\":1,\"y\":2,\"x\":3,\"m\":{\"b\":1,\"a\":2},\"c\":{}}",
          "{\"a\":1,\"b\":\"x\",\"t\":{\"c\":false}}",
          "{\"key\":\"no newline at the end\"}",
          "{\"header\":{}}");

  @Test
  void nightConfigReadsEveryDocumentThePreScanPasses() throws IOException, URISyntaxException {
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
    int valid = 0;
    for (Named<String> document : documents) {
      String text = document.getPayload();
      if (TomlPreScan.check(text.startsWith("\uFEFF") ? text.substring(1) : text).isPresent()) {
        continue;
      }
      valid++;
      assertThat(tree(text)).as(document.getName()).isNotNull();
    }
    assertThat(valid).isGreaterThan(160);
  }

  @Test
  void theTreeKeepsTheDeclarationOrderAndTheIntegerSizes() {
    for (int i = 0; i < EDGES.size(); i++) {
      assertThat(tree(EDGES.get(i)).toString()).as("edge " + i).isEqualTo(EDGE_TREES.get(i));
    }
    ObjectNode sizes = tree(EDGES.get(0));
    assertThat(sizes.get("a").isInt()).isTrue();
    assertThat(sizes.get("b").isLong()).isTrue();
    assertThat(sizes.get("c").isInt()).isTrue();
    assertThat(sizes.get("d").isLong()).isTrue();
    assertThat(tree(EDGES.get(1)).get("e").isLong()).isTrue();
  }

  @Test
  void everyOtherValueFormHasItsNode() {
    ObjectNode t =
        tree(
            "f = 1.5\ne = 1e3\ni = inf\nn = -nan\nx = 0x1E\no = 0o7\nb = 0b1\nd = 1979-05-27\n"
                + "l = 07:32:00\no2 = 1979-05-27T07:32:00Z\nm = \"\"\"\nx\"\"\"\nr = '''x'''\n"
                + "a = [1, 2.5]\nt = { a = 1979-05-27 }\n");
    assertThat(t.get("f").isDouble()).isTrue();
    assertThat(t.get("f").doubleValue()).isEqualTo(1.5);
    assertThat(t.get("e").doubleValue()).isEqualTo(1000.0);
    assertThat(t.get("i").doubleValue()).isInfinite();
    assertThat(t.get("n").doubleValue()).isNaN();
    assertThat(t.get("x").isInt()).isTrue();
    assertThat(t.get("x").intValue()).isEqualTo(30); // written in decimal for night-config
    assertThat(t.get("o").intValue()).isEqualTo(7);
    assertThat(t.get("b").intValue()).isEqualTo(1);
    for (String datetime : List.of("d", "l", "o2")) {
      assertThat(t.get(datetime).isPojo()).as(datetime).isTrue();
    }
    assertThat(t.get("m").stringValue()).isEqualTo("x");
    assertThat(t.get("r").stringValue()).isEqualTo("x");
    assertThat(t.get("a").toString()).isEqualTo("[1,2.5]");
    assertThat(t.get("t").get("a").isPojo()).isTrue();
  }

  private static ObjectNode tree(String text) {
    return TomlDocument.parse(text.getBytes(StandardCharsets.UTF_8), "t.toml");
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
