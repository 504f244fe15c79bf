package io.loopx.benchmarks;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider logic shared by every side of {@link DispatchBenchmark}: answers {@code {"sum":
 * a+b}} for a request {@code {"a": int, "b": int, ...}}, ignoring other keys.
 */
final class SumProvider {
  private SumProvider() {}

  static ObjectNode sum(ObjectNode request) {
    ObjectNode response = JsonNodeFactory.instance.objectNode();
    response.put("sum", request.get("a").asInt() + request.get("b").asInt());
    return response;
  }
}
