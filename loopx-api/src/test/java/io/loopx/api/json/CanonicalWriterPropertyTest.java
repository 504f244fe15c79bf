package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.CanonicalWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one-pass {@link CanonicalWriter} against {@link ReferenceCanonicalJson} (the plain {@link
 * StringBuilder} walk) on generated trees: numbers at the double boundaries as double, float and
 * decimal nodes, integers at ±2<sup>53</sup>, strings of escapes, controls, 1- to 4-byte characters
 * and lone surrogates, deep nesting, and the odd non-JSON node. Same bytes, same digest, same error
 * message; the copy equals the input without the skipped key, in its key order, sharing no object
 * or array with it; the compact bound is at least Jackson's compact length; the observer sees each
 * non-integral number with its reference text.
 */
class CanonicalWriterPropertyTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SKIP = "execution_envelope";

  private static final char[] UNITS = {
    0x00, 0x01, 0x1f, '\b', '\t', '\n', '\f', '\r', '"', '\\', '/', '?', 'a', 'Z', '~', 0x7f, 0x80,
    0xe9, 0x7ff, 0x800, 0x20ac, 0x2028, 0xd7ff, 0xe000, 0xfeff, 0xffff, 0xd83d, 0xde00, 0xdbff,
    0xdc00
  };

  private static final double[] DOUBLES = {
    0.0,
    -0.0,
    Double.MIN_VALUE,
    Math.nextUp(Double.MIN_VALUE),
    Double.MIN_NORMAL,
    Math.nextDown(Double.MIN_NORMAL),
    Double.MAX_VALUE,
    Math.nextDown(Double.MAX_VALUE),
    9007199254740992.0,
    9007199254740993.0,
    Math.nextUp(9007199254740992.0),
    1e21,
    Math.nextDown(1e21),
    1e-7,
    Math.nextDown(1e-7),
    1e-6,
    Math.nextUp(1e-6),
    2e23,
    0.1,
    0.30000000000000004,
    5e-324,
    1.7976931348623157e308,
    Double.NaN,
    Double.POSITIVE_INFINITY
  };

  private static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  private static double aDouble(RandomnessSource in) {
    return switch (between(in, 0, 3)) {
      case 0 -> DOUBLES[between(in, 0, DOUBLES.length - 1)];
      case 1 -> {
        double p = Math.pow(10, between(in, -324, 308));
        yield switch (between(in, 0, 2)) {
          case 0 -> p;
          case 1 -> Math.nextUp(p);
          default -> Math.nextDown(p);
        };
      }
      case 2 -> (between(in, -1_000_000, 1_000_000)) / 1000.0;
      default -> Double.longBitsToDouble(in.next(Constraint.none()));
    };
  }

  private static JsonNode number(RandomnessSource in) {
    long safe = 1L << 53;
    return switch (between(in, 0, 7)) {
      case 0 -> NODES.numberNode(aDouble(in));
      case 1 -> NODES.numberNode((float) aDouble(in));
      case 2 -> {
        double d = aDouble(in);
        yield Double.isFinite(d)
            ? NODES.numberNode(new BigDecimal(Double.toString(d)))
            : NODES.numberNode(new BigDecimal("1e400"));
      }
      case 3 ->
          NODES.numberNode(
              new BigDecimal(
                  BigInteger.valueOf(in.next(Constraint.none())), between(in, -330, 330)));
      case 4 -> NODES.numberNode(safe + between(in, -2, 2) * (between(in, 0, 1) == 0 ? 1 : -1));
      case 5 -> NODES.numberNode(-safe - between(in, -2, 2));
      case 6 ->
          NODES.numberNode(BigInteger.valueOf(safe).add(BigInteger.valueOf(between(in, -2, 2))));
      default -> NODES.numberNode(between(in, Integer.MIN_VALUE, Integer.MAX_VALUE));
    };
  }

  private static String string(RandomnessSource in, int maxUnits) {
    StringBuilder s = new StringBuilder();
    int units = between(in, 0, maxUnits);
    // Mostly valid text: a lone surrogate in one string of about eight.
    boolean allowLone = between(in, 0, 7) == 0;
    for (int i = 0; i < units; i++) {
      char c = UNITS[between(in, 0, UNITS.length - 1)];
      if (Character.isSurrogate(c) && !allowLone) {
        s.append("😀");
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }

  private static JsonNode value(RandomnessSource in, int depth) {
    int kind = between(in, 0, depth > 0 ? 9 : 6);
    return switch (kind) {
      case 0, 1 -> NODES.stringNode(string(in, 12));
      case 2, 3 -> number(in);
      case 4 -> NODES.booleanNode(between(in, 0, 1) == 1);
      case 5 -> NODES.nullNode();
      case 6 ->
          between(in, 0, 40) == 0
              ? NODES.pojoNode(new Object())
              : NODES.numberNode(between(in, -1000, 1000));
      case 7 -> {
        ArrayNode array = NODES.arrayNode();
        int size = between(in, 0, 4);
        for (int i = 0; i < size; i++) {
          array.add(value(in, depth - 1));
        }
        yield array;
      }
      case 8 -> deep(in);
      default -> object(in, depth);
    };
  }

  private static ObjectNode object(RandomnessSource in, int depth) {
    ObjectNode object = NODES.objectNode();
    int keys = between(in, 0, 20);
    for (int i = 0; i < keys; i++) {
      object.set(string(in, 4), value(in, depth - 1));
    }
    return object;
  }

  /** Arrays and objects nested 50 to 400 deep around one scalar. */
  private static JsonNode deep(RandomnessSource in) {
    JsonNode node = number(in);
    int depth = between(in, 50, 400);
    for (int i = 0; i < depth; i++) {
      node =
          i % 2 == 0
              ? NODES.arrayNode().add(node)
              : NODES.objectNode().set(i % 3 == 0 ? "k" : "é" + i, node);
    }
    return node;
  }

  /** A top-level request: random entries, sometimes with the key that is skipped. */
  private static Gen<ObjectNode> requests() {
    return in -> {
      ObjectNode request = object(in, 4);
      if (between(in, 0, 2) == 0) {
        request.set(SKIP, value(in, 2));
      }
      if (between(in, 0, 4) == 0) {
        request.set("deep", deep(in));
      }
      return request;
    };
  }

  @Test
  void theOnePassWriterAgreesWithTheReference() {
    qt().withExamples(1_500).forAll(requests()).checkAssert(CanonicalWriterPropertyTest::check);
  }

  private static void check(ObjectNode request) {
    ObjectNode bare = NODES.objectNode();
    request.properties().stream()
        .filter(e -> !e.getKey().equals(SKIP))
        .forEach(e -> bare.set(e.getKey(), e.getValue()));

    Throwable expected = catchThrowable(() -> ReferenceCanonicalJson.toBytes(bare));
    List<String> seen = new ArrayList<>();
    CanonicalWriter.NumberObserver observer =
        (number, canonical) -> {
          assertThat(number.isNumber() && !number.isIntegralNumber()).isTrue();
          assertThat(canonical).isEqualTo(ReferenceCanonicalJson.toText(number));
          seen.add(canonical);
        };
    if (expected != null) {
      assertThat(expected).isInstanceOf(InvalidValueException.class);
      assertThat(catchThrowable(() -> CanonicalWriter.toBytes(bare)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expected.getMessage());
      assertThat(catchThrowable(() -> CanonicalWriter.copyAndDigest(request, SKIP, observer)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expected.getMessage());
      assertThat(catchThrowable(() -> CanonicalWriter.digestWithout(request, SKIP)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expected.getMessage());
      return;
    }
    assertThat(CanonicalWriter.toBytes(bare)).isEqualTo(ReferenceCanonicalJson.toBytes(bare));
    assertThat(CanonicalWriter.toText(bare)).isEqualTo(ReferenceCanonicalJson.toText(bare));
    assertThat(CanonicalWriter.sha256Hex(bare)).isEqualTo(ReferenceCanonicalJson.sha256Hex(bare));
    assertThat(CanonicalWriter.digestWithout(request, SKIP))
        .isEqualTo(ReferenceCanonicalJson.digest(bare));

    CanonicalWriter.Copy copy = CanonicalWriter.copyAndDigest(request, SKIP, observer);
    assertThat(copy.digest()).isEqualTo(ReferenceCanonicalJson.digest(bare));
    assertThat(copy.copy()).isEqualTo(bare);
    assertThat(keyOrders(copy.copy())).isEqualTo(keyOrders(bare));
    assertThat(sharedContainers(copy.copy(), request)).isEmpty();
    assertThat(seen).isEqualTo(nonIntegralInCanonicalOrder(bare));
    // The copy is a plain mutable tree, like deepCopy's.
    copy.copy().put("added", 1);
    assertThat(request.has("added")).isFalse();
    copy.copy().remove("added");

    assertThat(copy.compactBound())
        .isGreaterThanOrEqualTo(StrictJson.toCompactBytes(copy.copy()).length);
    if (catchThrowable(() -> StrictJson.toCompactBytes(request)) == null) {
      // The skipped value may hold anything; when it is writable, the bound covers it too.
      assertThat(CanonicalWriter.compactBound(request))
          .isGreaterThanOrEqualTo(StrictJson.toCompactBytes(request).length);
    }
  }

  private static List<List<String>> keyOrders(JsonNode node) {
    List<List<String>> out = new ArrayList<>();
    collectOrders(node, out);
    return out;
  }

  private static void collectOrders(JsonNode node, List<List<String>> out) {
    if (node.isObject()) {
      out.add(List.copyOf(node.propertyNames()));
    }
    for (JsonNode child : node.values()) {
      collectOrders(child, out);
    }
  }

  private static Set<JsonNode> sharedContainers(JsonNode copy, JsonNode original) {
    Map<JsonNode, Boolean> originals = new IdentityHashMap<>();
    collectContainers(original, originals);
    Map<JsonNode, Boolean> copies = new IdentityHashMap<>();
    collectContainers(copy, copies);
    copies.keySet().retainAll(originals.keySet());
    return copies.keySet();
  }

  private static void collectContainers(JsonNode node, Map<JsonNode, Boolean> out) {
    if (node.isContainer()) {
      out.put(node, true);
      for (JsonNode child : node.values()) {
        collectContainers(child, out);
      }
    }
  }

  private static List<String> nonIntegralInCanonicalOrder(JsonNode node) {
    List<String> out = new ArrayList<>();
    collectNumbers(node, out);
    return out;
  }

  private static void collectNumbers(JsonNode node, List<String> out) {
    if (node.isObject()) {
      List<String> keys = new ArrayList<>(node.propertyNames());
      keys.sort(String::compareTo);
      for (String key : keys) {
        collectNumbers(node.get(key), out);
      }
    } else if (node.isArray()) {
      for (JsonNode child : node.values()) {
        collectNumbers(child, out);
      }
    } else if (node.isNumber() && !node.isIntegralNumber()) {
      out.add(ReferenceCanonicalJson.toText(node));
    }
  }
}
