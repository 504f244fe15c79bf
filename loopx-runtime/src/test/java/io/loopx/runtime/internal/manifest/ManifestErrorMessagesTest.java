package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.manifest.ManifestException;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.InputStream;
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

/**
 * The loader's error messages are part of its contract: every bad manifest of the rule tests, the
 * TOML strictness corpus and the fuzz seeds is refused with exactly the kind, key and message
 * recorded in {@value #GOLDEN} (one line per case: name, kind, key, message, tab-separated, with
 * backslash, tab and line breaks escaped). Performance work on the loader must leave this file
 * unchanged. To record a deliberate change of wording, run this test with {@code
 * -Dloopx.updateErrorMessages=true} (from the module directory) and review the diff.
 */
class ManifestErrorMessagesTest {
  private static final String GOLDEN = "manifest-error-messages.txt";
  private static final String SEEDS =
      "ManifestLoaderFuzzTestInputs/parseYieldsAManifestOrAManifestException";

  @Test
  void everyRefusalKeepsItsExactMessage() throws IOException, URISyntaxException {
    List<String> actual = new ArrayList<>();
    collect(actual, "rule", ManifestRulesTest.singleFaults());
    collect(actual, "order", ManifestRulesTest.doubleFaults());
    collect(actual, "toml", TomlStrictnessTest.invalid());
    URL seeds = Objects.requireNonNull(getClass().getResource(SEEDS), SEEDS);
    try (Stream<Path> files = Files.list(Path.of(seeds.toURI()))) {
      for (Path file : files.sorted().toList()) {
        String message = refusal(Files.readAllBytes(file));
        if (message != null) {
          actual.add("seed " + file.getFileName() + "\t" + message);
        }
      }
    }
    String text = String.join("\n", actual) + "\n";
    if (Boolean.getBoolean("loopx.updateErrorMessages")) {
      Path target =
          Path.of("src/test/resources", getClass().getPackageName().replace('.', '/'), GOLDEN);
      Files.writeString(target, text);
    }
    String expected;
    try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream(GOLDEN), GOLDEN)) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(actual.size()).isGreaterThan(150);
    assertThat(text).isEqualTo(expected);
  }

  private static void collect(List<String> out, String group, Stream<Arguments> cases) {
    cases.forEach(
        a -> {
          Object[] args = a.get();
          String name;
          String toml;
          if (args[0] instanceof Named<?> named) {
            name = named.getName();
            toml = (String) named.getPayload();
          } else {
            name = (String) args[0];
            toml = (String) args[1];
          }
          String message = refusal(toml.getBytes(StandardCharsets.UTF_8));
          assertThat(message).as("%s %s is refused", group, name).isNotNull();
          out.add(group + " " + escape(name) + "\t" + message);
        });
  }

  /** Returns the escaped kind, key and message of the refusal, or null if the content loads. */
  private static String refusal(byte[] content) {
    ManifestException e =
        catchThrowableOfType(
            ManifestException.class,
            () -> LoadedManifest.parse(content, Manifests.SOURCE, Manifests.DIR));
    if (e == null) {
      return null;
    }
    return e.kind().wireName() + "\t" + escape(e.key()) + "\t" + escape(e.getMessage());
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7F || Character.isSurrogate(c)) {
            b.append(String.format("\\u%04X", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
