package io.loopx.runtime.internal.envelope;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.internal.CanonicalWriter;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.StrictJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The number rule of a digested request (I-JSON, RFC 7493 §2.2: no number with more precision or
 * magnitude than a double): every non-integral number, as it is written to the provider, must be
 * numerically equal to the ES6 form of its nearest double, which is what the request digest
 * canonicalises it to. {@code 0.1}, {@code 1e5} and {@code 1.50} pass; {@code 9007199254740993.0}
 * (nearest double 9007199254740992), {@code 100.000000000000001} (100) and {@code 1e-400} (0, as
 * any non-zero literal that underflows) are refused. Integers need no check: canonical JSON writes
 * those within ±2<sup>53</sup> as they are and refuses the others.
 *
 * <p>The comparison is exact ({@link BigDecimal#compareTo}) and bounded: a decimal with at most 15
 * significant digits and a decimal exponent within ±300 always passes (every such decimal survives
 * the round trip through a double, DBL_DIG), so only longer literals are compared; their exponent
 * is then within the double range or their signum differs from that of the nearest double, so
 * {@code compareTo} never rescales by more than the literal's own length plus 330 digits.
 *
 * <p>The binder checks in two steps: {@link #observer()} sees each non-integral number during the
 * walk that canonicalises the request, with the canonical text just written, and only notes whether
 * one breaks the rule; if one does, {@link #require} walks the request again in document order to
 * throw for the first such number with its JSON pointer. Both steps decide with {@link #isExact}.
 */
final class ExactNumbers {
  /** DBL_DIG: the significant digits that every decimal keeps through a double. */
  private static final int ALWAYS_EXACT_DIGITS = 15;

  /** The decimal exponents, well inside the normal double range, where the 15 digits hold. */
  private static final int ALWAYS_EXACT_EXPONENT = 300;

  private static final int MAX_QUOTED = 64;

  private ExactNumbers() {}

  /**
   * Checks every number in {@code request}.
   *
   * @throws LoopxException {@link ErrorKind#REQUEST_INVALID} naming the first number (in document
   *     order) that breaks the rule and its JSON pointer
   */
  static void require(JsonNode request) {
    walk(request, new StringBuilder());
  }

  private static void walk(JsonNode node, StringBuilder pointer) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        int mark = pointer.length();
        appendToken(pointer.append('/'), e.getKey());
        walk(e.getValue(), pointer);
        pointer.setLength(mark);
      }
    } else if (node.isArray()) {
      int size = node.size();
      for (int i = 0; i < size; i++) {
        int mark = pointer.length();
        walk(node.get(i), pointer.append('/').append(i));
        pointer.setLength(mark);
      }
    } else if (node.isNumber() && !node.isIntegralNumber()) {
      check(node, pointer);
    }
  }

  private static void check(JsonNode number, CharSequence pointer) {
    BigDecimal sent = sentValue(number);
    if (alwaysExact(sent)) {
      return;
    }
    String nearest;
    try {
      nearest = CanonicalJson.toText(number);
    } catch (InvalidValueException e) {
      throw refused(sent, pointer, "it has no finite double value");
    }
    if (new BigDecimal(nearest).compareTo(sent) != 0) {
      throw refused(sent, pointer, "its nearest double is " + nearest);
    }
  }

  /**
   * An observer for {@code CanonicalWriter.copyAndDigest}: {@link Verdict#allExact()} stays true
   * while every number it sees is exact.
   */
  static Verdict observer() {
    return new Verdict();
  }

  /** Whether every number seen so far is exact; one instance per walk, not thread-safe. */
  static final class Verdict implements CanonicalWriter.NumberObserver {
    private boolean allExact = true;

    @Override
    public void number(JsonNode number, String canonical) {
      if (allExact && !isExact(number, canonical)) {
        allExact = false;
      }
    }

    boolean allExact() {
      return allExact;
    }
  }

  /**
   * The rule: the value sent for the non-integral {@code number} equals {@code nearest}, the ES6
   * form of its nearest double (which canonical JSON wrote for it).
   */
  static boolean isExact(JsonNode number, String nearest) {
    if (number.isDouble() || number.isFloat()) {
      // What Jackson writes for a double or float node (pinned by ExactNumbersFastPathTest):
      // Double.toString, which on JDK 17 is not always the shortest form (2e23 is written
      // 1.9999999999999998E23), or Float.toString. Equal values pass either way; otherwise the
      // short-literal rule decides, as it does for a decimal.
      String sent =
          number.isDouble()
              ? Double.toString(number.doubleValue())
              : Float.toString(number.floatValue());
      return sameValue(sent, nearest) || alwaysExact(new BigDecimal(sent));
    }
    BigDecimal sent = sentValue(number);
    return alwaysExact(sent) || new BigDecimal(nearest).compareTo(sent) == 0;
  }

  /**
   * The value the provider reads: a decimal node is written as its {@link BigDecimal}; a binary
   * floating-point node (never produced by strict parsing) as Jackson spells it.
   */
  static BigDecimal sentValue(JsonNode number) {
    if (number.isBigDecimal()) {
      return number.decimalValue();
    }
    return new BigDecimal(new String(StrictJson.toCompactBytes(number), StandardCharsets.US_ASCII));
  }

  /**
   * Whether two decimal literals ({@code -?digits[.digits][(e|E)[+-]digits]}) of at most 18
   * significant digits each have the same value, as {@link BigDecimal#compareTo} would say; longer
   * ones are compared as {@link BigDecimal}s.
   */
  static boolean sameValue(String a, String b) {
    if (a.equals(b)) {
      return true; // the common case: plain digits with a fraction, as both spell them
    }
    long[] x = parse(a);
    long[] y = parse(b);
    if (x == null || y == null) {
      return new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
    }
    if (x[1] == 0 || y[1] == 0) {
      return x[1] == y[1]; // zero is zero, whatever its sign and exponent
    }
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
  }

  /**
   * Returns {sign (1 for minus), significand without trailing zeros, decimal exponent} of a
   * literal, or null when it has more than 18 significant digits.
   */
  private static long @Nullable [] parse(String s) {
    int i = 0;
    int length = s.length();
    long negative = 0;
    if (i < length && s.charAt(i) == '-') {
      negative = 1;
      i++;
    }
    long significand = 0;
    int digits = 0;
    long exponent = 0;
    boolean fraction = false;
    for (; i < length; i++) {
      char c = s.charAt(i);
      if (c == '.') {
        fraction = true;
        continue;
      }
      if (c == 'e' || c == 'E') {
        break;
      }
      int d = c - '0';
      if (d < 0 || d > 9) {
        return null;
      }
      if (significand != 0 || d != 0) {
        if (++digits > 18) {
          return null;
        }
        significand = significand * 10 + d;
      }
      if (fraction) {
        exponent--;
      }
    }
    if (i < length) {
      exponent += Long.parseLong(s, i + 1, length, 10);
    }
    while (significand != 0 && significand % 10 == 0) {
      significand /= 10;
      exponent++;
    }
    return new long[] {negative, significand, exponent};
  }

  /** True for at most 15 significant digits and a decimal exponent within ±300 (or zero). */
  static boolean alwaysExact(BigDecimal value) {
    if (value.signum() == 0) {
      return true;
    }
    int precision = value.precision();
    if (precision > ALWAYS_EXACT_DIGITS) {
      return false;
    }
    long exponent = (long) precision - value.scale() - 1; // value = d.ddd × 10^exponent
    return exponent >= -ALWAYS_EXACT_EXPONENT && exponent <= ALWAYS_EXACT_EXPONENT;
  }

  private static LoopxException refused(BigDecimal sent, CharSequence pointer, String why) {
    return new LoopxException(
        ErrorKind.REQUEST_INVALID,
        "request number "
            + cut(sent.toString())
            + " at "
            + quote(pointer)
            + " is not exactly a double: "
            + why
            + ", so the request digest would not bind the value the provider reads (I-JSON)");
  }

  /** Appends an RFC 6901 reference token: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
  private static void appendToken(StringBuilder pointer, String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '~') {
        pointer.append("~0");
      } else if (c == '/') {
        pointer.append("~1");
      } else {
        pointer.append(c);
      }
    }
  }

  private static String cut(String s) {
    return s.length() <= MAX_QUOTED ? s : s.substring(0, MAX_QUOTED - 3) + "...";
  }

  /**
   * Quotes a pointer for a message, cut to 64 characters, with control, separator and bidi
   * characters and unpaired surrogates written as {@code \\uXXXX} (the keys are caller input).
   */
  private static String quote(CharSequence pointer) {
    String s = cut(pointer.toString());
    StringBuilder out = new StringBuilder(s.length() + 2).append('`');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20
          || (c >= 0x7f && c <= 0x9f)
          || c == 0x2028
          || c == 0x2029
          || (c >= 0x202a && c <= 0x202e)
          || (c >= 0x2066 && c <= 0x2069)) {
        out.append(String.format("\\u%04X", (int) c));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('`').toString();
  }
}
