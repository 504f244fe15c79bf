package io.loopx.runtime.internal.envelope;

import io.loopx.api.json.CanonicalJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * QuickTheories generators of I-JSON trees for the envelope properties: nested objects and arrays,
 * strings with non-ASCII text (accents, CJK, astral-plane emoji, escapes and controls), integers
 * within ±2<sup>53</sup>, finite doubles (as decimal nodes of their ES6 form), booleans and nulls.
 */
final class JsonTrees {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long MAX_SAFE = 1L << 53;
  private static final String[] PIECES = {
    "a", "b", "z", "0", "_", " ", "é", "ü", "ß", "中", "語", "😀", "𝄞", "\"", "\\", "\n", "\u0001",
    "\u007f", "\u2028", "€", "/"
  };

  private JsonTrees() {}

  /**
   * Objects of up to {@code maxKeys} keys, at least {@code minKeys}, nested up to {@code depth}.
   */
  static Gen<ObjectNode> objects(int minKeys, int maxKeys, int depth) {
    return in -> object(in, minKeys, maxKeys, depth);
  }

  static ObjectNode object(RandomnessSource in, int minKeys, int maxKeys, int depth) {
    ObjectNode object = NODES.objectNode();
    long keys = in.next(Constraint.between(minKeys, maxKeys));
    while (object.size() < keys) {
      String key = string(in, 6);
      if (!object.has(key)) {
        object.set(key, value(in, depth - 1));
      }
    }
    return object;
  }

  static JsonNode value(RandomnessSource in, int depth) {
    int kinds = depth > 0 ? 8 : 6;
    return switch ((int) in.next(Constraint.between(0, kinds - 1))) {
      case 0 -> NODES.stringNode(string(in, 12));
      case 1 -> NODES.numberNode(in.next(Constraint.between(-MAX_SAFE, MAX_SAFE)));
      case 2 -> NODES.numberNode((int) in.next(Constraint.between(-1000, 1000)));
      case 3 -> {
        // A finite double as strict parsing of its ES6 form holds it (a decimal node), so that
        // the binder's exact-number rule holds; JDK 17 writes some binary doubles with more
        // digits than their ES6 form, which the binder refuses (ExactNumbersTest).
        double d = Double.longBitsToDouble(in.next(Constraint.none()));
        BigDecimal v =
            new BigDecimal(CanonicalJson.toText(NODES.numberNode(Double.isFinite(d) ? d : 0.25)));
        yield NODES.numberNode(v.scale() == 0 ? v.setScale(1) : v);
      }
      case 4 -> NODES.booleanNode(in.next(Constraint.between(0, 1)) == 1);
      case 5 -> NODES.nullNode();
      case 6 -> {
        ArrayNode array = NODES.arrayNode();
        long size = in.next(Constraint.between(0, 4));
        for (int i = 0; i < size; i++) {
          array.add(value(in, depth - 1));
        }
        yield array;
      }
      default -> object(in, 0, 4, depth);
    };
  }

  static String string(RandomnessSource in, int maxPieces) {
    StringBuilder s = new StringBuilder();
    long pieces = in.next(Constraint.between(0, maxPieces));
    for (int i = 0; i < pieces; i++) {
      s.append(PIECES[(int) in.next(Constraint.between(0, PIECES.length - 1))]);
    }
    return s.toString();
  }

  /** Every object in {@code root} (including itself), in document order. */
  static List<ObjectNode> objectsIn(JsonNode root) {
    List<ObjectNode> out = new ArrayList<>();
    collect(root, out);
    return out;
  }

  private static void collect(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode object) {
      out.add(object);
    }
    for (JsonNode child : node.values()) {
      collect(child, out);
    }
  }

  /** A place in a tree: a key of an object or an index of an array. */
  record Slot(JsonNode parent, String key, int index) {
    JsonNode get() {
      return parent instanceof ObjectNode o ? o.get(key) : parent.get(index);
    }

    void set(JsonNode value) {
      if (parent instanceof ObjectNode o) {
        o.set(key, value);
      } else {
        ((ArrayNode) parent).set(index, value);
      }
    }
  }

  /** Every slot below {@code root}, in document order. */
  static List<Slot> slotsIn(JsonNode root) {
    List<Slot> out = new ArrayList<>();
    slots(root, out);
    return out;
  }

  private static void slots(JsonNode node, List<Slot> out) {
    if (node instanceof ObjectNode object) {
      for (String key : List.copyOf(object.propertyNames())) {
        out.add(new Slot(object, key, -1));
        slots(object.get(key), out);
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        out.add(new Slot(array, "", i));
        slots(array.get(i), out);
      }
    }
  }

  /**
   * Returns a value that differs from {@code node} canonically, of the same type where possible: a
   * changed string, number or boolean, a non-null for null, an array with one more element, an
   * object with one more key.
   */
  static JsonNode changed(JsonNode node) {
    if (node.isString()) {
      return NODES.stringNode(node.asString() + "é");
    }
    if (node.isIntegralNumber()) {
      long v = node.longValue();
      return NODES.numberNode(v < MAX_SAFE ? v + 1 : v - 1);
    }
    if (node.isNumber()) {
      double d = node.doubleValue();
      double up = Math.nextUp(d);
      return NODES.numberNode(Double.isFinite(up) ? up : Math.nextDown(d));
    }
    if (node.isBoolean()) {
      return NODES.booleanNode(!node.booleanValue());
    }
    if (node.isNull()) {
      return NODES.numberNode(0);
    }
    if (node instanceof ArrayNode array) {
      ArrayNode copy = array.deepCopy();
      copy.addNull();
      return copy;
    }
    ObjectNode copy = ((ObjectNode) node).deepCopy();
    copy.put(freshKey(copy), true);
    return copy;
  }

  /** A key that {@code object} does not have. */
  static String freshKey(ObjectNode object) {
    String key = "added";
    while (object.has(key)) {
      key += "+";
    }
    return key;
  }

  /** A deep copy of {@code node} whose objects list their keys in reverse order. */
  static JsonNode reversed(JsonNode node) {
    if (node instanceof ObjectNode object) {
      ObjectNode out = NODES.objectNode();
      List<String> keys = new ArrayList<>(object.propertyNames());
      for (int i = keys.size() - 1; i >= 0; i--) {
        out.set(keys.get(i), reversed(object.get(keys.get(i))));
      }
      return out;
    }
    if (node instanceof ArrayNode array) {
      ArrayNode out = NODES.arrayNode();
      for (JsonNode element : array) {
        out.add(reversed(element));
      }
      return out;
    }
    return node.deepCopy();
  }
}
