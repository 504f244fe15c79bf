package io.loopx.api.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;

class StrictUtf8Test {

  @Test
  void wellFormedTextRoundTrips() {
    String text = "ascii, é, €, 𝄞, \uFEFF";

    assertThat(StrictUtf8.decode(StrictUtf8.encode(text))).contains(text);
    assertThat(StrictUtf8.encode(text)).isEqualTo(text.getBytes(UTF_8));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "C3", // truncated two-byte sequence
        "C328", // bad continuation
        "C080", // overlong NUL
        "E08080", // overlong
        "EDA080", // encoded high surrogate
        "F4908080", // above U+10FFFF
        "FF", // never valid
        "80" // lone continuation
      })
  void malformedInputIsReportedNotReplaced(String hex) {
    byte[] bytes = hex(hex);

    assertThat(StrictUtf8.decode(bytes)).isEmpty();
    assertThatThrownBy(() -> StrictUtf8.decode(bytes, ErrorKind.REQUEST_INVALID, "run input"))
        .isInstanceOf(LoopxException.class)
        .hasMessageStartingWith("run input is not valid UTF-8")
        .satisfies(
            e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.REQUEST_INVALID));
  }

  @Test
  void theThrowingDecodeNamesTheOffsetOfTheFirstBadByte() {
    byte[] bytes = {'{', '"', 'a', (byte) 0xFF, '"', '}'};

    assertThatThrownBy(() -> StrictUtf8.decode(bytes, ErrorKind.REQUEST_INVALID, "input"))
        .hasMessage("input is not valid UTF-8 (malformed byte at offset 3)");
  }

  @Test
  void anUnpairedSurrogateCannotBeEncoded() {
    assertThatThrownBy(() -> StrictUtf8.encode("a\uD800b"))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void propertyValidTextAlwaysRoundTrips() {
    qt().forAll(validText())
        .checkAssert(
            text -> {
              byte[] bytes = StrictUtf8.encode(text);
              assertThat(bytes).isEqualTo(text.getBytes(UTF_8));
              assertThat(StrictUtf8.decode(bytes)).contains(text);
              assertThat(StrictUtf8.decode(bytes, ErrorKind.REQUEST_INVALID, "x")).isEqualTo(text);
            });
  }

  @Test
  void propertyDecodeAcceptsExactlyTheBytesThatSurviveALenientRoundTrip() {
    // A corrupted encoding of valid text: one byte replaced at some position.
    qt().forAll(validText(), integers().between(0, 1000), integers().between(0, 255))
        .checkAssert(
            (text, position, value) -> {
              byte[] bytes = text.getBytes(UTF_8);
              if (bytes.length > 0) {
                bytes[position % bytes.length] = (byte) (int) value;
              }
              boolean wellFormed = Arrays.equals(new String(bytes, UTF_8).getBytes(UTF_8), bytes);
              assertThat(StrictUtf8.decode(bytes).isPresent()).isEqualTo(wellFormed);
            });
  }

  @Test
  void propertyRandomBytesDecodeOnlyWhenWellFormed() {
    qt().forAll(lists().of(integers().between(0, 255)).ofSizeBetween(0, 12))
        .checkAssert(
            values -> {
              byte[] bytes = toBytes(values);
              boolean wellFormed = Arrays.equals(new String(bytes, UTF_8).getBytes(UTF_8), bytes);
              assertThat(StrictUtf8.decode(bytes).isPresent()).isEqualTo(wellFormed);
            });
  }

  /** Text of any scalar values (surrogate code points mapped out of their range). */
  private static Gen<String> validText() {
    return lists()
        .of(integers().between(0, Character.MAX_CODE_POINT))
        .ofSizeBetween(0, 16)
        .map(
            codePoints -> {
              StringBuilder text = new StringBuilder();
              for (int codePoint : codePoints) {
                boolean surrogate = codePoint >= 0xD800 && codePoint <= 0xDFFF;
                text.appendCodePoint(surrogate ? codePoint - 0x800 : codePoint);
              }
              return text.toString();
            });
  }

  private static byte[] toBytes(List<Integer> values) {
    byte[] bytes = new byte[values.size()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (int) values.get(i);
    }
    return bytes;
  }

  private static byte[] hex(String hex) {
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return bytes;
  }
}
