package io.loopx.runtime.internal.lifecycle;

import io.loopx.runtime.internal.identity.EntrypointLookup;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.Objects;
import java.util.Optional;

/**
 * What resolving an extension's runtime found: its identity (64 hex) and, for an executable, the
 * absolute launcher path; or that it cannot be resolved.
 */
public sealed interface RuntimeObservation {

  /**
   * The runtime resolved.
   *
   * @param identity the runtime identity digest (64 lowercase hex)
   * @param entrypointPath the saved path: the absolute launcher path of an {@code entrypoint}
   *     runtime, or the absolute manifest directory of a {@code java_class_path}
   */
  record Resolved(String identity, Optional<String> entrypointPath) implements RuntimeObservation {
    /** Rejects nulls. */
    public Resolved {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(entrypointPath, "entrypointPath");
    }
  }

  /**
   * The runtime cannot be resolved.
   *
   * @param reason a human-readable reason
   * @param lookup what was looked up where
   */
  record Unresolvable(String reason, EntrypointLookup lookup) implements RuntimeObservation {
    /** Rejects nulls. */
    public Unresolvable {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(lookup, "lookup");
    }
  }

  /**
   * The runtime is one LoopX refuses to identify ({@code entrypoint_unsupported}).
   *
   * @param reason the stable message
   */
  record Unsupported(String reason) implements RuntimeObservation {
    /** Rejects nulls. */
    public Unsupported {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Returns the identity when resolved. */
  default Optional<String> resolvedIdentity() {
    return this instanceof Resolved r ? Optional.of(r.identity()) : Optional.empty();
  }

  /** Returns whether {@code record}'s proof covers this observed runtime. Pure. */
  default boolean coveredBy(ExtensionRecord record) {
    return resolvedIdentity().map(record::proofCovers).orElse(false);
  }
}
