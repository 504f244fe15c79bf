package io.loopx.runtime.process;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Starts one process with a fixed argv, environment and working directory, feeds it bounded stdin,
 * captures bounded stdout and stderr, and returns only when nothing of the process remains.
 *
 * <p>Implemented by LoopX ({@code OsProcessLauncher} for operating-system processes) and by the
 * testkit (scripted processes). Hosts may supply their own implementation, for example one that
 * starts providers in a sandbox, as long as it keeps this contract:
 *
 * <ul>
 *   <li>{@link #launch} never throws for anything that goes wrong with the process itself: a
 *       process that cannot be started is the {@link LaunchOutcome#NOT_STARTED} result;
 *   <li>it blocks the calling thread at most for the request's timeout plus a bounded termination
 *       and drain time, and is not interruptible (an interrupt is remembered and re-asserted when
 *       the call returns);
 *   <li>when it returns, the process and every descendant it can reach are terminated, and each
 *       captured stream holds at most its limit plus one byte;
 *   <li>implementations are immutable and safe to call from many threads at once.
 * </ul>
 *
 * <p>Because hosts and the testkit implement it, this interface only grows through default methods.
 */
@FunctionalInterface
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
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
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  default boolean limitsMemory() {
    return false;
  }
}
