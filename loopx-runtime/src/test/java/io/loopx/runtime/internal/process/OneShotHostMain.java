package io.loopx.runtime.internal.process;

import io.loopx.runtime.spi.LaunchResult;
import java.time.Duration;
import java.util.List;

/**
 * A host JVM for {@link OneShotHostDeathTest}. {@code run SCRIPT ARG...}: runs one provider call of
 * {@code SCRIPT} (timeout 10 minutes) and waits to be killed; {@code start}: chooses its
 * containment (which sweeps the cgroups of dead hosts), prints {@code STARTED} and exits.
 */
public final class OneShotHostMain {
  private OneShotHostMain() {}

  /**
   * Runs the host.
   *
   * @param args {@code run SCRIPT ARG...} or {@code start}
   */
  public static void main(String[] args) {
    OsProcessLauncher launcher = OsProcessLauncher.create();
    if (args[0].equals("start")) {
      System.out.println("STARTED " + launcher.containment().orElseThrow().wireName());
      return;
    }
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(args).subList(1, args.length))
                .environment(ProcessFixtures.ENV)
                .timeout(Duration.ofMinutes(10))
                .build());
    System.out.println("ENDED " + result);
  }
}
