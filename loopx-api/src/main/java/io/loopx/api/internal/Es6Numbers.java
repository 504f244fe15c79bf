package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * ES6 {@code Number.prototype.toString} formatting of JSON numbers for RFC 8785 (internal: used by
 * {@code CanonicalJson} and {@link CanonicalWriter}).
 *
 * <p>The digits come from a port of Raffaello Giulietti's Schubfach algorithm ("The Schubfach way
 * to render doubles", 2020), which yields the shortest decimal that rounds back to the double and,
 * among several shortest ones, the closest (ties to an even last digit). This is exactly the choice
 * of ECMA-262 §6.1.6.1.20 (Number::toString). Unlike the JDK 19+ variant this port does not insist
 * on two digits: {@code 5e-324}, not {@code 4.9E-324}. JDK 17's {@code Double.toString} is not
 * shortest and is not used.
 *
 * <p>Integral nodes (int, long, BigInteger) within ±2<sup>53</sup> print as plain integers; beyond
 * that they are rejected (I-JSON). Decimal and floating-point nodes are converted to the nearest
 * double first. NaN and infinities are rejected; {@code -0} prints {@code 0}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Es6Numbers {
  private static final String WHAT = "canonical JSON number";

  /**
   * The longest ES6 text of a double: sign, "0.00000" and 17 digits (25), or sign, 17 digits with a
   * point and "e-324" (25); 21 plain digits with a sign are 22.
   */
  static final int MAX_LENGTH = 32;

  /** 2^53: the largest magnitude of an integral node that is accepted. */
  public static final long MAX_SAFE_MAGNITUDE = 1L << 53;

  // Binary64 parameters (precision P, exponent range of the integral significand c).
  private static final int P = 53;
  private static final int Q_MIN = -1074;
  private static final long C_MIN = 1L << (P - 1);
  private static final int BQ_MASK = 0x7ff;
  private static final long T_MASK = (1L << (P - 1)) - 1;
  private static final long MASK_63 = (1L << 63) - 1;

  // Range of the decimal exponent k for which the table of g holds 10^-k.
  private static final int K_MIN = -324;
  private static final int K_MAX = 292;

  /**
   * For each k in [K_MIN, K_MAX], g = floor(10^-k 2^-r) + 1 with r chosen so that 2^125 <= g <
   * 2^126, stored as g1 = g >> 63 and g0 = g mod 2^63 at indexes 2(k - K_MIN) and 2(k - K_MIN) + 1.
   * Computed once with exact integer arithmetic.
   */
  private static final long[] G = powersOfTen();

  private Es6Numbers() {}

  /**
   * Formats a JSON number node, or throws {@link InvalidValueException} (what = {@value #WHAT}) for
   * an integral node beyond ±2^53, a non-finite value or a node that is not a number.
   */
  public static String format(JsonNode number) {
    if (!number.isNumber()) {
      throw new InvalidValueException(WHAT, number.toString(), "is not a number");
    }
    if (number.isIntegralNumber()) {
      if (number.canConvertToLong()) {
        long v = number.longValue();
        if (v >= -MAX_SAFE_MAGNITUDE && v <= MAX_SAFE_MAGNITUDE) {
          return Long.toString(v);
        }
      }
      throw new InvalidValueException(
          WHAT, number.toString(), "is an integer beyond ±2^53 (I-JSON, RFC 7493 §2.2)");
    }
    // Jackson 3's DecimalNode.doubleValue() throws beyond the double range; BigDecimal gives ±inf.
    double d = number.isBigDecimal() ? number.decimalValue().doubleValue() : number.doubleValue();
    if (!Double.isFinite(d)) {
      throw new InvalidValueException(
          WHAT, number.toString(), "has no finite double value (NaN and infinities are not JSON)");
    }
    return format(d);
  }

  /**
   * Returns the ES6 string of a finite double, or throws {@link InvalidValueException} for NaN and
   * infinities.
   */
  public static String format(double v) {
    if (!Double.isFinite(v)) {
      throw new InvalidValueException(
          WHAT, Double.toString(v), "has no JSON form (NaN and infinities are not JSON)");
    }
    byte[] text = new byte[MAX_LENGTH];
    int length = write(v, text, 0);
    return new String(text, 0, length, StandardCharsets.ISO_8859_1);
  }

  /**
   * Writes the ES6 form of {@code number} into {@code out}, exactly the text of {@link
   * #format(JsonNode)}, without an intermediate string for binary and decimal nodes.
   *
   * @return the index in {@code out.bytes} where the text starts (it ends at {@code out.size})
   * @throws InvalidValueException as {@link #format(JsonNode)}
   */
  static int write(JsonNode number, CanonicalSink out) {
    if (number.isNumber() && !number.isIntegralNumber()) {
      double d = number.isBigDecimal() ? number.decimalValue().doubleValue() : number.doubleValue();
      if (Double.isFinite(d)) {
        out.room(MAX_LENGTH);
        int start = out.size;
        out.size = write(d, out.bytes, start);
        return start;
      }
    }
    String text = format(number); // integral nodes, and the errors with their messages
    out.room(text.length());
    int start = out.size;
    out.putAscii(text);
    return start;
  }

  /**
   * Writes the ES6 form of the finite {@code d} into {@code out}, exactly the text of {@link
   * #format(double)}.
   *
   * @return the index in {@code out.bytes} where the text starts (it ends at {@code out.size})
   */
  static int write(double d, CanonicalSink out) {
    out.room(MAX_LENGTH);
    int start = out.size;
    out.size = write(d, out.bytes, start);
    return start;
  }

  /**
   * Writes the ES6 string of a finite double at {@code out[p]}, which has room for {@value
   * #MAX_LENGTH} bytes; returns the index after it.
   */
  private static int write(double v, byte[] out, int p) {
    long bits = Double.doubleToRawLongBits(v);
    long t = bits & T_MASK;
    int bq = (int) (bits >>> (P - 1)) & BQ_MASK;
    boolean negative = bits < 0 && (bq != 0 || t != 0);
    if (bq != 0) {
      // Normal value: v = c 2^q with c = 2^52 + t and q = bq - 1075; mq = -q.
      int mq = -Q_MIN + 1 - bq;
      long c = C_MIN | t;
      if (0 < mq && mq < P) {
        // Fast path: v is an integer below 2^53, whose decimal digits are already shortest.
        long f = c >> mq;
        if (f << mq == c) {
          return appendEs6(negative, f, 0, out, p);
        }
      }
      return toDecimal(negative, -mq, c, out, p);
    }
    if (t != 0) {
      // Subnormal value: v = t 2^Q_MIN.
      return toDecimal(negative, Q_MIN, t, out, p);
    }
    out[p] = '0';
    return p + 1;
  }

  /**
   * Finds the shortest decimal d 10^k that rounds to c 2^q and formats it. The skeleton follows
   * figure 7 of the Schubfach paper; the arithmetic that of figure 9.
   */
  private static int toDecimal(boolean negative, int q, long c, byte[] out, int p) {
    int out1 = (int) c & 0x1; // boundaries of the rounding interval are included iff c is even
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != C_MIN || q == Q_MIN) {
      // Regular spacing: both neighbours are 2^q away.
      cbl = cb - 2;
      k = flog10pow2(q);
    } else {
      // Irregular spacing at a power of two: the lower neighbour is only 2^(q-1) away.
      cbl = cb - 1;
      k = flog10threeQuartersPow2(q);
    }
    int h = q + flog2pow10(-k) + 2;

    long g1 = G[(k - K_MIN) << 1];
    long g0 = G[((k - K_MIN) << 1) | 1];

    long vb = rop(g1, g0, cb << h);
    long vbl = rop(g1, g0, cbl << h);
    long vbr = rop(g1, g0, cbr << h);

    long s = vb >> 2;
    if (s >= 10) {
      // Try one digit less: u' = sp10 10^k and w' = tp10 10^k. At most one of them can lie in the
      // rounding interval. (The JDK uses s >= 100 here because Java wants at least two digits;
      // ES6 wants the plain shortest, e.g. 8e-323 rather than 7.9e-323.)
      long sp10 = 10 * (s / 10);
      long tp10 = sp10 + 10;
      boolean upin = vbl + out1 <= sp10 << 2;
      boolean wpin = (tp10 << 2) + out1 <= vbr;
      if (upin != wpin) {
        return appendEs6(negative, upin ? sp10 : tp10, k, out, p);
      }
    }
    // u = s 10^k and w = t 10^k: at least one lies in the rounding interval.
    long t = s + 1;
    boolean uin = vbl + out1 <= s << 2;
    boolean win = (t << 2) + out1 <= vbr;
    if (uin != win) {
      return appendEs6(negative, uin ? s : t, k, out, p);
    }
    // Both do: take the closer one, and the even one on a tie.
    long cmp = vb - ((s + t) << 1);
    return appendEs6(negative, cmp < 0 || (cmp == 0 && (s & 0x1) == 0) ? s : t, k, out, p);
  }

  /** Computes rop(cp g 2^-127) where g = g1 2^63 + g0 (round to odd; section 9.9 of the paper). */
  private static long rop(long g1, long g0, long cp) {
    long x1 = Math.multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = Math.multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | (((z & MASK_63) + MASK_63) >>> 63);
  }

  /** floor(log10(2^e)) for |e| <= 5_456_721. */
  private static int flog10pow2(int e) {
    return (int) ((e * 661_971_961_083L) >> 41);
  }

  /** floor(log10(3/4 2^e)) for |e| <= 5_456_721. */
  private static int flog10threeQuartersPow2(int e) {
    return (int) ((e * 661_971_961_083L - 274_743_187_321L) >> 41);
  }

  /** floor(log2(10^e)) for |e| <= 1_838_394. */
  private static int flog2pow10(int e) {
    return (int) ((e * 913_124_641_741L) >> 38);
  }

  private static long[] powersOfTen() {
    long[] g = new long[(K_MAX - K_MIN + 1) << 1];
    BigInteger mask63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
    for (int k = K_MIN; k <= K_MAX; k++) {
      int e = -k;
      int r = flog2pow10(e) - 125; // 10^e = beta 2^r with 2^125 <= beta < 2^126
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      if (e >= 0) {
        num = num.multiply(BigInteger.TEN.pow(e));
      } else {
        den = den.multiply(BigInteger.TEN.pow(-e));
      }
      if (r >= 0) {
        den = den.shiftLeft(r);
      } else {
        num = num.shiftLeft(-r);
      }
      BigInteger gk = num.divide(den).add(BigInteger.ONE);
      g[(k - K_MIN) << 1] = gk.shiftRight(63).longValueExact();
      g[((k - K_MIN) << 1) | 1] = gk.and(mask63).longValueExact();
    }
    return g;
  }

  /**
   * Writes f 10^e (f > 0), negated if {@code negative}, in the ES6 form at {@code out[p]}: plain
   * digits for decimal exponents up to 21, "0.000ddd" down to 10^-7, exponent form ({@code 1e+21},
   * {@code 1.5e-7}) otherwise. Returns the index after it.
   */
  private static int appendEs6(boolean negative, long f, int e, byte[] out, int p) {
    while (f % 10 == 0) {
      f /= 10;
      e++;
    }
    int k = digitCount(f); // at most 17
    int n = e + k; // the value is 0.d1..dk times 10^n
    if (negative) {
      out[p++] = '-';
    }
    if (k <= n && n <= 21) {
      p = digits(f, k, out, p);
      for (int i = k; i < n; i++) {
        out[p++] = '0';
      }
    } else if (0 < n && n <= 21) {
      // d1..dn "." dn+1..dk: the digits, then the integer part moved one place to the left.
      int end = digits(f, k, out, p + 1);
      System.arraycopy(out, p + 1, out, p, n);
      out[p + n] = '.';
      p = end;
    } else if (-6 < n && n <= 0) {
      out[p++] = '0';
      out[p++] = '.';
      for (int i = 0; i < -n; i++) {
        out[p++] = '0';
      }
      p = digits(f, k, out, p);
    } else {
      // d1 ["." d2..dk] "e" sign exponent
      int end = digits(f, k, out, p + 1);
      out[p] = out[p + 1];
      if (k > 1) {
        out[p + 1] = '.';
        p = end;
      } else {
        p++;
      }
      out[p++] = 'e';
      int x = n - 1;
      out[p++] = (byte) (x < 0 ? '-' : '+');
      x = Math.abs(x);
      if (x >= 100) {
        out[p++] = (byte) ('0' + x / 100);
      }
      if (x >= 10) {
        out[p++] = (byte) ('0' + x / 10 % 10);
      }
      out[p++] = (byte) ('0' + x % 10);
    }
    return p;
  }

  /** Powers of ten 10^0 .. 10^18. */
  private static final long[] POWERS_OF_TEN = powersOfTenLong();

  /** The two ASCII digits of 0 .. 99, tens then units, at 2n and 2n + 1. */
  private static final byte[] TWO_DIGITS = twoDigits();

  /**
   * The number of decimal digits of {@code f} &gt; 0: floor(log10(2) × bit length), plus one when
   * {@code f} reaches the next power of ten (Hacker's Delight 11-4), without a division.
   */
  static int digitCount(long f) {
    int t = ((64 - Long.numberOfLeadingZeros(f)) * 1233) >>> 12;
    return f >= POWERS_OF_TEN[t] ? t + 1 : t;
  }

  /**
   * Writes the {@code k} decimal digits of {@code f} &gt;= 0 at {@code out[p]}; returns p + k.
   * Eight digits at a time are split off with one long division, then written two at a time from an
   * {@code int} with a table, instead of one long division per digit.
   */
  static int digits(long f, int k, byte[] out, int p) {
    int end = p + k;
    int i = end;
    while (f >= 100_000_000L) {
      long q = f / 100_000_000L;
      int r = (int) (f - q * 100_000_000L);
      f = q;
      for (int pair = 0; pair < 4; pair++) {
        int r2 = r / 100;
        int d = (r - r2 * 100) << 1;
        out[--i] = TWO_DIGITS[d + 1];
        out[--i] = TWO_DIGITS[d];
        r = r2;
      }
    }
    int r = (int) f;
    while (r >= 100) {
      int r2 = r / 100;
      int d = (r - r2 * 100) << 1;
      out[--i] = TWO_DIGITS[d + 1];
      out[--i] = TWO_DIGITS[d];
      r = r2;
    }
    if (r >= 10) {
      out[--i] = TWO_DIGITS[(r << 1) + 1];
      out[--i] = TWO_DIGITS[r << 1];
    } else {
      out[--i] = (byte) ('0' + r);
    }
    return end;
  }

  private static long[] powersOfTenLong() {
    long[] powers = new long[19];
    powers[0] = 1;
    for (int i = 1; i < powers.length; i++) {
      powers[i] = powers[i - 1] * 10;
    }
    return powers;
  }

  private static byte[] twoDigits() {
    byte[] table = new byte[200];
    for (int n = 0; n < 100; n++) {
      table[n << 1] = (byte) ('0' + n / 10);
      table[(n << 1) + 1] = (byte) ('0' + n % 10);
    }
    return table;
  }
}
