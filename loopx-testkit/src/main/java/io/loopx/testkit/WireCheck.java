package io.loopx.testkit;

import java.math.BigDecimal;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The comparison behind the typed receipt assertions (package-private): a value must hold both in
 * the receipt's Java accessor and in its JSON form, the wire a host or the CLI prints.
 */
final class WireCheck {
  private WireCheck() {}

  /**
   * Returns the failure message when the accessor does not match ({@code typedMatches} false) or
   * the JSON key {@code key} does not hold {@code expected} (see {@link #matches}); else empty.
   */
  static Optional<String> mismatch(
      ObjectNode json,
      String key,
      boolean typedMatches,
      @Nullable Object typedActual,
      @Nullable Object expected) {
    JsonNode wire = json.get(key);
    if (typedMatches && wire != null && matches(wire, expected)) {
      return Optional.empty();
    }
    return Optional.of(
        "Expected <"
            + key
            + "> to be <"
            + expected
            + "> but the receipt holds <"
            + typedActual
            + "> and its JSON <"
            + wire
            + "> in\n  "
            + json);
  }

  /**
   * Returns whether {@code value} is {@code expected}: a {@link String} matches a JSON string, a
   * {@link Boolean} a JSON boolean, a {@link Number} a JSON number of equal value, {@code null} a
   * JSON {@code null}; anything else is compared with its {@code toString()} against a JSON string.
   */
  static boolean matches(JsonNode value, @Nullable Object expected) {
    if (expected == null) {
      return value.isNull();
    }
    if (expected instanceof Boolean b) {
      return value.isBoolean() && value.booleanValue() == b;
    }
    if (expected instanceof Number n) {
      return value.isNumber() && value.decimalValue().compareTo(new BigDecimal(n.toString())) == 0;
    }
    return value.isString() && value.asString().equals(expected.toString());
  }
}
