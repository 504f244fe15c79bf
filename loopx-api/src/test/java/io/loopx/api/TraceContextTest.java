package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * The grammar of {@link TraceContext} (W3C Trace Context, version 00): every valid {@code
 * traceparent} is accepted and gives back its trace id, parent id and sampled flag; every mutation
 * of one (a character out of the lowercase hex alphabet, a moved or missing separator, another
 * version, a length off by one, an all-zero id) is refused by the constructor and by the lenient
 * {@link TraceContext#parse}; likewise the {@code tracestate} bound.
 */
class TraceContextTest {
  private static final String HEX = "0123456789abcdef";

  /** Characters that are never lowercase hex. */
  private static final String NOT_HEX = "ABCDEFGgz-_ .:\u00e9";

  private static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  private static String hex(RandomnessSource in, int length) {
    StringBuilder s = new StringBuilder(length);
    boolean zeros = between(in, 0, 3) == 0; // often nearly zero: the not-all-zero edge
    for (int i = 0; i < length; i++) {
      s.append(zeros && i < length - 1 ? '0' : HEX.charAt(between(in, 0, 15)));
    }
    if (s.chars().allMatch(c -> c == '0')) {
      s.setCharAt(between(in, 0, length - 1), HEX.charAt(between(in, 1, 15)));
    }
    return s.toString();
  }

  /** A valid traceparent's parts. */
  record Parts(String traceId, String parentId, String flags) {
    String traceparent() {
      return "00-" + traceId + "-" + parentId + "-" + flags;
    }
  }

  private static Gen<Parts> valid() {
    return in ->
        new Parts(
            hex(in, 32),
            hex(in, 16),
            "" + HEX.charAt(between(in, 0, 15)) + HEX.charAt(between(in, 0, 15)));
  }

  /** A mutation of a valid traceparent that the grammar refuses. */
  private static Gen<String> mutated() {
    return in -> {
      String t = valid().generate(in).traceparent();
      int at = between(in, 0, t.length() - 1);
      char bad = NOT_HEX.charAt(between(in, 0, NOT_HEX.length() - 1));
      return switch (between(in, 0, 6)) {
        case 0 -> // a character outside the alphabet of its place (a separator becomes hex)
            t.charAt(at) == '-'
                ? t.substring(0, at) + HEX.charAt(between(in, 0, 15)) + t.substring(at + 1)
                : t.substring(0, at) + (bad == '-' ? 'G' : bad) + t.substring(at + 1);
        case 1 -> t.substring(0, at) + t.substring(at + 1); // one character fewer
        case 2 -> t.substring(0, at) + HEX.charAt(between(in, 0, 15)) + t.substring(at); // more
        case 3 -> // another version
            "" + HEX.charAt(between(in, 0, 15)) + HEX.charAt(between(in, 1, 15)) + t.substring(2);
        case 4 -> "00-" + "0".repeat(32) + t.substring(35); // all-zero trace id
        case 5 -> t.substring(0, 36) + "0".repeat(16) + t.substring(52); // all-zero parent id
        default -> t.toUpperCase(java.util.Locale.ROOT).replace("00-", "00-F"); // upper case
      };
    };
  }

  @Test
  void everyValidTraceparentIsAcceptedAndGivesBackItsParts() {
    qt().withExamples(2000)
        .forAll(valid())
        .checkAssert(
            p -> {
              TraceContext c = TraceContext.of(p.traceparent());
              assertThat(c.traceId()).isEqualTo(p.traceId());
              assertThat(c.parentId()).isEqualTo(p.parentId());
              assertThat(c.sampled()).isEqualTo((Integer.parseInt(p.flags(), 16) & 1) == 1);
              assertThat(c.tracestate()).isEmpty();
              assertThat(TraceContext.parse(p.traceparent(), null)).contains(c);
              assertThat(TraceContext.parse(p.traceparent(), "")).contains(c);
              assertThat(TraceContext.parse(p.traceparent(), "k=v"))
                  .contains(new TraceContext(p.traceparent(), "k=v"));
            });
  }

  @Test
  void everyMutationIsRefused() {
    qt().withExamples(4000)
        .forAll(mutated())
        .checkAssert(
            t -> {
              assertThatThrownBy(() -> TraceContext.of(t))
                  .isInstanceOf(InvalidValueException.class)
                  .hasMessageContaining("traceparent");
              assertThat(TraceContext.parse(t, "")).isEmpty();
            });
  }

  @Test
  void tracestateIsAtMost512PrintableAsciiCharacters() {
    String t = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    qt().withExamples(500)
        .forAll(
            in -> {
              StringBuilder s = new StringBuilder();
              int n = between(in, 0, TraceContext.MAX_TRACESTATE_CHARS);
              for (int i = 0; i < n; i++) {
                s.append((char) between(in, 0x20, 0x7e));
              }
              return s.toString();
            })
        .checkAssert(s -> assertThat(new TraceContext(t, s).tracestate()).isEqualTo(s));
    for (String bad : new String[] {"x".repeat(513), "a=\n", "a=\u007f", "a=\u00e9", "\t"}) {
      assertThatThrownBy(() -> new TraceContext(t, bad))
          .isInstanceOf(InvalidValueException.class)
          .hasMessageContaining("tracestate");
      assertThat(TraceContext.parse(t, bad)).isEmpty();
    }
    assertThat(TraceContext.parse(null, "k=v")).isEmpty();
  }
}
