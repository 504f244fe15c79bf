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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fast paths of {@link CanonicalWriter} against {@link ReferenceCanonicalJson}: strings encoded
 * and escaped in one pass over their code units straight into the sink (long strings that cross the
 * digest buffer and the growth of the kept buffer, runs of ASCII, 2-, 3- and 4-byte characters,
 * escapes, lone surrogates anywhere), numbers written as bytes (random double bits, float and
 * decimal nodes), and the sorting permutation reused for objects with equal keys (arrays of objects
 * with the same key instances, equal but distinct key strings, one key changed, a different size).
 * Same bytes, digest, copy and error message.
 */
class CanonicalWriterFastPathPropertyTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SKIP = "execution_envelope";

  private static final char[] UNITS = {
    0x00, 0x1f, '\n', '"', '\\', '?', 'a', 'Z', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x20ac, 0xffff
  };

  private static final String[] KEYS = {"id", "title", "body", "score", "a", "Z", "é", "😀", "~"};

  private static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  /** Up to {@code maxUnits} code units, in runs: ASCII, special units, pairs, a rare lone one. */
  private static String string(RandomnessSource in, int maxUnits) {
    StringBuilder s = new StringBuilder();
    int units = between(in, 0, maxUnits);
    boolean lone = between(in, 0, 9) == 0;
    while (s.length() < units) {
      switch (between(in, 0, 3)) {
        case 0 -> s.append("plain ascii text ".repeat(between(in, 1, 20)));
        case 1 -> s.append(UNITS[between(in, 0, UNITS.length - 1)]);
        case 2 -> s.append("東京 🚀 Grüße ");
        default -> {
          if (lone) {
            s.append(between(in, 0, 1) == 0 ? '\ud83d' : '\ude00');
            lone = false;
          } else {
            s.append("\ud83d\ude00");
          }
        }
      }
    }
    return s.toString();
  }

  private static JsonNode number(RandomnessSource in) {
    double d = Double.longBitsToDouble(in.next(Constraint.none()));
    return switch (between(in, 0, 3)) {
      case 0 -> NODES.numberNode(d);
      case 1 -> NODES.numberNode((float) d);
      case 2 ->
          Double.isFinite(d)
              ? NODES.numberNode(new java.math.BigDecimal(Double.toString(d)))
              : NODES.numberNode(between(in, -5, 5) / 4.0);
      default -> NODES.numberNode(between(in, -1_000_000, 1_000_000) / 100.0);
    };
  }

  private static JsonNode scalar(RandomnessSource in) {
    return switch (between(in, 0, 3)) {
      case 0 -> NODES.stringNode(string(in, 40));
      case 1 -> number(in);
      case 2 -> NODES.numberNode(between(in, -1000, 1000));
      default -> NODES.nullNode();
    };
  }

  /** An array of objects built from one key list, each perhaps varied a little; nested arrays. */
  private static ArrayNode records(RandomnessSource in, int depth) {
    List<String> keys = new ArrayList<>();
    int size = between(in, 2, KEYS.length);
    for (int i = 0; i < size; i++) {
      String key = KEYS[between(in, 0, KEYS.length - 1)];
      if (!keys.contains(key)) {
        keys.add(key);
      }
    }
    ArrayNode array = NODES.arrayNode();
    int count = between(in, 1, 8);
    for (int r = 0; r < count; r++) {
      ObjectNode object = array.addObject();
      int variant = between(in, 0, 5);
      for (int k = 0; k < keys.size(); k++) {
        String key = keys.get(k);
        if (variant == 1) {
          key = new String(key.toCharArray()); // equal, not identical
        } else if (variant == 2 && k == keys.size() - 1) {
          continue; // one key fewer
        } else if (variant == 3 && k == 0) {
          key = key + "x"; // one key different
        }
        object.set(key, depth > 0 && between(in, 0, 4) == 0 ? records(in, depth - 1) : scalar(in));
      }
      if (variant == 4) {
        object.put("extra", r);
      }
    }
    return array;
  }

  private static Gen<ObjectNode> requests() {
    return in -> {
      ObjectNode request = NODES.objectNode();
      int entries = between(in, 0, 6);
      for (int i = 0; i < entries; i++) {
        switch (between(in, 0, 3)) {
          case 0 -> request.put("long" + i, string(in, 6000));
          case 1 -> request.set("records" + i, records(in, 2));
          case 2 -> request.set(string(in, 6), scalar(in));
          default -> request.set(SKIP, scalar(in));
        }
      }
      return request;
    };
  }

  @Test
  void theFastPathsAgreeWithTheReference() {
    qt().withExamples(400)
        .forAll(requests())
        .checkAssert(CanonicalWriterFastPathPropertyTest::check);
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
