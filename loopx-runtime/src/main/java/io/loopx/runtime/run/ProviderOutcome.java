package io.loopx.runtime.run;

import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a provider did with one request, classified by docs/contract/run.md's first-match list.
 * Shared by run and dispatch receipts. Immutable. Implemented by LoopX only; hosts do not implement
 * it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ProviderOutcome {
  /** Returns the status word. */
  RunStatus status();

  /** Returns the failure kind, where the outcome list names one. */
  Optional<RunFailure> failure();

  /** Returns the provider's own exit status when it exited by itself. */
  OptionalInt exitCode();

  /** Returns a copy of the provider's stdout object, when stdout was exactly one JSON object. */
  Optional<ObjectNode> providerResult();

  /**
   * Returns the last at most 4,096 bytes of the provider's stderr, cut at a code point, unsafe
   * characters but line feed and tab written as <code>&#92;uXXXX</code>; empty when it wrote
   * nothing, for in-process providers, and when the host turned it off ({@code
   * Loopx.Builder.providerStderrTail(false)}).
   */
  Optional<String> stderrTail();
}
