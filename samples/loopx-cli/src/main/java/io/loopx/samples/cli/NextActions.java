package io.loopx.samples.cli;

import io.loopx.api.LoopxException;
import io.loopx.api.NextAction;

/** Renders a library failure's next action as this CLI's own command. */
final class NextActions {
  private NextActions() {}

  /** Returns the failure's message, its next action (if any) spelled as a {@code loopx} command. */
  static String message(LoopxException failure) {
    return failure
        .nextAction()
        .map(next -> failure.problem() + "; run `" + command(next) + "`")
        .orElse(failure.getMessage());
  }

  /** Returns the command that performs {@code next}. */
  static String command(NextAction next) {
    return switch (next.step()) {
      case RUN_DOCTOR_EXECUTE -> "loopx extension doctor " + next.extensionId() + " --execute";
    };
  }
}
