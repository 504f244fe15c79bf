package io.loopx.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.StateFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of {@link FileActivationStore}: child JVMs are SIGKILLed in the middle of a state
 * write, and after every kill the state file parses, equals the state before or after the
 * interrupted write, and the next write succeeds (the dead child's OS lock is gone, its leftover
 * temp file is removed).
 *
 * <p>Kills at a step are made to land: the child pauses right after the durability step ({@code
 * PAUSED <STEP>}) and is killed there, so the expected state is exact (before the write for the two
 * temp steps, after it for the rename and directory fsync). Random kills land after a seeded random
 * number of progress lines plus a seeded random delay (the seed is printed); where a kill landed is
 * read from the last line the child printed before it died.
 *
 * <p>Counts: {@code -Dloopx.reliability.crashKillsPerStep} (default 10), {@code
 * -Dloopx.reliability.randomKills} (default 50), {@code -Dloopx.reliability.seed}, {@code
 * -Dloopx.reliability.parallelism} (child JVMs at a time, default 2), {@code
 * -Dloopx.reliability.cds=false} (children without the class-data archive, see {@link ChildJvm}).
 * The soak run is the profile {@code reliability} ({@code mvn -B verify -pl loopx-runtime -am
 * -Preliability}; counts in the parent POM, figures in {@code docs/RELIABILITY.md}).
 *
 * <p>The summary is printed and written to {@code target/reliability/state-crash.txt}. What this
 * cannot show: that fsync reaches the platter, which needs power-loss testing, not process kills.
 */
class StateCrashTest {
  private static final List<String> SUMMARY = Collections.synchronizedList(new ArrayList<>());
  private static final int LINES_PER_WRITE = 6; // BEGIN, four STEP lines, DONE
  private static final int WRITES_PER_CHILD = 1000;
  // A phase of a write takes about a millisecond: the delay spreads kills over the phase that
  // follows the chosen progress line.
  private static final int MAX_DELAY_NANOS = 1_000_000;

  /** Where a random kill landed, by the last line the child printed. */
  enum Landing {
    BEFORE_FIRST_WRITE,
    IN_WRITE_BEFORE_TEMP_WRITTEN,
    AFTER_TEMP_WRITTEN,
    AFTER_TEMP_FSYNCED,
    AFTER_RENAMED,
    AFTER_DIRECTORY_FSYNCED,
    BETWEEN_WRITES
  }

  @AfterAll
  static void writeSummary() {
    if (!SUMMARY.isEmpty()) {
      Reliability.report("state-crash.txt", List.copyOf(SUMMARY));
    }
  }

  @Test
  void killAtEachDurabilityStepLeavesTheStateBeforeOrAfterTheWrite(@TempDir Path tmp)
      throws InterruptedException {
    int perStep = Reliability.count("crashKillsPerStep", 10);
    long started = System.nanoTime();
    List<Callable<Integer>> chains = new ArrayList<>();
    for (WriteStep step : WriteStep.values()) {
      chains.add(
          () -> killAtStep(tmp.resolve(step.name().toLowerCase(Locale.ROOT)), step, perStep));
    }
    List<Integer> kills = Reliability.runAll(chains);

    Map<WriteStep, Integer> perStepKills = new EnumMap<>(WriteStep.class);
    for (WriteStep step : WriteStep.values()) {
      perStepKills.put(step, kills.get(step.ordinal()));
    }
    SUMMARY.add(
        String.format(
            Locale.ROOT,
            "state-crash: kills per step %s (total %d); wall %.1f s",
            perStepKills,
            kills.stream().mapToInt(Integer::intValue).sum(),
            (System.nanoTime() - started) / 1e9));
    assertThat(perStepKills.values()).allMatch(n -> n == perStep);
  }

