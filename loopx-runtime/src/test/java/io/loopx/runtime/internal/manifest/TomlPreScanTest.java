package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lexical pre-checks flag only what night-config gets wrong, never valid neighbours. */
class TomlPreScanTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "x = 9223372036854775807",
        "x = -9223372036854775808",
        "x = 0x7FFFFFFFFFFFFFFF",
        "x = 0b0111",
        "x = 1_000_000",
        "x = 1e400",
        "x = 1979-05-27T07:32:00Z",
        "x = 1979-05-27 07:32:00",
        "x = \"99999999999999999999999\"",
        "x = '99999999999999999999999'",
        "x = \"\"\"\n99999999999999999999999 \\\"\"\" [[[[\n\"\"\"",
        "x = '''99999999999999999999999 ''''",
        "x = 1 # 99999999999999999999999 [[[[[[[",
        "99999999999999999999999 = 1",
        "[99999999999999999999999]\nx = 1",
        "x = { 99999999999999999999999 = 1 }",
        "x = [ { a = 1 }, { b = [ 2 ] } ]",
        "x = \"a\\\"b\"\ny = 1",
      })
  void validTomlPasses(String toml) {
    assertThat(TomlPreScan.check(toml)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "x = 9223372036854775808",
        "x = -9223372036854775809",
        "x = 0x1_0000_0000_0000_0000",
        "x = [1, 99999999999999999999]",
        "x = {a = 99999999999999999999}",
        "x = [{}, 99999999999999999999]",
        "x = \"s\"\ny = 99999999999999999999",
        "x = [\n  \"a\", # c\n  99999999999999999999,\n]",
      })
  void outOfRangeIntegersAreFlagged(String toml) {
    assertThat(TomlPreScan.check(toml)).hasValueSatisfying(p -> assertThat(p).contains("64-bit"));
  }

  @ParameterizedTest
  @ValueSource(ints = {TomlPreScan.MAX_NESTING + 1, 10_000})
  void deepNestingIsFlagged(int depth) {
    assertThat(TomlPreScan.check("x = " + "[".repeat(depth))).isPresent();
    assertThat(TomlPreScan.check("x = " + "{a = ".repeat(depth))).isPresent();
    assertThat(TomlPreScan.check("a" + ".a".repeat(depth) + " = 1")).isPresent();
    assertThat(TomlPreScan.check("[a" + ".a".repeat(depth) + "]")).isPresent();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, TomlPreScan.MAX_NESTING})
  void nestingUpToTheLimitPasses(int depth) {
    assertThat(TomlPreScan.check("x = " + "[".repeat(depth) + "]".repeat(depth))).isEmpty();
    assertThat(TomlPreScan.check("a" + ".a".repeat(TomlPreScan.MAX_KEY_PARTS - 1) + " = 1"))
        .isEmpty();
  }
}
