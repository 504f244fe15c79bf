package io.loopx.samples.cli;

import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.run.RunStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The warm-worker part of {@code loopx demo}: the same recall, {@value #RECALLS} times through an
 * embedded {@link Loopx} that runs the provider one-shot (a closed facade) and {@value #RECALLS}
 * times through one that keeps a warm worker (docs/contract/worker.md), timed per call on the
 * calling thread; then the second facade is closed and the provider processes it left behind are
 * counted (live descendants of this JVM that were not there before).
 *
 * @param oneShotMillis the wall time of each one-shot recall
 * @param workerMillis the wall time of each recall through the worker; the first starts it
 * @param workerAnswered how many of the worker recalls a worker answered (no exit code)
 * @param failures why recalls did not succeed, if any did not
 * @param processesLeft provider processes alive after {@code close()}
 */
record WarmRecalls(
    List<Double> oneShotMillis,
    List<Double> workerMillis,
    int workerAnswered,
    List<String> failures,
    int processesLeft) {
  /** How many recalls each path makes. */
  static final int RECALLS = 5;

  /** Copies the lists. */
  WarmRecalls {
    oneShotMillis = List.copyOf(oneShotMillis);
    workerMillis = List.copyOf(workerMillis);
    failures = List.copyOf(failures);
  }

  /**
   * Recalls with {@code request} through the provider installed under {@code runtimeRoot}, one-shot
   * then through a warm worker.
   */
  static WarmRecalls measure(CliEnvironment environment, Path runtimeRoot, byte[] request) {
    Set<Long> before = liveDescendants();
    DispatchRequest.Builder dispatch = SemanticPreferenceRecallCommand.request(Optional.empty());
    List<String> failures = new ArrayList<>();
    List<Double> oneShot = new ArrayList<>();
    Loopx closed = CliSession.builder(environment).runtimeRoot(runtimeRoot).build();
    closed.close(); // closed before its first call: every provider runs one-shot
    recall(closed, dispatch, request, "one-shot", oneShot, failures);
    List<Double> worker = new ArrayList<>();
    int answered;
    try (Loopx warm = CliSession.builder(environment).runtimeRoot(runtimeRoot).build()) {
      answered = recall(warm, dispatch, request, "worker", worker, failures);
    }
    Set<Long> after = liveDescendants();
    after.removeAll(before);
    return new WarmRecalls(oneShot, worker, answered, failures, after.size());
  }

  /** Makes the recalls; returns how many a worker answered. */
  private static int recall(
      Loopx loopx,
      DispatchRequest.Builder dispatch,
      byte[] request,
      String path,
      List<Double> millis,
      List<String> failures) {
    int answeredByWorker = 0;
    for (int i = 0; i < RECALLS; i++) {
      long start = System.nanoTime();
      try {
        DispatchReceipt r = loopx.dispatch(dispatch.input(request).build(), Mode.EXECUTE);
        millis.add(Math.round((System.nanoTime() - start) / 100_000.0) / 10.0);
        if (r.outcome().status() != RunStatus.SUCCEEDED) {
          failures.add(path + " recall " + (i + 1) + ": " + r.outcome().status().wireName());
        } else if (r.outcome().exitCode().isEmpty()) {
          answeredByWorker++;
        }
      } catch (LoopxException e) {
        millis.add(Math.round((System.nanoTime() - start) / 100_000.0) / 10.0);
        failures.add(path + " recall " + (i + 1) + ": [" + e.kind().wireName() + "] " + e);
      }
    }
    return answeredByWorker;
  }

  private static Set<Long> liveDescendants() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }

  /** Whether every recall succeeded and no provider process is left. */
  boolean ok() {
    return failures.isEmpty() && processesLeft == 0;
  }

  /** The median of {@code values} (the upper one of an even count). */
  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
  }

  /**
   * {@code {recalls, one_shot_ms, worker_ms, worker_answered, failures, processes_left}}; {@code
   * worker_ms[0]} includes the worker's start.
   */
  ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("recalls", RECALLS);
    ArrayNode a = json.putArray("one_shot_ms");
    oneShotMillis.forEach(a::add);
    ArrayNode b = json.putArray("worker_ms");
    workerMillis.forEach(b::add);
    json.put("worker_answered", workerAnswered);
    ArrayNode f = json.putArray("failures");
    failures.forEach(f::add);
    json.put("processes_left", processesLeft);
    return json;
  }

  /** The lines the text format shows. */
  String text(Style style) {
    StringBuilder text = new StringBuilder();
    text.append(style.bold("Warm workers: the same recall one-shot and through a warm worker"))
        .append('\n')
        .append("(an embedded Loopx, not the CLI: each CLI command is its own process and runs")
        .append(" one-shot)\n");
    text.append("  one-shot (a process per call): ").append(list(oneShotMillis)).append(" ms\n");
    text.append("  warm worker (the first call starts it): ")
        .append(list(workerMillis))
        .append(" ms\n");
    if (workerMillis.size() > 1 && !oneShotMillis.isEmpty()) {
      double warm = median(workerMillis.subList(1, workerMillis.size()));
      double cold = median(oneShotMillis);
      text.append("  median one-shot ")
          .append(cold)
          .append(" ms, median warm call ")
          .append(warm)
          .append(" ms");
      if (warm > 0) {
        text.append(" (").append(Math.round(cold / warm)).append("x)");
      }
      text.append('\n');
    }
    text.append("  answered by a worker: ")
        .append(workerAnswered)
        .append(" of ")
        .append(workerMillis.size())
        .append("; provider processes left after close(): ")
        .append(processesLeft)
        .append('\n');
    for (String failure : failures) {
      text.append("  ").append(style.error("failed")).append(": ");
      text.append(SafeText.escaped(failure)).append('\n');
    }
    return text.toString();
  }

  private static String list(List<Double> values) {
    return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }
}
