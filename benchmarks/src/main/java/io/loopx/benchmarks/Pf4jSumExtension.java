package io.loopx.benchmarks;

import org.pf4j.Extension;
import tools.jackson.databind.node.ObjectNode;

/** The classpath PF4J extension of {@link DispatchBenchmark}'s peer (indexed at compile time). */
@Extension
public class Pf4jSumExtension implements Pf4jSumPoint {
  /** Creates the extension (PF4J instantiates it reflectively). */
  public Pf4jSumExtension() {}

  @Override
  public ObjectNode handle(ObjectNode request) {
    return SumProvider.sum(request);
  }
}
