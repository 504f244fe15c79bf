package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.internal.Es6Numbers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link Es6Numbers} against {@code es6-oracle.txt}: ~2600 doubles (random bit patterns,
 * subnormals, powers of ten and two with their neighbours, integers, short decimals) with the ES6
 * string derived from JDK 25's shortest {@code Double.toString} by {@link Es6OracleGenerator}. The
 * file was also cross-checked line by line against a JavaScript engine when it was generated.
 */
class Es6NumbersOracleTest {

  @Test
  void reproducesEveryLineOfTheOracleFile() throws IOException {
    List<String> mismatches = new ArrayList<>();
    int checked = 0;
    try (InputStream in =
            Objects.requireNonNull(
                Es6NumbersOracleTest.class.getResourceAsStream("es6-oracle.txt"),
                "es6-oracle.txt");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.split(" ");
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
        String actual = Es6Numbers.format(d);
        if (!actual.equals(parts[1])) {
          mismatches.add(line + " but got " + actual);
        }
        checked++;
      }
    }

    assertThat(checked).isGreaterThanOrEqualTo(2000);
    assertThat(mismatches).isEmpty();
  }
}
