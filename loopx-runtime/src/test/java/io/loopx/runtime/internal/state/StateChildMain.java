package io.loopx.runtime.internal.state;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.StateFormat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The child JVM of the crash, concurrency and lock tests (started by {@link ChildJvm}). It talks
 * line by line: it prints progress and outcomes on stdout (flushed per line, so every line the
 * parent reads after a SIGKILL was printed before the kill) and reads commands on stdin. When stdin
 * reaches end of file (the parent closed it or died) the child halts, so no child outlives its
 * test.
 *
 * <p>Modes (first argument):
 *
 * <ul>
 *   <li>{@code pause <state> <STEP> <prefix> <index>}: makes write {@code index} of {@link
 *       StateWorkload} and, right after durability step {@code STEP}, prints {@code PAUSED STEP}
 *       and blocks until killed.
 *   <li>{@code loop <state> <prefix> <max>}: prints {@code READY}, then makes writes {@code
 *       0..max-1}: plans write {@code i} from the state it reads, prints {@code BEGIN i} and calls
 *       {@code update}, printing {@code STEP <step>} after each durability step and {@code DONE i}
 *       after it; then {@code END}.
 *   <li>{@code writer <state> <writer> <installs> <shared> <seed> <lockMillis> <attempts>}: prints
 *       {@code READY}, waits for {@code GO}, then installs {@code w<writer>-<i>} (retrying a failed
 *       install up to {@code attempts} times, some attempts also toggling a shared id in the same
 *       update) and toggles a shared id after each install; prints one outcome line per update
 *       ({@code OK ...}, {@code FAIL <op> <id> <error kind>}) and {@code END}.
 *   <li>{@code hold <state> [millis]}: takes the state lock (waiting at most {@code millis},
 *       default 5000), prints {@code HELD}, waits for {@code RELEASE}, releases it and prints
 *       {@code RELEASED}; prints {@code FAIL <error kind>} when the lock is not acquired.
 * </ul>
 *
 * <p>Modes other than {@code writer} end only on {@code EXIT}, end of stdin, or a kill.
 */
final class StateChildMain {
  private static final BlockingQueue<String> COMMANDS = new LinkedBlockingQueue<>();

  private StateChildMain() {}

