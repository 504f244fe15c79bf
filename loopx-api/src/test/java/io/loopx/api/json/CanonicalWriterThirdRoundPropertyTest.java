package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.CanonicalWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The third round's fast paths of {@link CanonicalWriter} against {@link ReferenceCanonicalJson}:
 * short strings tried as plain ASCII first (lengths around the 32-unit limit, with an escape or a
 * non-ASCII unit anywhere, last included), long strings copied in chunks of at most 1,024 code
 * units (surrogate pairs and lone surrogates across the chunk's end, in the kept and the digesting
 * buffer), the arrays of an object kept per nesting depth (deep nesting, a larger object after a
 * smaller one at the same depth), several kept sorting permutations (up to eight unsorted key lists
 * alternating), and digits written eight and two at a time (integers of every length up to
 * ±2<sup>53</sup>, doubles of every significand length; double nodes, written by exact class, also
 * NaN and infinities). Same bytes, digest, copy and error message.
 */
class CanonicalWriterThirdRoundPropertyTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SKIP = "execution_envelope";

  private static final char[] UNITS = {
    'a', ' ', '"', '\\', '\n', 0x01, 0x1f, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xffff, '\ud83d',
    '\ude00'
  };

  private static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  /** A string of {@code length} units: ASCII, one or two special units somewhere, maybe a pair. */
  private static String string(RandomnessSource in, int length) {
    char[] units = new char[length];
    for (int i = 0; i < length; i++) {
      units[i] = (char) ('a' + i % 26);
    }
    int specials = length == 0 ? 0 : between(in, 0, 2);
    for (int k = 0; k < specials; k++) {
      int at = between(in, 0, 3) == 0 ? length - 1 : between(in, 0, length - 1);
      int kind = between(in, 0, UNITS.length);
      if (kind == UNITS.length) {
        // a well-formed pair, unless it would not fit
        if (at + 1 < length) {
          units[at] = '\ud83d';
          units[at + 1] = '\ude00';
        }
      } else {
        units[at] = UNITS[kind];
      }
    }
    return new String(units);
  }

  /** Lengths around the short-string limit (32) and the chunk (1,024 units, 682 when digesting). */
  private static int length(RandomnessSource in) {
    return switch (between(in, 0, 4)) {
      case 0 -> between(in, 0, 40);
      case 1 -> between(in, 675, 690);
      case 2 -> between(in, 1015, 1035);
      case 3 -> between(in, 2040, 2060);
      default -> between(in, 0, 5000);
    };
  }

  private static JsonNode number(RandomnessSource in) {
    return switch (between(in, 0, 3)) {
      case 0 -> {
        long magnitude = 1L << 53;
        long v = (long) Math.pow(10, between(in, 0, 16)) + between(in, -9, 9);
        v = Math.max(-magnitude, Math.min(magnitude, v));
        yield NODES.numberNode(between(in, 0, 1) == 0 ? v : -v);
      }
      case 1 -> NODES.numberNode(between(in, 0, 1) == 0 ? 1L << 53 : -(1L << 53));
      case 2 -> {
        // a significand of 1..17 digits at a random decimal exponent
        long digits = in.next(Constraint.between(1, 99_999_999_999_999_999L));
        int scale = between(in, -30, 30);
        yield NODES.numberNode(Double.parseDouble(digits + "e" + scale));
      }
      default -> {
        double[] special = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE};
        int which = between(in, 0, 9);
        yield NODES.numberNode(
            which < special.length
                ? special[which]
                : Double.longBitsToDouble(in.next(Constraint.none())));
      }
    };
  }

  private static final String[][] KEY_LISTS = {
    {"id", "title", "body", "score"},
    {"created", "revision", "ratio"},
    {"z", "y", "x"},
    {"b", "a"},
    {"title", "id"},
    {"q", "p", "r", "s", "t"},
    {"m", "l"},
    {"é", "e", "😀", "~"},
  };

  /**
   * Objects nested up to {@code depth}, keys from the lists above (unsorted), sizes up to 40; a
   * container is only nested while {@code budget[0]} (the nodes left for the request) lasts.
   */
  private static ObjectNode object(RandomnessSource in, int depth, int[] budget) {
    ObjectNode object = NODES.objectNode();
    int kind = between(in, 0, KEY_LISTS.length);
    if (kind == KEY_LISTS.length) {
      int size = between(in, 0, 40);
      for (int i = 0; i < size; i++) {
        object.set("k" + ((i * 7919) % 97), value(in, depth, budget));
      }
      return object;
    }
    for (String key : KEY_LISTS[kind]) {
      object.set(key, value(in, depth, budget));
    }
    return object;
  }

  private static JsonNode value(RandomnessSource in, int depth, int[] budget) {
    budget[0]--;
    int kind = between(in, 0, depth > 0 && budget[0] > 0 ? 5 : 2);
    return switch (kind) {
      case 0 -> NODES.stringNode(string(in, length(in) % 64));
      case 1 -> number(in);
      case 2 -> NODES.nullNode();
      case 3 -> object(in, depth - 1, budget);
      default -> {
        var array = NODES.arrayNode();
        int count = between(in, 0, 6);
        for (int i = 0; i < count; i++) {
          array.add(
              between(in, 0, 1) == 0
                  ? object(in, depth - 1, budget)
                  : value(in, depth - 1, budget));
        }
        yield array;
      }
    };
  }

  private static Gen<ObjectNode> requests() {
    return in -> {
      ObjectNode request = NODES.objectNode();
      int[] budget = {400};
      int entries = between(in, 1, 5);
      for (int i = 0; i < entries; i++) {
        switch (between(in, 0, 3)) {
          case 0 -> request.put("s" + i, string(in, length(in)));
          case 1 -> request.set("o" + i, object(in, between(in, 0, 12), budget));
          case 2 -> request.set("n" + i, number(in));
          default -> request.set(SKIP, NODES.stringNode(string(in, 3)));
        }
      }
      return request;
    };
  }

  @Test
  void theThirdRoundsFastPathsAgreeWithTheReference() {
    qt().withExamples(500)
        .forAll(requests())
        .checkAssert(CanonicalWriterThirdRoundPropertyTest::check);
  }

  @Test
  void deepNestingAndGrowingObjectsAgree() {
    ObjectNode root = NODES.objectNode();
    ObjectNode node = root;
    for (int depth = 0; depth < 40; depth++) {
      ObjectNode small = node.putObject("b" + depth);
      small.put("z", depth).put("a", "x");
      ObjectNode large = node.putObject("a" + depth);
      for (int i = 60; i > 0; i--) {
        large.put("k" + i, i * 1.5);
      }
      node = node.putObject("c" + depth);
    }
    check(root);
  }

  private static void check(ObjectNode request) {
    ObjectNode bare = NODES.objectNode();
    request.properties().stream()
        .filter(e -> !e.getKey().equals(SKIP))
        .forEach(e -> bare.set(e.getKey(), e.getValue()));
    Throwable expected = catchThrowable(() -> ReferenceCanonicalJson.toBytes(bare));
    if (expected != null) {
      assertThat(expected).isInstanceOf(InvalidValueException.class);
      assertThat(catchThrowable(() -> CanonicalWriter.toBytes(bare)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expected.getMessage());
      assertThat(catchThrowable(() -> CanonicalWriter.copyAndDigest(request, SKIP, null)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expected.getMessage());
      return;
    }
    assertThat(CanonicalWriter.toBytes(bare)).isEqualTo(ReferenceCanonicalJson.toBytes(bare));
    assertThat(CanonicalWriter.sha256Hex(bare)).isEqualTo(ReferenceCanonicalJson.sha256Hex(bare));
    List<String> seen = new ArrayList<>();
    CanonicalWriter.Copy copy =
        CanonicalWriter.copyAndDigest(request, SKIP, (number, text) -> seen.add(text));
    assertThat(copy.digest()).isEqualTo(ReferenceCanonicalJson.digest(bare));
    assertThat(copy.copy()).isEqualTo(bare);
    for (String text : seen) {
      assertThat(text)
          .isEqualTo(ReferenceCanonicalJson.toText(NODES.numberNode(Double.valueOf(text))));
    }
  }
}
