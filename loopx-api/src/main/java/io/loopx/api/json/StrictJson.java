package io.loopx.api.json;

import io.loopx.api.internal.Es6Numbers;
import io.loopx.api.internal.StrictUtf8;
import io.loopx.api.json.InvalidJsonException.Reason;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Strict parsing of UTF-8 JSON bytes into Jackson trees, enforcing I-JSON (RFC 7493), and compact
 * re-serialisation.
 *
 * <pre>{@code
 * ObjectNode request = StrictJson.parseObject(bytes); // InvalidJsonException names the Reason
 * byte[] compact = StrictJson.toCompactBytes(request);
 * }</pre>
 *
 * <p>{@link #parse} accepts exactly one RFC 8259 value, optionally surrounded by whitespace; the
 * bytes must be well-formed UTF-8 (never guessed, no byte order mark), with no duplicate key, lone
 * surrogate or integer beyond ±2<sup>53</sup>: each refusal is a {@link Reason}. Literals with a
 * fraction or an exponent become {@link BigDecimal} nodes holding the value as written ({@code
 * 4.50} stays {@code 4.50}); {@link CanonicalJson} converts them to the nearest double. The rules
 * are in docs/contract/grammars.md#strict-json. Stateless and thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class StrictJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** How Jackson 3's {@code STRICT_DUPLICATE_DETECTION} error message starts. */
  private static final String JACKSON_DUPLICATE_MESSAGE = "Duplicate Object property";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long MAX_SAFE_MAGNITUDE = Es6Numbers.MAX_SAFE_MAGNITUDE;

  private StrictJson() {}

  /**
   * Parses one strict I-JSON value from UTF-8 bytes.
   *
   * @throws InvalidJsonException for any input that is not such a value; never another exception
   */
  public static JsonNode parse(byte[] utf8) {
    Objects.requireNonNull(utf8, "utf8");
    String text = decodeUtf8(utf8);
    if (isJsonWhitespace(text)) {
      throw new InvalidJsonException(
          Reason.EMPTY,
          utf8.length == 0 ? "JSON input is empty" : "JSON input holds only whitespace");
    }
    try (JsonParser parser = MAPPER.createParser(text)) {
      JsonToken first = next(parser, null);
      JsonNode root = readValue(parser, first);
      JsonToken after;
      try {
        after = parser.nextToken();
      } catch (JacksonException e) {
        throw trailing(parser.currentLocation(), e);
      }
      if (after != null) {
        throw trailing(parser.currentTokenLocation(), null);
      }
      return root;
    } catch (JacksonException | NumberFormatException | ArithmeticException e) {
      throw malformed(e);
    }
  }

  /**
   * Parses one strict I-JSON value from UTF-8 bytes and requires it to be an object.
   *
   * @throws InvalidJsonException as {@link #parse}, or with {@link Reason#NOT_AN_OBJECT}
   */
  public static ObjectNode parseObject(byte[] utf8) {
    JsonNode node = parse(utf8);
    if (node instanceof ObjectNode object) {
      return object;
    }
    throw new InvalidJsonException(
        Reason.NOT_AN_OBJECT,
        "JSON input must be an object, but its top-level value is of type "
            + node.getNodeType().toString().toLowerCase(Locale.ROOT));
  }

  /**
   * Serialises a JSON tree compactly as UTF-8: no whitespace, object keys in their order, numbers
   * as the nodes hold them, non-ASCII characters unescaped. This is what a provider receives.
   *
   * @throws InvalidJsonException with {@link Reason#LONE_SURROGATE} for a string or key holding an
   *     unpaired surrogate, or {@link Reason#MALFORMED} for a node that has no JSON form (NaN,
   *     infinities, missing, binary or POJO nodes)
   */
  public static byte[] toCompactBytes(JsonNode node) {
    Objects.requireNonNull(node, "node");
    checkWritable(node);
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JacksonException e) {
      throw new InvalidJsonException(
          Reason.MALFORMED, "JSON tree cannot be written: " + e.getOriginalMessage(), e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  private static String decodeUtf8(byte[] utf8) {
    return StrictUtf8.decode(
        utf8,
        offset ->
            new InvalidJsonException(
                Reason.INVALID_UTF8,
                "JSON input is not valid UTF-8: malformed byte sequence at byte offset " + offset));
  }

  private static boolean isJsonWhitespace(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * Advances the parser; end of input here means the text stops inside a value.
   *
   * <p>Jackson's duplicate detection throws a plain stream error while it reads the repeated key.
   * It is recognised by its message together with the fact that the key is already in {@code
   * object}, the object being read; any other stream error is reported as malformed by {@link
   * #parse}. {@link #readObject} checks duplicates itself as well, so a change of Jackson's message
   * turns the reason into {@code MALFORMED} (and fails a test) but never lets a duplicate through.
   */
  private static JsonToken next(JsonParser parser, @Nullable ObjectNode object) {
    JsonToken token;
    try {
      token = parser.nextToken();
    } catch (JacksonException e) {
      String name = parser.streamReadContext().currentName();
      String message = e.getOriginalMessage();
      if (object != null
          && name != null
          && object.has(name)
          && message != null
          && message.startsWith(JACKSON_DUPLICATE_MESSAGE)) {
        throw duplicate(name, parser.currentLocation(), e);
      }
      throw e;
    }
    if (token == null) {
      throw new InvalidJsonException(
          Reason.MALFORMED, "JSON input ends early at " + where(parser.currentLocation()));
    }
    return token;
  }

  private static JsonNode readValue(JsonParser parser, JsonToken token) {
    return switch (token) {
      case START_OBJECT -> readObject(parser);
      case START_ARRAY -> readArray(parser);
      case VALUE_STRING -> NODES.stringNode(checkSurrogates(parser.getString(), "string", parser));
      case VALUE_NUMBER_INT -> readInteger(parser);
      case VALUE_NUMBER_FLOAT -> NODES.numberNode(decimal(parser.getDecimalValue()));
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default ->
          throw new InvalidJsonException(
              Reason.MALFORMED,
              "unexpected JSON token " + token + " at " + where(parser.currentTokenLocation()));
    };
  }

  private static ObjectNode readObject(JsonParser parser) {
    ObjectNode object = NODES.objectNode();
    while (true) {
      JsonToken token = next(parser, object);
      if (token == JsonToken.END_OBJECT) {
        return object;
      }
      String name = checkSurrogates(parser.currentName(), "key", parser);
      if (object.has(name)) {
        throw duplicate(name, parser.currentTokenLocation(), null);
      }
      JsonNode value = readValue(parser, next(parser, null));
      object.set(name, value);
    }
  }

  private static ArrayNode readArray(JsonParser parser) {
    ArrayNode array = NODES.arrayNode();
    while (true) {
      JsonToken token = next(parser, null);
      if (token == JsonToken.END_ARRAY) {
        return array;
      }
      array.add(readValue(parser, token));
    }
  }

  private static JsonNode readInteger(JsonParser parser) {
    JsonParser.NumberType type = parser.getNumberType();
    if (type == JsonParser.NumberType.INT) {
      return NODES.numberNode(parser.getIntValue());
    }
    if (type == JsonParser.NumberType.LONG) {
      long v = parser.getLongValue();
      if (v >= -MAX_SAFE_MAGNITUDE && v <= MAX_SAFE_MAGNITUDE) {
        return NODES.numberNode(v);
      }
    }
    throw new InvalidJsonException(
        Reason.INTEGER_OUT_OF_RANGE,
        "JSON integer "
            + abbreviate(parser.getString())
            + " at "
            + where(parser.currentTokenLocation())
            + " is beyond ±2^53 (I-JSON)");
  }

  /**
   * Keeps a fraction-or-exponent literal a non-integer literal when written again: one whose
   * exponent cancels its fraction ({@code 8E0}, {@code 1.5e1}) has scale 0 and would print as the
   * integer {@code 8} or {@code 15}, so it is held with one fraction digit ({@code 8.0}).
   */
  private static BigDecimal decimal(BigDecimal value) {
    return value.scale() == 0 ? value.setScale(1) : value;
  }

  private static String checkSurrogates(String s, String what, JsonParser parser) {
    int at = loneSurrogateIndex(s);
    if (at >= 0) {
      throw new InvalidJsonException(
          Reason.LONE_SURROGATE,
          String.format(
              "JSON %s at %s holds a lone surrogate U+%04X (I-JSON)",
              what, where(parser.currentTokenLocation()), (int) s.charAt(at)));
    }
    return s;
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  private static void checkWritable(JsonNode node) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        checkWritableString(e.getKey(), "key");
        checkWritable(e.getValue());
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        checkWritable(element);
      }
    } else if (node.isString()) {
      checkWritableString(node.asString(), "string");
    } else if (node.isNumber()) {
      if (node.isFloatingPointNumber()
          && !node.isBigDecimal()
          && !Double.isFinite(node.doubleValue())) {
        throw new InvalidJsonException(
            Reason.MALFORMED, "JSON number " + node + " has no JSON form (NaN or infinite)");
      }
    } else if (!node.isBoolean() && !node.isNull()) {
      throw new InvalidJsonException(
          Reason.MALFORMED, "JSON tree holds a " + node.getNodeType() + " node, not a JSON value");
    }
  }

  private static void checkWritableString(String s, String what) {
    int at = loneSurrogateIndex(s);
    if (at >= 0) {
      throw new InvalidJsonException(
          Reason.LONE_SURROGATE,
          String.format(
              "JSON %s %s holds a lone surrogate U+%04X at index %d",
              what, abbreviate(s), (int) s.charAt(at), at));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /** Returns the index of the first unpaired surrogate in {@code s}, or -1. */
  static int loneSurrogateIndex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static InvalidJsonException duplicate(
      String name, TokenStreamLocation location, @Nullable Throwable cause) {
    return new InvalidJsonException(
        Reason.DUPLICATE_KEY,
        "JSON object holds the key " + abbreviate(name) + " twice (at " + where(location) + ")",
        cause);
  }

  private static InvalidJsonException trailing(
      TokenStreamLocation location, @Nullable Throwable cause) {
    return new InvalidJsonException(
        Reason.TRAILING_DATA,
        "JSON input has data after the first value, at " + where(location),
        cause);
  }

  /**
   * Reports a stream error. Jackson itself checks surrogate escapes in keys (not in string values,
   * which {@link #checkSurrogates} checks); its errors about them are lone surrogates.
   */
  private static InvalidJsonException malformed(RuntimeException e) {
    if (e instanceof JacksonException je) {
      String message = String.valueOf(je.getOriginalMessage());
      String at = " (at " + where(je.getLocation()) + ")";
      if (message.toLowerCase(Locale.ROOT).contains("surrogate")) {
        return new InvalidJsonException(
            Reason.LONE_SURROGATE, "JSON key holds a lone surrogate (I-JSON): " + message + at, e);
      }
      return new InvalidJsonException(
          Reason.MALFORMED, "JSON input is malformed: " + message + at, e);
    }
    return new InvalidJsonException(
        Reason.MALFORMED, "JSON input is malformed: bad number: " + e.getMessage(), e);
  }

  private static String where(@Nullable TokenStreamLocation location) {
    if (location == null || TokenStreamLocation.NA.equals(location)) {
      return "an unknown position";
    }
    return "line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  /** Quotes {@code s} for a message, cut to 64 chars so that huge inputs stay readable. */
  private static String abbreviate(@Nullable String s) {
    if (s == null) {
      return "`null`";
    }
    String cut = s.length() <= 64 ? s : s.substring(0, 61) + "...";
    StringBuilder out = new StringBuilder(cut.length() + 2).append('`');
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (c < 0x20 || Character.isSurrogate(c) || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('`').toString();
  }
}
