package io.loopx.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs write one state file at once and nothing is lost silently: every child reports each
 * update's outcome line by line, and the parent checks that every reported install is in the final
 * state with the exact record written, that nothing else is there, that each shared entry's enabled
 * bit equals its initial value flipped once per reported successful toggle, and that every failure
 * is {@code state_locked} or {@code state_conflict}.
 *
 * <p>Each child installs its own ids (retrying a failed install, bounded), half of the attempts
 * also flipping a shared id in the same update, and flips a shared id between installs — each
 * change built from the state the child read, so concurrent flips of the same id conflict. Odd
 * writers wait only {@value #SHORT_LOCK_MILLIS} ms for the lock (so {@code state_locked} occurs),
 * even writers the default 5 s.
 *
 * <p>Counts: {@code -Dloopx.reliability.writers} (default 4), {@code
 * -Dloopx.reliability.installsPerWriter} (default 25), {@code -Dloopx.reliability.seed}. Soak run:
 * see {@link StateCrashTest}. The summary is printed and written to {@code
 * target/reliability/state-concurrency.txt}.
 */
class StateConcurrencyTest {
  private static final int SHARED = 2;
  private static final long SHORT_LOCK_MILLIS = 40;
  private static final int MAX_ATTEMPTS = 1000;

  @Test
  void concurrentWritersLoseNothingAndFailOnlyLockedOrConflict(@TempDir Path tmp) {
    int writers = Reliability.count("writers", 4);
    int installs = Reliability.count("installsPerWriter", 25);
    long seed = Reliability.seed();
    System.out.println("state-concurrency: seed " + seed);
    FileActivationStore store = FileActivationStore.at(tmp.resolve("extensions/state.json"));
    List<EntryChange> sharedInstalls = new ArrayList<>();
    for (int s = 0; s < SHARED; s++) {
      sharedInstalls.add(StateWorkload.install("shared-" + s, s));
    }
    ActivationState initial = store.update("install", sharedInstalls);

    long go;
    List<ChildJvm> children = new ArrayList<>();
    Map<Integer, List<String>> outputs = new TreeMap<>();
    try {
      for (int w = 0; w < writers; w++) {
        long lockMillis = w % 2 == 1 ? SHORT_LOCK_MILLIS : 5000;
        children.add(
            ChildJvm.start(
                tmp,
                "writer",
                store.stateFile().toString(),
                Integer.toString(w),
                Integer.toString(installs),
                Integer.toString(SHARED),
                Long.toString(seed + w),
                Long.toString(lockMillis),
                Integer.toString(MAX_ATTEMPTS)));
      }
      children.forEach(c -> c.await("READY"));
      go = System.nanoTime();
      children.forEach(c -> c.send("GO"));
      for (int w = 0; w < writers; w++) {
        ChildJvm child = children.get(w);
        child.drain();
        assertThat(child.awaitExit()).as(child::diagnostics).isZero();
        outputs.put(w, child.seen());
      }
    } finally {
      children.forEach(ChildJvm::close);
    }
    double seconds = (System.nanoTime() - go) / 1e9;

    Tally tally = new Tally();
    outputs.forEach((w, lines) -> lines.forEach(line -> tally.add(w, line)));
    ActivationState last = store.read(); // the final file parses

    assertThat(tally.unexpected).as("unexpected child lines").isEmpty();
    assertThat(tally.ended).as("children that printed END").isEqualTo(writers);
    assertThat(tally.failureKinds.keySet()).isSubsetOf("state_locked", "state_conflict");
    assertThat(tally.installed).hasSize(writers * installs).doesNotHaveDuplicates();
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < installs; i++) {
        String id = "w" + w + "-" + i;
        assertThat(tally.installed).contains(id);
        assertThat(last.get(ExtensionId.of(id)))
            .as("reported install %s", id)
            .contains(StateWorkload.installed(id, i));
      }
    }
    assertThat(last.extensions()).hasSize(writers * installs + SHARED);
    for (ExtensionId shared : initial.extensions().keySet()) {
      int flips = tally.flips.getOrDefault(shared.value(), 0);
      assertThat(last.get(shared).orElseThrow().enabled())
          .as("enabled bit of %s after %d reported flips", shared, flips)
          .isEqualTo(initial.get(shared).orElseThrow().enabled() ^ (flips % 2 == 1));
    }

    Reliability.report(
        "state-concurrency.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "state-concurrency: %d writers x %d installs = %d installs present (seed %d);"
                    + " install failures %s (retried); shared flips ok %d, failed %s; wall %.1f s",
                writers,
                installs,
                tally.installed.size(),
                seed,
                tally.installFailures,
                tally.flips.values().stream().mapToInt(Integer::intValue).sum(),
                tally.toggleFailures,
                seconds)));
  }

  /** The parent's reading of the children's outcome lines. */
  private static final class Tally {
    final List<String> installed = new ArrayList<>();
    final Map<String, Integer> flips = new HashMap<>();
    final Map<String, Integer> failureKinds = new TreeMap<>();
    final Map<String, Integer> installFailures = new TreeMap<>();
    final Map<String, Integer> toggleFailures = new TreeMap<>();
    final List<String> unexpected = new ArrayList<>();
    final Set<Integer> endedWriters = new HashSet<>();
    int ended;

    void add(int writer, String line) {
      String[] f = line.split(" ");
      if (f.length == 3 && f[0].equals("OK") && f[1].equals("install")) {
        installed.add(f[2]);
      } else if (f.length == 6 && f[0].equals("OK") && f[1].equals("install")) {
        installed.add(f[2]);
        flips.merge(f[4], 1, Integer::sum);
      } else if (f.length == 4 && f[0].equals("OK") && f[1].equals("toggle")) {
        flips.merge(f[2], 1, Integer::sum);
      } else if (f.length == 4 && f[0].equals("FAIL")) {
        failureKinds.merge(f[3], 1, Integer::sum);
        (f[1].equals("install") ? installFailures : toggleFailures).merge(f[3], 1, Integer::sum);
      } else if (line.equals("READY")) {
        return;
      } else if (line.equals("END") && endedWriters.add(writer)) {
        ended++;
      } else {
        unexpected.add("writer " + writer + ": " + line);
      }
    }
  }
}
