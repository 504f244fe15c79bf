package io.loopx.api.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Generators and helpers for JSON trees in tests. */
final class JsonTrees {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Code points that stress escaping and UTF-16 key order; all valid scalar values. */
  private static final int[] CODE_POINTS = {
    0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, '"', '\\', '/', ' ', 'a', 'b', 'z', 'A', '1',
    0x7F, 0x80, 0xF6, 0x20AC, 0x2028, 0xD7FF, 0xE000, 0xFB33, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000,
    0x1F600, 0x1F602, 0x10FFFF
  };

  private static final JsonMapper LENIENT =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private JsonTrees() {}

  private static int between(RandomnessSource in, int lo, int hi) {
    return (int) in.next(Constraint.between(lo, hi));
  }

  /** JSON trees up to depth 4 made of I-JSON values (no float nodes: see {@link #number}). */
  static Gen<JsonNode> trees() {
    return in -> tree(in, 4);
  }

  /** Strings of the stress code points. */
  static Gen<String> strings() {
    return in -> string(in);
  }

  private static JsonNode tree(RandomnessSource in, int depth) {
    int kind = between(in, 0, depth == 0 ? 4 : 6);
    return switch (kind) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(between(in, 0, 1) == 1);
      case 2 -> NODES.stringNode(string(in));
      case 3, 4 -> number(in);
      case 5 -> {
        ArrayNode array = NODES.arrayNode();
        int n = between(in, 0, 4);
        for (int i = 0; i < n; i++) {
          array.add(tree(in, depth - 1));
        }
        yield array;
      }
      default -> {
        ObjectNode object = NODES.objectNode();
        int m = between(in, 0, 5);
        for (int i = 0; i < m; i++) {
          object.set(string(in), tree(in, depth - 1));
        }
        yield object;
      }
    };
  }

  private static String string(RandomnessSource in) {
    int n = between(in, 0, 6);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(CODE_POINTS[between(in, 0, CODE_POINTS.length - 1)]);
    }
    return sb.toString();
  }

  /**
   * Integers within ±2^53, finite doubles of any bit pattern, and decimals. Float nodes are left
   * out: Jackson writes a float in its own shortest form, which reads back as a different double.
   */
  private static JsonNode number(RandomnessSource in) {
    return switch (between(in, 0, 3)) {
      case 0 -> NODES.numberNode(in.next(Constraint.between(-(1L << 53), 1L << 53)));
      case 1 -> {
        double d = Double.longBitsToDouble(in.next(Constraint.none()));
        yield NODES.numberNode(Double.isFinite(d) ? d : 0.5);
      }
      case 2 -> NODES.numberNode(between(in, -1000, 1000));
      default ->
          NODES.numberNode(
              BigDecimal.valueOf(in.next(Constraint.between(-1_000_000_000L, 1_000_000_000L)))
                  .scaleByPowerOfTen(between(in, -30, 30)));
    };
  }

  /** Returns a deep copy of {@code node} whose objects list their keys in a shuffled order. */
  static JsonNode shuffled(JsonNode node, long seed) {
    return shuffled(node, new Random(seed));
  }

  private static JsonNode shuffled(JsonNode node, Random random) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
      Collections.shuffle(entries, random);
      ObjectNode copy = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : entries) {
        copy.set(e.getKey(), shuffled(e.getValue(), random));
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      for (JsonNode element : node) {
        copy.add(shuffled(element, random));
      }
      return copy;
    }
    return node;
  }

  /**
   * Parses canonical JSON text back into a tree. Canonical text may hold integer literals beyond
   * 2^53 (the ES6 form of doubles such as 1e20), which {@link StrictJson} rejects as I-JSON input;
   * here they are read as the decimals they denote.
   */
  static JsonNode reparseCanonical(byte[] canonical) {
    return bigIntegersAsDecimals(LENIENT.readTree(canonical));
  }

  private static JsonNode bigIntegersAsDecimals(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        copy.set(e.getKey(), bigIntegersAsDecimals(e.getValue()));
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      for (JsonNode element : node) {
        copy.add(bigIntegersAsDecimals(element));
      }
      return copy;
    }
    if (node.isIntegralNumber()) {
      BigInteger value = node.bigIntegerValue();
      if (value.abs().compareTo(BigInteger.ONE.shiftLeft(53)) > 0) {
        return NODES.numberNode(new BigDecimal(value));
      }
    }
    return node;
  }
}
