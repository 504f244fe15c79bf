package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import tools.jackson.databind.JsonNode;

/**
 * Fuzzes {@link StrictJson#parse}: any bytes give a node or an {@link InvalidJsonException}, never
 * another exception. A parsed node re-serialises compactly to bytes that parse to an equal node,
 * and canonicalises (unless it holds a number without a finite double value) idempotently.
 *
 * <p>The normal build runs the seeds in {@code StrictJsonFuzzTestInputs/parseIsTotal/} (regression
 * mode). To fuzz, run with {@code JAZZER_FUZZ=1}, e.g. {@code JAZZER_FUZZ=1 mvn test -pl loopx-api
 * -Dtest=StrictJsonFuzzTest}; findings are written next to the seeds.
 */
class StrictJsonFuzzTest {

  @FuzzTest(maxDuration = "60s")
  void parseIsTotal(byte[] input) {
    JsonNode node;
    try {
      node = StrictJson.parse(input);
    } catch (InvalidJsonException e) {
      assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
      assertThat(e.reason()).isNotNull();
      assertThat(e.getMessage()).isNotBlank();
      return;
    }

    assertThat(StrictJson.parse(StrictJson.toCompactBytes(node))).isEqualTo(node);

    byte[] canonical;
    try {
      canonical = CanonicalJson.toBytes(node);
    } catch (InvalidValueException e) {
      // Only a number can be non-canonicalisable in a strictly parsed tree (e.g. 1e400).
      assertThat(e.what()).isEqualTo("canonical JSON number");
      return;
    }
    byte[] again = CanonicalJson.toBytes(JsonTrees.reparseCanonical(canonical));
    assertThat(again).isEqualTo(canonical);
  }
}
