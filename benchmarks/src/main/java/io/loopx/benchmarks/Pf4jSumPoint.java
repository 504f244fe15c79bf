package io.loopx.benchmarks;

import org.pf4j.ExtensionPoint;
import tools.jackson.databind.node.ObjectNode;

/** The PF4J extension point of {@link DispatchBenchmark}'s peer. */
public interface Pf4jSumPoint extends ExtensionPoint {
  /** Handles one request. */
  ObjectNode handle(ObjectNode request);
}
