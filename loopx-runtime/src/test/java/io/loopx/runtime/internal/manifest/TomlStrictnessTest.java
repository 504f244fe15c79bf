package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.manifest.ManifestException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.POJONode;

/**
 * The TOML layer reads exactly TOML 1.0.0: each class of document TOML declares invalid is refused
 * as {@code manifest_invalid} naming the file, line and column, and its valid neighbours are read
 * with the values TOML defines.
 */
class TomlStrictnessTest {

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("header after its super-table", "[a.b]\n[a]\n[a.b]\n", "3, column 1"),
        Arguments.of("super-table defined twice", "[a.b]\n[a]\n[a]\n", "3, column 1"),
        Arguments.of("table defined twice", "[a]\n[a.b]\n[a.b]\n", "3, column 1"),
        Arguments.of(
            "dotted keys extend an inline table",
            "[product]\ntype = { name = \"Nail\" }\ntype.edible = false\n",
            "3, column 1"),
        Arguments.of(
            "dotted keys extend an inline table inside one",
            "t = { f = { a.b = 1 }, f.a.c = 2 }",
            "1, column 24"),
        Arguments.of(
            "dotted keys extend a header table", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n", "4, column 1"),
        Arguments.of(
            "header redefines a dotted table", "[t1]\nt2.t3.v = 0\n[t1.t2]\n", "3, column 1"),
        Arguments.of("header extends an inline table", "a = { b = 1 }\n[a.c]\n", "2, column 1"),
        Arguments.of(
            "array of tables after a static array", "fruit = []\n[[fruit]]\n", "2, column 1"),
        Arguments.of("array of tables after a table", "[fruit]\n[[fruit]]\n", "2, column 1"),
        Arguments.of("table after an array of tables", "[[fruit]]\n[fruit]\n", "2, column 1"),
        Arguments.of("header through a static array", "a = [{}]\n[a.b]\n", "2, column 1"),
        Arguments.of("key defined twice", "a = 1\na = 2\n", "2, column 1"),
        Arguments.of("quoted key equal to a bare one", "a = 1\n\"a\" = 2\n", "2, column 1"),
        Arguments.of("bare carriage return", "a = 1\r\nb = 2\r", "2, column 6"),
        Arguments.of("bare carriage return in a comment", "# x\ry\n", "1, column 4"),
        Arguments.of("bare carriage return in a string", "a = \"\"\"x\ry\"\"\"\n", "1, column 9"),
        Arguments.of("tab inside a number", "a = 1\t2\n", "1, column 7"),
        Arguments.of("vertical tab after a number", "a = 1\u000b\n", "1, column 6"),
        Arguments.of("offset without a colon", "a = 1979-05-27T07:32:00-0100\n", "1, column 5"),
        Arguments.of("offset without minutes", "a = 1979-05-27T07:32:00+01\n", "1, column 5"),
        Arguments.of("offset hour out of range", "a = 1979-05-27T07:32:00+24:00\n", "1, column 5"),
        Arguments.of("datetime without seconds", "a = 1979-05-27T07:32Z\n", "1, column 5"),
        Arguments.of("no day 30 in February", "a = 2000-02-30\n", "1, column 5"),
        Arguments.of("no 29 February in 1900", "a = 1900-02-29\n", "1, column 5"),
        Arguments.of("hour 24", "a = 24:00:00\n", "1, column 5"),
        Arguments.of("fraction without digits", "a = 07:32:00.\n", "1, column 5"),
        Arguments.of("leading zero", "a = 01\n", "1, column 5"),
        Arguments.of("leading zero with a sign", "a = -01\n", "1, column 5"),
        Arguments.of("leading zero with an underscore", "a = 0_1\n", "1, column 5"),
        Arguments.of("leading zero in a float", "a = 01.5\n", "1, column 5"),
        Arguments.of("signed hexadecimal", "a = +0x1\n", "1, column 5"),
        Arguments.of("underscore at the end", "a = 1_\n", "1, column 5"),
        Arguments.of("double underscore", "a = 1__0\n", "1, column 5"),
        Arguments.of("float without fraction digits", "a = 1.\n", "1, column 5"),
        Arguments.of("float with exponent after the dot", "a = 1.e5\n", "1, column 5"),
        Arguments.of("arabic-indic digit", "a = \u0661\n", "1, column 5"),
        Arguments.of("integer out of range", "a = 9223372036854775808\n", "1, column 5"),
        Arguments.of("unknown escape", "a = \"\\x\"\n", "1, column 6"),
        Arguments.of("surrogate escape", "a = \"\\uD800\"\n", "1, column 6"),
        Arguments.of("control character in a string", "a = \"x\u0001\"\n", "1, column 7"),
        Arguments.of("DEL in a comment", "a = 1 # \u007f\n", "1, column 9"),
        Arguments.of("trailing comma in an inline table", "a = { b = 1, }\n", "1, column 14"),
        Arguments.of("line break in an inline table", "a = { b = 1,\n c = 2 }\n", "1, column 13"),
        Arguments.of("empty array element", "a = [1,,2]\n", "1, column 8"),
        Arguments.of("two values on a line", "a = 1 b = 2\n", "1, column 7"),
        Arguments.of("multi-line string as a key", "\"\"\"a\"\"\" = 1\n", "1, column 1"),
        Arguments.of("too many closing quotes", "a = \"\"\"x\"\"\"\"\"\"\n", "1, column 9"),
        Arguments.of("a second byte-order mark", "\ufeff\ufeffa = 1\n", "1, column 1"),
        Arguments.of("space between array-table brackets", "[[a] ]\n", "1, column 4"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidTomlIsRefusedNamingItsPosition(String name, String toml, String position) {
    assertThatThrownBy(() -> parse(toml))
        .isInstanceOfSatisfying(
            ManifestException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
              assertThat(e.source()).isEqualTo("t.toml");
              assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
              assertThat(e.detail()).startsWith("is not valid TOML: line " + position + ": ");
            });
  }

  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of(
            "super-table after its sub-table", "[a.b]\nx = 1\n[a]\ny = 2\n", "/a/b/x", "1"),
        Arguments.of(
            "sub-table of a dotted table", "[a]\nb.c = 1\n[a.b.d]\ne = 2\n", "/a/b/d/e", "2"),
        Arguments.of("dotted keys in an inline table", "a = { b.c = 1, b.d = 2 }\n", "/a/b/d", "2"),
        Arguments.of("dotted keys into a super-table", "[a.b.c]\n[a]\nb.d = 1\n", "/a/b/d", "1"),
        Arguments.of(
            "arrays of tables",
            "[[a]]\n[[a.b]]\nx = 1\n[[a]]\n[[a.b]]\nx = 2\n",
            "/a/1/b/0/x",
            "2"),
        Arguments.of("CRLF line breaks", "a = 1\r\nb = \"\"\"x\r\ny\"\"\"\r\n", "/a", "1"),
        Arguments.of("tabs as whitespace", "a\t=\t1\t# c\n", "/a", "1"),
        Arguments.of("zero", "a = 0\n", "/a", "0"),
        Arguments.of("signed zeros", "a = [+0, -0]\n", "/a/1", "0"),
        Arguments.of("underscores", "a = 1_000_000\n", "/a", "1000000"),
        Arguments.of("hexadecimal ending in e", "a = 0xE\n", "/a", "14"),
        Arguments.of("hexadecimal", "a = 0xdead_BEEF\n", "/a", "3735928559"),
        Arguments.of("octal with leading zeros", "a = 0o0017\n", "/a", "15"),
        Arguments.of("binary", "a = 0b1010\n", "/a", "10"),
        Arguments.of(
            "smallest integer", "a = -9223372036854775808\n", "/a", "-9223372036854775808"),
        Arguments.of("float with a zero-led exponent", "a = 1e05\n", "/a", "100000.0"),
        Arguments.of("float with a zero-led fraction", "a = 0.05\n", "/a", "0.05"),
        Arguments.of("float with underscores", "a = 1_0.0_5e1_0\n", "/a", "1.005E11"),
        Arguments.of("unicode escapes", "a = \"\\u00e9\\U0001F600\"\n", "/a", "é😀"),
        Arguments.of("line-ending backslash", "a = \"\"\"x \\\n   y\"\"\"\n", "/a", "x y"),
        Arguments.of("quotes before the closing delimiter", "a = '''x'''''\n", "/a", "x''"),
        Arguments.of("empty keys", "\"\" = 1\n", "/", "1"),
        Arguments.of("leading byte-order mark", "\ufeffa = 1\n", "/a", "1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void validTomlIsReadWithItsValues(String name, String toml, String pointer, String value) {
    JsonNode node = parse(toml).at(pointer);
    assertThat(node.isMissingNode()).isFalse();
    assertThat(node.isString() ? node.stringValue() : node.toString()).isEqualTo(value);
  }

  static Stream<Arguments> datetimes() {
    return Stream.of(
        Arguments.of("1979-05-27T07:32:00Z", OffsetDateTime.parse("1979-05-27T07:32:00Z")),
        Arguments.of("1979-05-27t07:32:00z", OffsetDateTime.parse("1979-05-27T07:32:00Z")),
        Arguments.of(
            "1979-05-27 00:32:00.999999-07:00",
            OffsetDateTime.parse("1979-05-27T00:32:00.999999-07:00")),
        Arguments.of("1979-05-27T07:32:00", LocalDateTime.parse("1979-05-27T07:32:00")),
        Arguments.of("2000-02-29", LocalDate.parse("2000-02-29")),
        Arguments.of("0000-01-01", LocalDate.parse("0000-01-01")),
        Arguments.of("07:32:00.5", LocalTime.parse("07:32:00.5")),
        Arguments.of("23:59:59.9999999999", LocalTime.parse("23:59:59.999999999")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datetimes")
  void datetimesAreReadAsTheirKind(String literal, Object expected) {
    JsonNode node = parse("a = " + literal + "\n").get("a");
    assertThat(node).isInstanceOf(POJONode.class);
    assertThat(((POJONode) node).getPojo()).isEqualTo(expected);
  }

  @Test
  void theColumnCountsCodePoints() {
    assertThatThrownBy(() -> parse("a = \"😀😀\" b\n"))
        .hasMessageContaining("line 1, column 10: expected a line break");
  }

  private static JsonNode parse(String toml) {
    return TomlDocument.parse(toml.getBytes(StandardCharsets.UTF_8), "t.toml");
  }
}
