package io.loopx.api.internal;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * Strict UTF-8 in both directions, independent of the platform charset and locale: malformed or
 * truncated sequences, overlong forms, encoded surrogates and unpaired surrogates are reported,
 * never replaced. A byte order mark is not stripped (it decodes to U+FEFF). Stateless and
 * thread-safe (a fresh coder per call). Internal: the one strict decoder of JSON, TOML and provider
 * output.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StrictUtf8 {

  private StrictUtf8() {}

  /** Decodes {@code bytes}; empty when they are not well-formed UTF-8. */
  public static Optional<String> decode(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    try {
      return Optional.of(newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /**
   * Decodes {@code bytes}, or throws a {@link LoopxException} of {@code kind} whose message names
   * {@code what} and the offset of the first bad byte, e.g. {@code provider stdout is not valid
   * UTF-8 (malformed byte at offset 12)}.
   */
  public static String decode(byte[] bytes, ErrorKind kind, String what) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(what, "what");
    return decode(
        bytes,
        offset ->
            new LoopxException(
                kind, what + " is not valid UTF-8 (malformed byte at offset " + offset + ")"));
  }

  /**
   * Decodes {@code bytes}, or throws the exception {@code malformed} makes of the offset of the
   * first bad byte. ASCII input, the common case, is decoded without a coder.
   */
  public static String decode(byte[] bytes, IntFunction<? extends RuntimeException> malformed) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(malformed, "malformed");
    if (isAscii(bytes)) {
      return new String(bytes, StandardCharsets.US_ASCII);
    }
    CharsetDecoder decoder = newDecoder();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    // UTF-8 never yields more UTF-16 units than it has bytes.
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      throw malformed.apply(in.position());
    }
    return out.flip().toString();
  }

  /**
   * Encodes {@code text}.
   *
   * @throws InvalidValueException when the text contains an unpaired surrogate
   */
  public static byte[] encode(String text) {
    Objects.requireNonNull(text, "text");
    CharsetEncoder encoder =
        StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      ByteBuffer buffer = encoder.encode(CharBuffer.wrap(text));
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new InvalidValueException(
          "text", text.length() > 40 ? text.substring(0, 40) + "..." : text, "unpaired surrogate");
    }
  }

  private static boolean isAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  private static CharsetDecoder newDecoder() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }
}
