package io.loopx.runtime.internal.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.envelope.JsonTrees.Slot;
import io.loopx.runtime.internal.state.Reliability;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Properties of binder and verifier together, over random requests and scopes: an unmodified bound
 * request always verifies and yields exactly the original request; every single-field change of the
 * bound request is an {@link ErrorKind#ENVELOPE_MISMATCH} naming the changed part.
 */
class EnvelopeRoundTripPropertyTest {
  private static final String KEY = ExecutionEnvelope.REQUEST_KEY;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SCHEMA = "execution envelope fields do not match the schema";
  private static final Map<Mutation, int[]> TALLY = new ConcurrentHashMap<>();
  private static final List<String> ENVELOPE_FIELDS =
      List.of("schema_version", "action", "scope", "extension", "request_digest");

  /** One dispatch: what the host binds, and a seed for the choices of a mutation. */
  record Case(
      ObjectNode request,
      ObjectNode scope,
      ActionToken action,
      ExtensionId id,
      Revision revision,
      long seed) {

    ObjectNode bind() {
      return EnvelopeBinder.bind(action, scope, id, revision, request);
    }

    Expectation expectation() {
      return new Expectation(action, scope, id, revision);
    }
  }

  private static Gen<Case> cases(int minRequestKeys) {
    Gen<ObjectNode> requests = JsonTrees.objects(minRequestKeys, 5, 3);
    Gen<ObjectNode> scopes = JsonTrees.objects(1, 4, 2);
    return in ->
        new Case(
            requests.generate(in),
            scopes.generate(in),
            ActionToken.of(token(in, "abcxyz", "abz09_.:-", 20)),
            ExtensionId.of(
                token(in, "abcxyz", "abz09", 8)
                    + (in.next(Constraint.between(0, 1)) == 1
                        ? "-" + token(in, "a0", "b1", 4)
                        : "")),
            Revision.of(token(in, "0123456789abcdef", "0123456789abcdef", 15, 15)),
            in.next(Constraint.none()));
  }

  private static String token(RandomnessSource in, String first, String rest, int maxRest) {
    return token(in, first, rest, 0, maxRest);
  }

  private static String token(
      RandomnessSource in, String first, String rest, int minRest, int maxRest) {
    StringBuilder s = new StringBuilder();
    s.append(first.charAt((int) in.next(Constraint.between(0, first.length() - 1))));
    long n = in.next(Constraint.between(minRest, maxRest));
    for (int i = 0; i < n; i++) {
      s.append(rest.charAt((int) in.next(Constraint.between(0, rest.length() - 1))));
    }
    return s.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Acceptance

  @Test
  void anUnmodifiedBoundRequestVerifiesToExactlyTheOriginalRequest() {
    qt().withExamples(500)
        .forAll(cases(0))
        .checkAssert(
            c -> {
              String original = c.request().toString();
              ObjectNode bound = c.bind();

              List<String> keys = new ArrayList<>(c.request().propertyNames());
              keys.add(KEY);
              assertThat(List.copyOf(bound.propertyNames())).isEqualTo(keys);
              ObjectNode bare = EnvelopeVerifier.verify(bound, c.expectation());
              assertThat(bare.toString()).isEqualTo(original);
              assertThat(bare).isEqualTo(c.request());
              assertThat(c.request().toString()).isEqualTo(original);
            });
  }

  @Test
  void aBoundRequestVerifiesAfterTheWireAndAfterKeyReordering() {
    qt().withExamples(300)
        .forAll(cases(0))
        .checkAssert(
            c -> {
              ObjectNode bound = c.bind();
              ObjectNode received = StrictJson.parseObject(StrictJson.toCompactBytes(bound));
              ObjectNode reordered = (ObjectNode) JsonTrees.reversed(bound);

              assertThat(CanonicalJson.toText(EnvelopeVerifier.verify(received, c.expectation())))
                  .isEqualTo(CanonicalJson.toText(c.request()));
              assertThat(EnvelopeVerifier.verify(reordered, c.expectation()))
                  .isEqualTo(JsonTrees.reversed(c.request()));
              assertThat(ExecutionEnvelope.requestDigest(reordered))
                  .isEqualTo(ExecutionEnvelope.requestDigest(c.request()));
            });
  }

  // ---------------------------------------------------------------------------------------------
  // Every single-field mutation fails closed

  /** One way to change a bound request, and the message that must reject it. */
  enum Mutation {
    ACTION_CHANGED(
        "action", (b, r) -> envelope(b).put("action", envelope(b).get("action").asString() + "x")),
    SCOPE_VALUE_CHANGED("scope", (b, r) -> change(pick(JsonTrees.slotsIn(scope(b)), r))),
    SCOPE_KEY_ADDED(
        "scope",
        (b, r) -> {
          ObjectNode o = pick(JsonTrees.objectsIn(scope(b)), r);
          o.putNull(JsonTrees.freshKey(o));
        }),
    SCOPE_KEY_REMOVED("scope", (b, r) -> removeKey(JsonTrees.objectsIn(scope(b)), r)),
    EXTENSION_ID_CHANGED(
        "extension", (b, r) -> extension(b).put("id", extension(b).get("id").asString() + "-x")),
    REVISION_CHANGED(
        "extension",
        (b, r) -> {
          String rev = extension(b).get("revision").asString();
          int i = r.nextInt(rev.length());
          char other = rev.charAt(i) == '0' ? 'f' : '0';
          extension(b).put("revision", rev.substring(0, i) + other + rev.substring(i + 1));
        }),
    REQUEST_VALUE_CHANGED("request_digest", (b, r) -> change(pick(requestSlots(b), r))),
    REQUEST_KEY_ADDED(
        "request_digest",
        (b, r) -> {
          ObjectNode o = pick(requestObjects(b), r);
          o.put(JsonTrees.freshKey(o), "x");
        }),
    REQUEST_KEY_REMOVED("request_digest", (b, r) -> removeKey(requestObjects(b), r)),
    DIGEST_CHANGED(
        "request_digest",
        (b, r) -> {
          String digest = envelope(b).get("request_digest").asString();
          char last = digest.charAt(digest.length() - 1);
          envelope(b)
              .put(
                  "request_digest",
                  digest.substring(0, digest.length() - 1) + (last == '0' ? '1' : '0'));
        }),
    SCHEMA_VERSION_CHANGED(
        "schema_version",
        (b, r) ->
            envelope(b)
                .put(
                    "schema_version",
                    r.nextBoolean() ? "loopx_extension_execution_envelope_v1" : "")),
    ENVELOPE_FIELD_ADDED(
        null,
        (b, r) -> {
          ObjectNode o = r.nextBoolean() ? envelope(b) : extension(b);
          o.set(JsonTrees.freshKey(o), r.nextBoolean() ? NODES.nullNode() : NODES.stringNode("x"));
        }),
    ENVELOPE_FIELD_REMOVED(
        null,
        (b, r) -> {
          int i = r.nextInt(ENVELOPE_FIELDS.size() + 2);
          if (i < ENVELOPE_FIELDS.size()) {
            envelope(b).remove(ENVELOPE_FIELDS.get(i));
          } else {
            extension(b).remove(i == ENVELOPE_FIELDS.size() ? "id" : "revision");
          }
        }),
    ENVELOPE_FIELD_RETYPED(
        null,
        (b, r) -> {
          int i = r.nextInt(ENVELOPE_FIELDS.size() + 2);
          if (i == ENVELOPE_FIELDS.indexOf("scope") || i == ENVELOPE_FIELDS.indexOf("extension")) {
            envelope(b).put(ENVELOPE_FIELDS.get(i), "{}");
          } else if (i < ENVELOPE_FIELDS.size()) {
            // The same string, wrapped in an array.
            String field = ENVELOPE_FIELDS.get(i);
            JsonNode value = envelope(b).get(field);
            envelope(b).putArray(field).add(value);
          } else {
            extension(b).putNull(i == ENVELOPE_FIELDS.size() ? "id" : "revision");
          }
        }),
    ENVELOPE_REMOVED(null, (b, r) -> b.remove(KEY)),
    ENVELOPE_REPLACED_BY_ITS_JSON_TEXT(null, (b, r) -> b.put(KEY, b.get(KEY).toString()));

    final String message;
    final BiConsumer<ObjectNode, Random> change;

    Mutation(@Nullable String field, BiConsumer<ObjectNode, Random> change) {
      this.message =
          field == null ? SCHEMA : "execution envelope " + field + " does not match the operation";
      this.change = change;
    }
  }

  /**
   * Bad input: every example tampers with one field of a freshly bound request and must be rejected
   * with an {@link ErrorKind#ENVELOPE_MISMATCH} naming the changed part, leaving the tampered input
   * as it was. Examples per mutation: {@code -Dloopx.reliability.envelopesPerMutation} (default
   * 150; the {@code reliability} profile raises it); the tally is written to {@code
   * target/reliability/bad-envelopes.txt}.
   */
  @ParameterizedTest
  @EnumSource(Mutation.class)
  void everySingleFieldMutationIsAnEnvelopeMismatch(Mutation mutation) {
    int examples = examplesPerMutation();
    int[] tried = {0};
    int[] rejected = {0};
    qt().withExamples(examples)
        .forAll(cases(1))
        .checkAssert(
            c -> {
              ObjectNode bound = c.bind();
              String unchanged = bound.toString();
              mutation.change.accept(bound, new Random(c.seed()));
              String tampered = bound.toString();
              assertThat(tampered).as("the mutation changed something").isNotEqualTo(unchanged);
              tried[0]++;

              assertThatThrownBy(() -> EnvelopeVerifier.verify(bound, c.expectation()))
                  .isExactlyInstanceOf(LoopxException.class)
                  .hasMessage(mutation.message)
                  .satisfies(
                      e ->
                          assertThat(((LoopxException) e).kind())
                              .isEqualTo(ErrorKind.ENVELOPE_MISMATCH));
              assertThat(bound.toString())
                  .as("the rejected input is untouched")
                  .isEqualTo(tampered);
              rejected[0]++;
            });
    TALLY.put(mutation, new int[] {tried[0], rejected[0]});
    // QuickTheories skips a generated value it has already tried, so a few examples may be fewer.
    assertThat(tried[0]).isPositive().isLessThanOrEqualTo(examples);
    assertThat(rejected[0]).isEqualTo(tried[0]);
  }

  /** {@code -Dloopx.reliability.envelopesPerMutation}, default 150. */
  private static int examplesPerMutation() {
    return Reliability.count("envelopesPerMutation", 150);
  }

  @AfterAll
  static void writeTally() {
    if (TALLY.isEmpty()) {
      return;
    }
    int tried = TALLY.values().stream().mapToInt(t -> t[0]).sum();
    int rejected = TALLY.values().stream().mapToInt(t -> t[1]).sum();
    Map<Mutation, Integer> perMutation = new EnumMap<>(Mutation.class);
    TALLY.forEach((m, t) -> perMutation.put(m, t[0]));
    Reliability.report(
        "bad-envelopes.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "bad-envelopes: %d tampered bound requests over %d of %d mutations (%d examples"
                    + " asked per mutation, repeats skipped; QT_SEED %s);"
                    + " %d rejected as envelope_mismatch naming the changed part, input untouched;"
                    + " per mutation %s",
                tried,
                TALLY.size(),
                Mutation.values().length,
                examplesPerMutation(),
                System.getProperty("QT_SEED", "random"),
                rejected,
                perMutation)));
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers over a bound request

  private static ObjectNode envelope(ObjectNode bound) {
    return (ObjectNode) bound.get(KEY);
  }

  private static ObjectNode scope(ObjectNode bound) {
    return (ObjectNode) envelope(bound).get("scope");
  }

  private static ObjectNode extension(ObjectNode bound) {
    return (ObjectNode) envelope(bound).get("extension");
  }

  /** The slots of the request part: every key and element outside the envelope. */
  private static List<Slot> requestSlots(ObjectNode bound) {
    List<Slot> out = new ArrayList<>();
    for (String key : List.copyOf(bound.propertyNames())) {
      if (!key.equals(KEY)) {
        out.add(new Slot(bound, key, -1));
        out.addAll(JsonTrees.slotsIn(bound.get(key)));
      }
    }
    return out;
  }

  /**
   * The objects of the request part: the bound request itself and every object outside the
   * envelope.
   */
  private static List<ObjectNode> requestObjects(ObjectNode bound) {
    List<ObjectNode> out = new ArrayList<>();
    out.add(bound);
    for (String key : List.copyOf(bound.propertyNames())) {
      if (!key.equals(KEY)) {
        out.addAll(JsonTrees.objectsIn(bound.get(key)));
      }
    }
    return out;
  }

  private static void change(Slot slot) {
    JsonNode before = slot.get();
    JsonNode after = JsonTrees.changed(before);
    assertThat(CanonicalJson.toText(after)).isNotEqualTo(CanonicalJson.toText(before));
    slot.set(after);
  }

  /** Removes one key of one object that has keys (the bound request's own envelope excepted). */
  private static void removeKey(List<ObjectNode> objects, Random r) {
    List<String> keys = List.of();
    ObjectNode object = objects.get(0);
    List<ObjectNode> candidates = new ArrayList<>(objects);
    while (keys.isEmpty()) {
      object = candidates.remove(r.nextInt(candidates.size()));
      keys = new ArrayList<>(object.propertyNames());
      keys.remove(KEY);
    }
    object.remove(keys.get(r.nextInt(keys.size())));
  }

  private static <T> T pick(List<T> items, Random r) {
    assertThat(items).as("something to mutate").isNotEmpty();
    return items.get(r.nextInt(items.size()));
  }
}
