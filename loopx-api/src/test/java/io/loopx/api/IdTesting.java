package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.internal.ManifestValues;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/** QuickTheories generators and assertions shared by the id-record tests. */
final class IdTesting {
  static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
  static final String DIGITS = "0123456789";
  static final String ALNUM = LOWER + DIGITS;
  static final String HEX = "0123456789abcdef";

  private IdTesting() {}

  /** A corruption of a valid text into an invalid one. */
  interface Corruption extends BiFunction<RandomnessSource, String, String> {}

  static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  static char pick(RandomnessSource in, String alphabet) {
    return alphabet.charAt(between(in, 0, alphabet.length() - 1));
  }

  static String chars(RandomnessSource in, String alphabet, int min, int max) {
    int n = between(in, min, max);
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(pick(in, alphabet));
    }
    return sb.toString();
  }

  /** Text of {@code [a-z][a-z0-9]*(SEP[a-z0-9]+)*} with at most {@code max} characters. */
  static Gen<String> separated(char sep, int max) {
    Gen<String> gen =
        in -> {
          StringBuilder sb = new StringBuilder();
          sb.append(pick(in, LOWER)).append(chars(in, ALNUM, 0, 8));
          int segments = between(in, 0, 4);
          for (int i = 0; i < segments; i++) {
            sb.append(sep).append(chars(in, ALNUM, 1, 8));
          }
          return sb.toString();
        };
    return gen.assuming(s -> s.length() <= max);
  }

  /** Inserts {@code insert} at a random position of {@code s}. */
  static String insert(RandomnessSource in, String s, String insert) {
    int at = between(in, 0, s.length());
    return s.substring(0, at) + insert + s.substring(at);
  }

  /** Replaces one random lowercase letter of {@code s} (which must hold one) by its uppercase. */
  static String upperOneLetter(RandomnessSource in, String s) {
    while (true) {
      int at = between(in, 0, s.length() - 1);
      char c = s.charAt(at);
      if (c >= 'a' && c <= 'z') {
        return s.substring(0, at) + Character.toUpperCase(c) + s.substring(at + 1);
      }
    }
  }

  /** Values of {@code valid}, each broken by one of {@code corruptions}. */
  static Gen<String> corrupted(Gen<String> valid, List<Corruption> corruptions) {
    return in -> {
      String v = valid.generate(in);
      return corruptions.get(between(in, 0, corruptions.size() - 1)).apply(in, v);
    };
  }

  /** Asserts that {@code factory} accepts {@code text} and the value keeps it as given. */
  static <T> T assertAccepted(Function<String, T> factory, String text) {
    T value = factory.apply(text);
    assertThat(value.toString()).isEqualTo(text);
    assertThat(factory.apply(text)).isEqualTo(value).hasSameHashCodeAs(value);
    return value;
  }

  /**
   * Asserts that {@code factory} rejects {@code text} with an {@link InvalidValueException} of kind
   * {@code invalid_value} whose {@code value()} is the text and whose message names it, its control
   * characters escaped.
   */
  static void assertRejected(Function<String, ?> factory, String what, String text) {
    assertThatThrownBy(() -> factory.apply(text))
        .isInstanceOfSatisfying(
            InvalidValueException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
              assertThat(e.what()).isEqualTo(what);
              assertThat(e.value()).isEqualTo(text);
              // the message quotes the text with its control characters escaped
              assertThat(e.getMessage()).contains("`" + ManifestValues.escaped(text) + "`");
              assertThat(e.getMessage().codePoints().filter(ManifestValues::isUnsafeCharacter))
                  .isEmpty();
            });
  }
}
