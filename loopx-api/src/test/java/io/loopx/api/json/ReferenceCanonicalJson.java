package io.loopx.api.json;

import io.loopx.api.Digest;
import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Es6Numbers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The first, straightforward implementation of {@link CanonicalJson} (a {@link StringBuilder}
 * walk), kept as the test oracle for the optimised one: both must produce the same bytes and the
 * same errors for every tree.
 */
final class ReferenceCanonicalJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private ReferenceCanonicalJson() {}

  /**
   * Returns the canonical JSON text of {@code node}.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static String toText(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  /**
   * Returns the canonical JSON of {@code node} as UTF-8 bytes.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static byte[] toBytes(JsonNode node) {
    return toText(node).getBytes(StandardCharsets.UTF_8);
  }

  /** Returns the 64 lowercase hex characters of the SHA-256 of the canonical bytes. */
  public static String sha256Hex(JsonNode node) {
    return HexFormat.of().formatHex(sha256(toBytes(node)));
  }

  /** Returns the {@code sha256:<hex>} digest of the canonical bytes. */
  public static Digest digest(JsonNode node) {
    return Digest.of("sha256:" + sha256Hex(node));
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
      // String.compareTo compares UTF-16 code units, as RFC 8785 requires.
      entries.sort(Map.Entry.comparingByKey());
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> e : entries) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeString(e.getKey(), out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isString()) {
      writeString(node.asString(), out);
    } else if (node.isNumber()) {
      out.append(Es6Numbers.format(node));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue() ? "true" : "false");
    } else if (node.isNull()) {
      out.append("null");
    } else {
      throw new InvalidValueException(
          "canonical JSON value", String.valueOf(node.getNodeType()), "is not a JSON value");
    }
  }

  private static void writeString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            // RFC 8785 §3.2.2.2: any other control as a u00hh escape with lowercase hex.
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          } else if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              throw new InvalidValueException(
                  "canonical JSON string",
                  s,
                  String.format("contains a lone surrogate U+%04X at index %d", (int) c, i));
            }
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
