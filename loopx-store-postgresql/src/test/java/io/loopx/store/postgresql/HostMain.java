package io.loopx.store.postgresql;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host of a fleet in its own JVM ({@link HostJvm} starts it): a {@link PostgresActivationStore}
 * over {@code args[0]} (a JDBC URL) whose change listener (poll interval {@code args[1]} ms) prints
 * {@code changed <generation> <nanoTime>} for every generation it is told of. It prints {@code
 * ready} once it listens, then runs one command per stdin line:
 *
 * <ul>
 *   <li>{@code op ID...}: one counting operation on the entries {@code ID...} in one update ({@link
 *       #count}); prints {@code ok <counter> <nanoTime after the commit> <generation>} or {@code
 *       failed <error kind>};
 *   <li>{@code loop ID...}: the same operation again and again on a thread, one line each, pausing
 *       20 ms after a failure (so a stopped server is not hammered) until {@code stop}, which
 *       prints {@code stopped} after the last operation's line;
 *   <li>{@code dispatch TAG}: one {@code demo-recall} dispatch through this host's {@link Loopx}
 *       (made on first use over the same store; providers see only {@code PATH=/usr/bin:/bin}), the
 *       request {@code {"tag":"TAG"}}; prints {@code served <pid> <revision>} from the provider's
 *       answer (the fleet tests' worker answers with its pid and revision), {@code unserved
 *       <receipt>} for a receipt that is not ok, or {@code failed <error kind> ...};
 *   <li>{@code quit}: closes the {@code Loopx} (its workers end) and the store, and exits.
 * </ul>
 *
 * {@code System.nanoTime()} is {@code CLOCK_MONOTONIC} on Linux, one clock for every process of the
 * machine, so the parent compares the times of different hosts.
 */
public final class HostMain {
  private HostMain() {}

  /** Runs the host; see the class comment. */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(args[0]);
    ds.setConnectTimeout(10);
    PostgresActivationStore store =
        PostgresActivationStore.builder(ds)
            .pollInterval(Duration.ofMillis(Long.parseLong(args[1])))
            .onChange(g -> out.println("changed " + g + " " + System.nanoTime()))
            .build();
    if (!store.awaitListening(Duration.ofSeconds(60))) {
      out.println("error not listening");
      return;
    }
    out.println("ready");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    AtomicBoolean looping = new AtomicBoolean();
    Thread loop = null;
    Loopx loopx = null;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split(" ");
      List<ExtensionId> ids = new ArrayList<>();
      for (int i = 1; i < words.length && !words[0].equals("dispatch"); i++) {
        ids.add(ExtensionId.of(words[i]));
      }
      switch (words[0]) {
        case "op" -> out.println(op(store, ids));
        case "loop" -> {
          looping.set(true);
          loop =
              new Thread(
                  () -> {
                    while (looping.get()) {
                      String result = op(store, ids);
                      out.println(result);
                      if (!result.startsWith("ok ")) {
                        pause();
                      }
                    }
                  });
          loop.start();
        }
        case "stop" -> {
          looping.set(false);
          if (loop != null) {
            loop.join();
          }
          out.println("stopped");
        }
        case "dispatch" -> {
          if (loopx == null) {
            loopx = loopx(store);
          }
          out.println(dispatch(loopx, words.length > 1 ? words[1] : "host"));
        }
        case "quit" -> {
          if (loopx != null) {
            loopx.close();
          }
          store.close();
          return;
        }
        default -> out.println("error unknown command " + line);
      }
    }
  }

  /** A host over {@code store} whose catalog has {@code demo-recall}. */
  static Loopx loopx(ActivationStore store) {
    return Loopx.builder()
        .activationStore(store)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .domainPolicy(DomainPolicy.allowAll())
        .builtin(new FleetLifecycleTest.Contract())
        .build();
  }

  private static String dispatch(Loopx loopx, String tag) {
    try {
      DispatchReceipt receipt =
          loopx.dispatch(
              FleetLifecycleTest.request()
                  .input(("{\"tag\":\"" + tag + "\"}").getBytes(StandardCharsets.UTF_8))
                  .build(),
              Mode.EXECUTE);
      @Nullable ObjectNode result = receipt.outcome().providerResult().orElse(null);
      if (!receipt.ok() || result == null) {
        return "unserved " + receipt.toJson();
      }
      return "served " + result.get("pid").longValue() + " " + result.get("revision").stringValue();
    } catch (LoopxException e) {
      return "failed " + e.kind().wireName() + " " + e.getMessage().replace('\n', ' ');
    } catch (RuntimeException e) {
      return "error " + e;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(20); // retry pacing after a failure, not a synchronisation
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String op(PostgresActivationStore store, List<ExtensionId> ids) {
    try {
      ActivationState state = store.update("count", count(store.read(), ids));
      long committed = System.nanoTime();
      return "ok "
          + counter(state.installed(ids.get(0)))
          + " "
          + committed
          + " "
          + generation(store);
    } catch (LoopxException e) {
      return "failed " + e.kind().wireName() + " " + e.getMessage().replace('\n', ' ');
    } catch (RuntimeException e) {
      return "error " + e;
    }
  }

  private static long generation(PostgresActivationStore store) {
    try {
      return store.generation();
    } catch (LoopxException e) {
      return -1; // the commit returned; a failure right after it is not the operation's
    }
  }

  /**
   * The counting operation: each entry absent is installed with counter 1 (version {@code 1.0.0});
   * each present one is upgraded to the next major version (its counter) and its enabled bit flips.
   * So an entry's counter is the number of committed operations on it: a lost update shows as a
   * counter below the operations reported as committed.
   */
  static List<EntryChange> count(ActivationState state, List<ExtensionId> ids) {
    List<EntryChange> changes = new ArrayList<>();
    for (ExtensionId id : ids) {
      Optional<ExtensionRecord> now = state.get(id);
      ExtensionRecord next;
      if (now.isEmpty()) {
        next = Records.installed(id.value());
      } else {
        ExtensionRecord r = now.get();
        int n = counter(r) + 1;
        next =
            ExtensionRecords.withEnabled(
                ExtensionRecords.upgradedTo(
                    r, Records.snapshot(id.value(), n + ".0.0"), Optional.of(Records.identity(n))),
                !r.enabled());
      }
      changes.add(new EntryChange(id, now, Optional.of(next)));
    }
    return changes;
  }

  /** Returns the counter of an entry: the major version of its active revision. */
  static int counter(ExtensionRecord r) {
    String version = r.active().version();
    return Integer.parseInt(version.substring(0, version.indexOf('.')));
  }
}
