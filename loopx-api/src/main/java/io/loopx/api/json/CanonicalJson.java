package io.loopx.api.json;

import io.loopx.api.Digest;
import io.loopx.api.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * RFC 8785 JSON Canonicalization Scheme: object keys sorted by UTF-16 code units, no whitespace,
 * minimal string escaping, ES6 number form, UTF-8 bytes.
 *
 * <p>Stateless and thread-safe. Inputs must be I-JSON trees: objects, arrays, strings, numbers,
 * booleans and null. Everything else is rejected with an {@link InvalidValueException}: other node
 * types (missing, binary, POJO), strings or keys holding a lone surrogate (they have no UTF-8
 * form), integral numbers beyond ±2<sup>53</sup>, NaN and infinities.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class CanonicalJson {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** The bytes {@link #writeString} stops at: controls, quote, backslash and {@code ?}. */
  private static final boolean[] SPECIAL = new boolean[256];

  static {
    for (int c = 0; c < 0x20; c++) {
      SPECIAL[c] = true;
    }
    SPECIAL['"'] = true;
    SPECIAL['\\'] = true;
    SPECIAL['?'] = true;
  }

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  @SuppressWarnings("unchecked")
  private static final Map.Entry<String, JsonNode>[] NO_ENTRIES = new Map.Entry[0];

  private CanonicalJson() {}

  /**
   * Returns the canonical JSON text of {@code node}.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static String toText(JsonNode node) {
    Utf8Sink out = write(node);
    return new String(out.bytes, 0, out.size, StandardCharsets.UTF_8);
  }

  /**
   * Returns the canonical JSON of {@code node} as UTF-8 bytes.
   *
   * @throws InvalidValueException if the tree is not I-JSON (see the class comment)
   */
  public static byte[] toBytes(JsonNode node) {
    Utf8Sink out = write(node);
    return Arrays.copyOf(out.bytes, out.size);
  }

  /** Returns the 64 lowercase hex characters of the SHA-256 of the canonical bytes. */
  public static String sha256Hex(JsonNode node) {
    Utf8Sink out = write(node);
    return HexFormat.of().formatHex(sha256(out.bytes, out.size));
  }

  /** Returns the {@code sha256:<hex>} digest of the canonical bytes. */
  public static Digest digest(JsonNode node) {
    return Digest.of("sha256:" + sha256Hex(node));
  }

  static byte[] sha256(byte[] bytes) {
    return sha256(bytes, bytes.length);
  }

  private static byte[] sha256(byte[] bytes, int length) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(bytes, 0, length);
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static Utf8Sink write(JsonNode node) {
    Utf8Sink out = new Utf8Sink();
    write(node, out);
    return out;
  }

  private static void write(JsonNode node, Utf8Sink out) {
    switch (node.getNodeType()) {
      case OBJECT -> writeObject(node, out);
      case ARRAY -> {
        out.put('[');
        int size = node.size();
        for (int i = 0; i < size; i++) {
          if (i > 0) {
            out.put(',');
          }
          write(node.get(i), out);
        }
        out.put(']');
      }
      case STRING -> writeString(node.asString(), out);
      case NUMBER -> writeNumber(node, out);
      case BOOLEAN -> out.put(node.booleanValue() ? TRUE : FALSE);
      case NULL -> out.put(NULL);
      default ->
          throw new InvalidValueException(
              "canonical JSON value", String.valueOf(node.getNodeType()), "is not a JSON value");
    }
  }

  private static void writeObject(JsonNode node, Utf8Sink out) {
    Map.Entry<String, JsonNode>[] entries = node.properties().toArray(NO_ENTRIES);
    // String.compareTo compares UTF-16 code units, as RFC 8785 requires; keys are unique.
    if (!sorted(entries)) {
      Arrays.sort(entries, Map.Entry.comparingByKey());
    }
    out.put('{');
    for (int i = 0; i < entries.length; i++) {
      if (i > 0) {
        out.put(',');
      }
      writeString(entries[i].getKey(), out);
      out.put(':');
      write(entries[i].getValue(), out);
    }
    out.put('}');
  }

  private static boolean sorted(Map.Entry<String, JsonNode>[] entries) {
    for (int i = 1; i < entries.length; i++) {
      if (entries[i - 1].getKey().compareTo(entries[i].getKey()) > 0) {
        return false;
      }
    }
    return true;
  }

  private static void writeNumber(JsonNode node, Utf8Sink out) {
    if (node.isInt() || node.isLong()) {
      // Every int and long node is integral; the range check and digits are those of format().
      long v = node.longValue();
      if (v >= -Es6Numbers.MAX_SAFE_MAGNITUDE && v <= Es6Numbers.MAX_SAFE_MAGNITUDE) {
        out.putLong(v);
        return;
      }
    }
    out.putAscii(Es6Numbers.format(node));
  }

  /**
   * Writes a JSON string with the minimal RFC 8785 escaping, as UTF-8. The JDK's encoder does the
   * encoding; a lone surrogate, which it would replace by {@code ?}, is looked for only when the
   * encoded form holds a {@code ?}. Every byte that needs an escape is ASCII, and ASCII bytes never
   * occur inside a multi-byte UTF-8 sequence, so escaping works on the encoded bytes.
   */
  private static void writeString(String s, Utf8Sink out) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    int length = utf8.length;
    out.reserve(length + 2);
    out.bytes[out.size++] = '"';
    int run = 0;
    boolean surrogatesChecked = false;
    for (int i = 0; i < length; i++) {
      byte c = utf8[i];
      if (!SPECIAL[c & 0xff]) {
        continue; // printable ASCII other than the three below, or part of a multi-byte sequence
      }
      if (c == '?') {
        if (!surrogatesChecked) {
          requireNoLoneSurrogate(s);
          surrogatesChecked = true;
        }
        continue;
      }
      out.put(utf8, run, i - run);
      out.putEscape(c);
      run = i + 1;
    }
    out.put(utf8, run, length - run);
    out.put('"');
  }

  private static void requireNoLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          throw new InvalidValueException(
              "canonical JSON string",
              s,
              String.format("contains a lone surrogate U+%04X at index %d", (int) c, i));
        }
      }
    }
  }

  /** A growable UTF-8 byte buffer. */
  private static final class Utf8Sink {
    byte[] bytes = new byte[256];
    int size;

    /** Makes room for {@code extra} more bytes. */
    void reserve(int extra) {
      int needed = size + extra;
      if (needed < 0) {
        throw new OutOfMemoryError("canonical JSON larger than 2 GiB");
      }
      if (needed > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
      }
    }

    void put(char ascii) {
      reserve(1);
      bytes[size++] = (byte) ascii;
    }

    void put(byte[] ascii) {
      reserve(ascii.length);
      System.arraycopy(ascii, 0, bytes, size, ascii.length);
      size += ascii.length;
    }

    void put(byte[] source, int offset, int length) {
      reserve(length);
      System.arraycopy(source, offset, bytes, size, length);
      size += length;
    }

    /** Writes the escape of an ASCII quote, backslash or control character. */
    void putEscape(byte c) {
      reserve(6);
      bytes[size++] = '\\';
      switch (c) {
        case '"' -> bytes[size++] = '"';
        case '\\' -> bytes[size++] = '\\';
        case '\b' -> bytes[size++] = 'b';
        case '\f' -> bytes[size++] = 'f';
        case '\n' -> bytes[size++] = 'n';
        case '\r' -> bytes[size++] = 'r';
        case '\t' -> bytes[size++] = 't';
        default -> {
          // RFC 8785 §3.2.2.2: any other control as a u00hh escape with lowercase hex.
          bytes[size++] = 'u';
          bytes[size++] = '0';
          bytes[size++] = '0';
          bytes[size++] = HEX[c >> 4];
          bytes[size++] = HEX[c & 0xf];
        }
      }
    }

    void putAscii(String ascii) {
      int length = ascii.length();
      reserve(length);
      for (int i = 0; i < length; i++) {
        bytes[size++] = (byte) ascii.charAt(i);
      }
    }

    /** Writes the decimal digits of {@code v}, as {@link Long#toString(long)} does. */
    void putLong(long v) {
      if (v == 0) {
        put('0');
        return;
      }
      reserve(20);
      if (v < 0) {
        bytes[size++] = '-';
        v = -v; // |v| <= 2^53 here, so no overflow
      }
      int digits = 0;
      for (long t = v; t > 0; t /= 10) {
        digits++;
      }
      int end = size + digits;
      for (int i = end - 1; i >= size; i--) {
        bytes[i] = (byte) ('0' + (v % 10));
        v /= 10;
      }
      size = end;
    }
  }
}