  public static void main(String[] args) throws Exception {
    watchStdin();
    try {
      Path state = Path.of(args[1]);
      switch (args[0]) {
        case "pause" ->
            pause(state, WriteStep.valueOf(args[2]), args[3], Integer.parseInt(args[4]));
        case "loop" -> loop(state, args[2], Integer.parseInt(args[3]));
        case "writer" ->
            writer(
                state,
                Integer.parseInt(args[2]),
                Integer.parseInt(args[3]),
                Integer.parseInt(args[4]),
                Long.parseLong(args[5]),
                Duration.ofMillis(Long.parseLong(args[6])),
                Integer.parseInt(args[7]));
        case "hold" ->
            hold(state, Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2]) : 5000));
        default -> throw new IllegalArgumentException("unknown mode " + args[0]);
      }
    } catch (RuntimeException e) {
      say("ERROR " + e);
      e.printStackTrace();
      System.exit(2);
    }
  }

  /** Reads stdin into {@link #COMMANDS}; halts the JVM at end of file. */
  private static void watchStdin() {
    Thread watcher =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  COMMANDS.add(line);
                }
              } catch (IOException e) {
                // treated as end of file
              } finally {
                Runtime.getRuntime().halt(3);
              }
            },
            "stdin-watchdog");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }

  private static void awaitCommand(String expected) throws InterruptedException {
    while (!COMMANDS.take().equals(expected)) {
      // ignore anything else
    }
  }

  private static void pause(Path state, WriteStep at, String prefix, int index) {
    FileActivationStore store =
        FileActivationStore.at(state)
            .withObserver(
                step -> {
                  if (step == at) {
                    say("PAUSED " + step);
                    blockForever();
                  }
                });
    store.update("crash", StateWorkload.next(store.read(), prefix, index));
    say("DONE " + index); // only reached when the step never fired: the parent fails on it
  }

  private static void blockForever() {
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while paused", e);
    }
  }

  private static void loop(Path state, String prefix, int max) throws InterruptedException {
    FileActivationStore store =
        FileActivationStore.at(state).withObserver(step -> say("STEP " + step));
    // Warm up the codec and hashing so that kills land in writes rather than in class loading.
    StateFormat.decode(StateFormat.encode(StateWorkload.step(store.read(), prefix, max)));
    say("READY");
    for (int i = 0; i < max; i++) {
      List<EntryChange> changes = StateWorkload.next(store.read(), prefix, i);
      say("BEGIN " + i); // the write starts: lock, re-read, compare, encode, temp file
      store.update("crash", changes);
      say("DONE " + i);
    }
    say("END");
    awaitCommand("EXIT");
  }

  private static void writer(
      Path state,
      int writer,
      int installs,
      int sharedCount,
      long seed,
      Duration lockTimeout,
      int maxAttempts)
      throws InterruptedException {
    FileActivationStore store = FileActivationStore.at(state).withLockTimeout(lockTimeout);
    Random random = new Random(seed);
    store.read(); // warm up
    say("READY");
    awaitCommand("GO");
    for (int i = 0; i < installs; i++) {
      String id = "w" + writer + "-" + i;
      if (!installWithRetries(store, random, id, i, sharedCount, maxAttempts)) {
        say("GAVEUP install " + id);
        System.exit(4);
      }
      toggleShared(store, sharedId(random, sharedCount));
    }
    say("END");
  }

  private static boolean installWithRetries(
      FileActivationStore store,
      Random random,
      String id,
      int n,
      int sharedCount,
      int maxAttempts) {
    for (int attempt = 0; attempt < maxAttempts; attempt++) {
      ActivationState seen = store.read();
      ExtensionId extensionId = ExtensionId.of(id);
      if (seen.get(extensionId).isPresent()) {
        say("ALREADY install " + id); // a failed attempt must not have written: the parent fails
        return true;
      }
      List<EntryChange> changes = new ArrayList<>();
      changes.add(
          new EntryChange(
              extensionId, Optional.empty(), Optional.of(StateWorkload.installed(id, n))));
      String suffix = "";
      if (random.nextBoolean()) {
        ExtensionRecord shared = seen.get(sharedId(random, sharedCount)).orElseThrow();
        changes.add(StateWorkload.toggle(shared));
        suffix = " toggle " + shared.id() + " " + !shared.enabled();
      }
      try {
        store.update("install", changes);
        say("OK install " + id + suffix);
        return true;
      } catch (LoopxException e) {
        say("FAIL install " + id + " " + e.kind().wireName());
      }
    }
    return false;
  }

  private static void toggleShared(FileActivationStore store, ExtensionId id) {
    ExtensionRecord seen = store.read().get(id).orElseThrow();
    try {
      store.update(seen.enabled() ? "disable" : "enable", List.of(StateWorkload.toggle(seen)));
      say("OK toggle " + id + " " + !seen.enabled());
    } catch (LoopxException e) {
      say("FAIL toggle " + id + " " + e.kind().wireName());
    }
  }

  private static ExtensionId sharedId(Random random, int sharedCount) {
    return ExtensionId.of("shared-" + random.nextInt(sharedCount));
  }

  private static void hold(Path state, Duration timeout) throws InterruptedException {
    FileActivationStore store = FileActivationStore.at(state);
    try (StateLock lock = StateLock.acquire(store.lockFile(), timeout)) {
      say("HELD");
      awaitCommand("RELEASE");
    } catch (LoopxException e) {
      say("FAIL " + e.kind().wireName());
      awaitCommand("EXIT");
      return;
    }
    say("RELEASED");
    awaitCommand("EXIT");
  }
}
