package io.loopx.runtime.internal.conformance;

import io.loopx.api.envelope.ExecutionEnvelope;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The single-field mutations of a bound request: each changes exactly one thing of the envelope, or
 * the request it binds, and a provider that verifies its envelope must refuse every one. The
 * changed values come from a seeded {@link Random}. Shared by the conformance check and the
 * testkit's contract kit.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class EnvelopeMutations {
  static final String ENVELOPE = ExecutionEnvelope.REQUEST_KEY;
  static final List<String> FIELDS =
      List.of("schema_version", "action", "scope", "extension", "request_digest");

  private EnvelopeMutations() {}

  /**
   * One mutated request.
   *
   * @param description what was changed
   * @param request the request with the mutated envelope
   */
  public record Mutation(String description, ObjectNode request) {
    /** Copies the request. */
    public Mutation {
      Objects.requireNonNull(description, "description");
      request = request.deepCopy();
    }

    @Override
    public ObjectNode request() {
      return request.deepCopy();
    }
  }

  /**
   * Returns every mutation of {@code bound} (a request with a bound envelope), in a fixed order.
   */
  public static List<Mutation> of(ObjectNode bound, Random random) {
    List<Mutation> out = new ArrayList<>();
    ObjectNode envelope = (ObjectNode) bound.get(ENVELOPE);

    String schema = envelope.get("schema_version").asString();
    out.add(
        mutate(
            bound,
            "schema_version changed",
            e ->
                e.put(
                    "schema_version",
                    schema.replaceAll("_v[0-9]+$", "_v" + (1 + random.nextInt(9))))));

    String action = envelope.get("action").asString();
    out.add(
        mutate(bound, "action changed", e -> e.put("action", action + "." + letters(random, 5))));

    ObjectNode scope = (ObjectNode) envelope.get("scope");
    List<String> scopeKeys = new ArrayList<>();
    scope.properties().forEach(p -> scopeKeys.add(p.getKey()));
    String widened = "extra_" + letters(random, 6);
    out.add(
        mutate(
            bound,
            "scope widened by key `" + widened + "`",
            e -> ((ObjectNode) e.get("scope")).put(widened, letters(random, 4))));
    String changedKey = scopeKeys.get(random.nextInt(scopeKeys.size()));
    out.add(
        mutate(
            bound,
            "scope value `" + changedKey + "` changed",
            e -> {
              ObjectNode s = (ObjectNode) e.get("scope");
              JsonNode old = s.get(changedKey);
              String replacement =
                  (old.isString() ? old.asString() : old.toString()) + "-" + letters(random, 4);
              s.put(changedKey, replacement);
            }));

    ObjectNode extension = (ObjectNode) envelope.get("extension");
    String id = extension.get("id").asString();
    out.add(
        mutate(
            bound,
            "extension.id changed",
            e -> ((ObjectNode) e.get("extension")).put("id", id + "-" + letters(random, 4))));
    String revision = extension.get("revision").asString();
    out.add(
        mutate(
            bound,
            "extension.revision changed",
            e -> ((ObjectNode) e.get("extension")).put("revision", otherHex(revision, random))));

    String digest = envelope.get("request_digest").asString();
    String digestHex = digest.substring(digest.indexOf(':') + 1);
    out.add(
        mutate(
            bound,
            "request_digest changed",
            e -> e.put("request_digest", "sha256:" + otherHex(digestHex, random))));

    String removed = FIELDS.get(random.nextInt(FIELDS.size()));
    out.add(mutate(bound, "field `" + removed + "` removed", e -> e.remove(removed)));

    String extra = "extra_" + letters(random, 6);
    out.add(mutate(bound, "unknown field `" + extra + "` added", e -> e.put(extra, "x")));

    ObjectNode changedRequest = bound.deepCopy();
    String requestKey;
    do {
      requestKey = "added_" + letters(random, 6);
    } while (changedRequest.has(requestKey));
    changedRequest.put(requestKey, random.nextInt(1000));
    out.add(
        new Mutation(
            "request changed after binding (key `" + requestKey + "` added)", changedRequest));

    ObjectNode withoutEnvelope = bound.deepCopy();
    withoutEnvelope.remove(ENVELOPE);
    out.add(new Mutation("envelope removed", withoutEnvelope));
    return List.copyOf(out);
  }

  /** Returns {@code count} random lowercase ASCII letters. */
  private static String letters(Random random, int count) {
    StringBuilder out = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      out.append((char) ('a' + random.nextInt(26)));
    }
    return out.toString();
  }

  private interface Change {
    void apply(ObjectNode envelope);
  }

  private static Mutation mutate(ObjectNode bound, String description, Change change) {
    ObjectNode copy = bound.deepCopy();
    change.apply((ObjectNode) copy.get(ENVELOPE));
    return new Mutation(description, copy);
  }

  /** Random lowercase hex of the same length as {@code original}, different from it. */
  private static String otherHex(String original, Random random) {
    String hex;
    do {
      byte[] bytes = new byte[(original.length() + 1) / 2];
      random.nextBytes(bytes);
      hex = HexFormat.of().formatHex(bytes).substring(0, original.length());
    } while (hex.equals(original));
    return hex;
  }
}
