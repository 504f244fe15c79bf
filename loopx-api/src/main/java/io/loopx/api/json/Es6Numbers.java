package io.loopx.api.json;

import tools.jackson.databind.JsonNode;

/** ES6 Number.prototype.toString formatting for RFC 8785 (package-private). */
final class Es6Numbers {
  private Es6Numbers() {}

  // TODO(issue 2): shortest round-trip (Ryu/Schubfach) ES6 formatting for non-integral doubles.
  static String format(JsonNode number) {
    if (number.isIntegralNumber() && number.canConvertToLong()) {
      return Long.toString(number.longValue());
    }
    throw new UnsupportedOperationException("non-integral numbers are not canonicalised yet");
  }
}
