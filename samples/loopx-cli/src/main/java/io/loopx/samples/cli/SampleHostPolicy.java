package io.loopx.samples.cli;

import io.loopx.api.ActionToken;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sample host's domain policy: it allows exactly the action {@code semantic_preference.recall}
 * on the scope {@code {"capability_id":"semantic-preference","operation":"recall"}} and refuses
 * every other action or scope. Stateless and side-effect free.
 *
 * <p>The only effectful command of the sample CLI, {@code semantic-preference recall}, always asks
 * for that action and scope, so a refusal cannot be reached from the command line; the policy is
 * the host's last word for any other dispatch an embedding might add.
 */
final class SampleHostPolicy implements DomainPolicy {
  /** The action the sample host allows. */
  static final ActionToken RECALL = ActionToken.of("semantic_preference.recall");

  /** Returns a new copy of the one scope the sample host allows. */
  static ObjectNode recallScope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", SampleCatalog.SEMANTIC_PREFERENCE.value());
    scope.put("operation", "recall");
    return scope;
  }

  @Override
  public Decision decide(DispatchRequest request) {
    if (request.action().equals(RECALL) && request.scope().equals(recallScope())) {
      return Decision.allow();
    }
    return Decision.deny(
        "the sample host allows only `"
            + RECALL
            + "` on scope "
            + recallScope()
            + ", not `"
            + request.action()
            + "` on scope "
            + request.scope());
  }
}