  /** Kills {@code count} children paused right after {@code step}; returns the kills made. */
  private static int killAtStep(Path dir, WriteStep step, int count) throws IOException {
    FileActivationStore store = seededStore(dir);
    boolean renamed = step == WriteStep.RENAMED || step == WriteStep.DIRECTORY_FSYNCED;
    int kills = 0;
    for (int k = 0; k < count; k++) {
      ActivationState before = store.read();
      ActivationState after = StateWorkload.step(before, "c", k);
      assertThat(after).isNotEqualTo(before);
      try (ChildJvm child =
          ChildJvm.start(
              dir, "pause", store.stateFile().toString(), step.name(), "c", Integer.toString(k))) {
        assertThat(child.nextLine()).as(child::diagnostics).isEqualTo("PAUSED " + step);
        // The paused child still holds the state lock.
        assertThatThrownBy(() -> StateLock.acquire(store.lockFile(), Duration.ZERO).close())
            .isInstanceOfSatisfying(
                LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_LOCKED));
        List<Path> temps = temps(store);
        if (renamed) {
          assertThat(temps).as("temp files after %s", step).isEmpty();
        } else {
          // The kill lands with the complete new state in a temp file beside the old state.
          assertThat(temps).as("temp files after %s", step).hasSize(1);
          assertThat(StateFormat.decode(Files.readAllBytes(temps.get(0)))).isEqualTo(after);
        }
        child.kill();
        kills++;
      }
      ActivationState survived = store.read();
      assertThat(survived)
          .as("state after a kill at %s during write %d", step, k)
          .isEqualTo(renamed ? after : before);
      assertNextWriteSucceeds(store, survived, k);
    }
    return kills;
  }

  @Test
  void randomKillsLeaveTheStateBeforeOrAfterTheInterruptedWrite(@TempDir Path tmp)
      throws InterruptedException {
    int total = Reliability.count("randomKills", 50);
    long seed = Reliability.seed();
    System.out.println("state-crash: random kills seed " + seed);
    int chainCount = Math.min(Reliability.parallelism(), Math.max(1, total));
    long started = System.nanoTime();
    List<Callable<Map<Landing, Integer>>> chains = new ArrayList<>();
    for (int c = 0; c < chainCount; c++) {
      int kills = total / chainCount + (c < total % chainCount ? 1 : 0);
      long chainSeed = seed * 31 + c;
      Path dir = tmp.resolve("chain-" + c);
      chains.add(() -> randomKills(dir, chainSeed, kills));
    }
    Map<Landing, Integer> landed = new EnumMap<>(Landing.class);
    for (Landing l : Landing.values()) {
      landed.put(l, 0);
    }
    for (Map<Landing, Integer> chain : Reliability.runAll(chains)) {
      chain.forEach((l, n) -> landed.merge(l, n, Integer::sum));
    }
    int made = landed.values().stream().mapToInt(Integer::intValue).sum();
    SUMMARY.add(
        String.format(
            Locale.ROOT,
            "state-crash: random kills %d (seed %d) landed %s; wall %.1f s",
            made,
            seed,
            landed,
            (System.nanoTime() - started) / 1e9));
    assertThat(made).isEqualTo(total);
  }

  /** Makes {@code count} random kills in one state directory; returns where they landed. */
  private static Map<Landing, Integer> randomKills(Path dir, long seed, int count)
      throws IOException {
    FileActivationStore store = seededStore(dir);
    Random random = new Random(seed);
    Map<Landing, Integer> landed = new EnumMap<>(Landing.class);
    for (int k = 0; k < count; k++) {
      ActivationState initial = store.read();
      String prefix = "r" + k;
      int skipLines = random.nextInt(3 * LINES_PER_WRITE + 1);
      long delayNanos = random.nextInt(MAX_DELAY_NANOS);
      List<String> lines;
      try (ChildJvm child =
          ChildJvm.start(
              dir,
              "loop",
              store.stateFile().toString(),
              prefix,
              Integer.toString(WRITES_PER_CHILD))) {
        child.await("READY");
        for (int i = 0; i < skipLines; i++) {
          child.nextLine();
        }
        // The bounded random delay is the point here: it decides where the kill lands.
        LockSupport.parkNanos(delayNanos);
        child.kill();
        child.drain();
        lines = child.seen();
      }
      String context =
          String.format(
              Locale.ROOT,
              "seed %d, kill %d (skip %d lines, delay %d ns), last lines %s",
              seed,
              k,
              skipLines,
              delayNanos,
              lines.subList(Math.max(0, lines.size() - 4), lines.size()));
      String last = lines.get(lines.size() - 1);
      int begun = (int) lines.stream().filter(l -> l.startsWith("BEGIN ")).count();
      List<ActivationState> states = new ArrayList<>(List.of(initial));
      for (int i = 0; i < begun; i++) {
        states.add(StateWorkload.step(states.get(i), prefix, i));
      }
      ActivationState before = states.get(Math.max(0, begun - 1));
      ActivationState after = states.get(begun);
      Landing landing = landing(last, context);
      Set<ActivationState> allowed =
          switch (landing) {
            case BEFORE_FIRST_WRITE -> Set.of(initial);
            case IN_WRITE_BEFORE_TEMP_WRITTEN, AFTER_TEMP_WRITTEN -> Set.of(before);
            // the rename may have happened before the child could print RENAMED
            case AFTER_TEMP_FSYNCED -> Set.of(before, after);
            case AFTER_RENAMED, AFTER_DIRECTORY_FSYNCED, BETWEEN_WRITES -> Set.of(after);
          };
      ActivationState survived = store.read();
      assertThat(allowed).as(context).contains(survived);
      assertNextWriteSucceeds(store, survived, k);
      landed.merge(landing, 1, Integer::sum);
    }
    return landed;
  }

  private static Landing landing(String last, String context) {
    if (last.equals("READY")) {
      return Landing.BEFORE_FIRST_WRITE;
    }
    if (last.startsWith("BEGIN ")) {
      return Landing.IN_WRITE_BEFORE_TEMP_WRITTEN;
    }
    if (last.startsWith("DONE ") || last.equals("END")) {
      return Landing.BETWEEN_WRITES;
    }
    if (last.startsWith("STEP ")) {
      return Landing.valueOf("AFTER_" + WriteStep.valueOf(last.substring(5)).name());
    }
    throw new AssertionError("unexpected child line `" + last + "`; " + context);
  }

  /** The next write after a kill takes the lock, succeeds, and removes leftover temp files. */
  private static void assertNextWriteSucceeds(
      FileActivationStore store, ActivationState survived, int k) {
    ActivationState written = store.update("recover", StateWorkload.next(survived, "p", k));
    assertThat(written).isEqualTo(StateWorkload.step(survived, "p", k));
    assertThat(store.read()).isEqualTo(written);
    assertThat(temps(store)).isEmpty();
  }

  private static FileActivationStore seededStore(Path dir) {
    FileActivationStore store = FileActivationStore.at(dir.resolve("extensions/state.json"));
    store.update(
        "seed", List.of(StateWorkload.install("base-a", 1), StateWorkload.install("base-b", 2)));
    return store;
  }

  private static List<Path> temps(FileActivationStore store) {
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(store.stateFile().getParent(), ".state.json.tmp.*")) {
      List<Path> temps = new ArrayList<>();
      entries.forEach(temps::add);
      return temps;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
