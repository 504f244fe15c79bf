package io.loopx.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ResultsTableTest {

  private static String result(String benchmark, double score) {
    return "{\"benchmark\":\"io.loopx.benchmarks."
        + benchmark
        + "\",\"primaryMetric\":{\"score\":"
        + score
        + ",\"scoreError\":0.5,\"scoreUnit\":\"us/op\"}}";
  }

  private static String render(String... results) {
    return ResultsTable.render(
        JsonMapper.builder().build().readTree("[" + String.join(",", results) + "]"));
  }

  @Test
  void eachReferenceOfAClassGetsARowWithLoopxOverReference() {
    String table =
        render(
            result("ProcessRunnerBenchmark.baselineProcessBuilder", 4.0),
            result("ProcessRunnerBenchmark.baselineProcessBuilderSetsid", 5.0),
            result("ProcessRunnerBenchmark.loopxRunner", 5.5));

    assertThat(table.lines())
        .containsExactly(
            "| benchmark | LoopX | reference | reference score | ratio | target | met |",
            "|---|---|---|---|---|---|---|",
            "| ProcessRunnerBenchmark | 5.50 ± 0.50 us/op | baselineProcessBuilder"
                + " | 4.00 ± 0.50 us/op | 1.38 | ≤ 1.15 | **no** |",
            "| ProcessRunnerBenchmark | 5.50 ± 0.50 us/op | baselineProcessBuilderSetsid"
                + " | 5.00 ± 0.50 us/op | 1.10 | — | (info) |");
  }

  @Test
  void aTargetIsMetAtItsBoundUnlessItIsStrict() {
    assertThat(
            render(
                result("EnvelopeBenchmark.loopxBindAndVerify", 100.0),
                result("EnvelopeBenchmark.baselineSha256", 10.0)))
        .contains("| 10.00 | ≤ 10.00 | yes |");
    assertThat(
            render(
                result("BuiltinLookupBenchmark.loopxResolveAndCall", 2.0),
                result("BuiltinLookupBenchmark.peerPf4jLookupAndCall", 2.0)))
        .contains("| 1.00 | < 1.00 | **no** |");
  }

  @Test
  void aClassWithoutALoopxMethodIsLeftOut() {
    assertThat(render(result("Other.baselineX", 1.0)).lines()).hasSize(2);
  }
}
