package io.loopx.runtime.internal.worker;

import io.loopx.runtime.run.RunFailure;
import tools.jackson.databind.node.ObjectNode;

/** What became of one request sent to a worker. */
sealed interface Reply {
  /**
   * The worker answered.
   *
   * @param response the frame's {@code response} object
   */
  record Answered(ObjectNode response) implements Reply {}

  /**
   * The request failed for a named reason ({@code timeout}, {@code response_too_large}, {@code
   * worker_terminated}, {@code worker_handshake_failed}, {@code execution_failed}).
   *
   * @param failure the failure kind
   */
  record Failed(RunFailure failure) implements Reply {}

  /** The worker executed other bytes than the hashed file (no request was written to it). */
  record Mismatch() implements Reply {}
}
