package io.loopx.runtime.spi;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Starts one process with a fixed argv, environment and working directory, feeds it bounded stdin,
 * captures bounded stdout and stderr, and returns only when nothing of the process remains.
 *
 * <pre>{@code
 * Loopx loopx = Loopx.builder().runtimeRoot(root).processLauncher(mySandboxLauncher).build();
 * }</pre>
 *
 * <p>Implemented by LoopX ({@code OsProcessLauncher}), by the testkit (scripted processes) and by
 * hosts (for example one that starts providers in a sandbox), which must keep this contract: {@link
 * #launch} never throws for what goes wrong with the process itself (a process that cannot be
 * started is {@link LaunchOutcome#NOT_STARTED}); it blocks at most for the request's timeout plus a
 * bounded termination and drain time and is not interruptible (an interrupt is re-asserted when the
 * call returns); on return the process and every descendant it can reach are terminated and each
 * captured stream holds at most its limit plus one byte; it is immutable and thread-safe. Because
 * hosts implement it, this interface only grows through default methods.
 */
@FunctionalInterface
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface ProcessLauncher {

  /**
   * Runs {@code request} to completion and classifies what happened (see {@link LaunchOutcome}).
   *
   * @param request what to start and the bounds to apply
   * @return the outcome, the captured bytes and the wall-clock duration
   */
  LaunchResult launch(LaunchRequest request);

  /**
   * Returns how this launcher contains a provider's processes, as reported in receipts ({@code
   * containment}); empty (the default, and {@code null} in receipts) when the launcher does not
   * say.
   */
  default Optional<Containment> containment() {
    return Optional.empty();
  }

  /**
   * Returns whether this launcher applies {@link LaunchRequest#memoryLimit()} (and ends a run that
   * its enforcement killed as {@link LaunchOutcome#MEMORY_LIMIT}); receipts report the limit as
   * {@code memory_limit_bytes} only then. False by default.
   */
  default boolean limitsMemory() {
    return false;
  }
}
