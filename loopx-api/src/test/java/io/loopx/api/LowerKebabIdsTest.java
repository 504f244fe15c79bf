package io.loopx.api;

import static io.loopx.api.IdTesting.DIGITS;
import static io.loopx.api.IdTesting.assertAccepted;
import static io.loopx.api.IdTesting.assertRejected;
import static io.loopx.api.IdTesting.corrupted;
import static io.loopx.api.IdTesting.insert;
import static io.loopx.api.IdTesting.pick;
import static io.loopx.api.IdTesting.separated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.IdTesting.Corruption;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quicktheories.core.Gen;

/**
 * {@link ExtensionId} and {@link CapabilityId} share the lower-kebab grammar of
 * docs/contract/grammars.md.
 */
class LowerKebabIdsTest {

  static Stream<Arguments> grammars() {
    return Stream.of(
        Arguments.of("extension id", (Function<String, ?>) ExtensionId::of),
        Arguments.of("capability id", (Function<String, ?>) CapabilityId::of));
  }

  static final Gen<String> VALID = separated('-', 48);

  static final List<Corruption> CORRUPTIONS =
      List.of(
          IdTesting::upperOneLetter,
          (in, s) -> insert(in, s, "_"),
          (in, s) -> insert(in, s, "/"),
          (in, s) -> insert(in, s, ".."),
          (in, s) -> insert(in, s, " "),
          (in, s) -> pick(in, DIGITS) + s, // leading digit
          (in, s) -> "-" + s, // leading -
          (in, s) -> s + "-", // trailing -
          (in, s) -> insert(in, s, "--"), // double - (or leading/trailing)
          (in, s) -> s + "a".repeat(49 - s.length()), // over-length
          (in, s) -> "");

  @ParameterizedTest(name = "{0}")
  @MethodSource("grammars")
  void examplesOfTheSpecAreAccepted(String what, Function<String, ?> factory) {
    for (String ok :
        List.of("a", "loopx-text-stats", "semantic-preference", "a1-b2-c3", "x0", "a".repeat(48))) {
      assertAccepted(factory, ok);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("grammars")
  void breakingExamplesAreRejectedNamingTheValue(String what, Function<String, ?> factory) {
    for (String bad :
        List.of(
            "",
            "A",
            "Text-stats",
            "text_stats",
            "text/stats",
            "text..stats",
            "text.stats",
            "1text",
            "-text",
            "text-",
            "text--stats",
            "a".repeat(49),
            " text",
            "text ",
            "tëxt")) {
      assertRejected(factory, what, bad);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("grammars")
  void generatedValidValuesAreAccepted(String what, Function<String, ?> factory) {
    qt().forAll(VALID).checkAssert(s -> assertAccepted(factory, s));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("grammars")
  void generatedCorruptionsAreRejected(String what, Function<String, ?> factory) {
    qt().forAll(corrupted(VALID, CORRUPTIONS)).checkAssert(s -> assertRejected(factory, what, s));
  }

  @Test
  void valuesCompareAndPrintAsTheirText() {
    ExtensionId a = ExtensionId.of("alpha");
    ExtensionId b = ExtensionId.of("beta");
    assertThat(a).isLessThan(b);
    assertThat(a.toString()).isEqualTo("alpha");
    assertThat(a.value()).isEqualTo("alpha");
    assertThat(new ExtensionId("alpha")).isEqualTo(a);
    assertThat(CapabilityId.of("beta").compareTo(CapabilityId.of("alpha"))).isPositive();
  }
}
