package io.loopx.registry;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;

/** Builders of the registry's typed failures (package-private). */
final class Conflicts {
  private Conflicts() {}

  /** A {@code CATALOG_CONFLICT}: {@code <what>: claimed by <first> and by <second>}. */
  static LoopxException conflict(String what, String first, String second) {
    return new LoopxException(
        ErrorKind.CATALOG_CONFLICT, what + ": claimed by " + first + " and by " + second);
  }

  /** A {@code CATALOG_CONFLICT} with a free-form message. */
  static LoopxException conflict(String message) {
    return new LoopxException(ErrorKind.CATALOG_CONFLICT, message);
  }

  /** A {@code REGISTRY_SEALED} failure. */
  static LoopxException sealed(String message) {
    return new LoopxException(ErrorKind.REGISTRY_SEALED, message);
  }

  /** A {@code CONTRIBUTION_FAILED} failure with an optional cause. */
  static LoopxException contributionFailed(String message, Throwable cause) {
    return new LoopxException(ErrorKind.CONTRIBUTION_FAILED, message, cause);
  }

  /** Returns the message of {@code t}, or its class name when it has none. */
  static String describe(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getName() : t.getClass().getName() + ": " + m;
  }
}
