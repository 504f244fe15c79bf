package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import io.loopx.runtime.state.StateFormat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code revisions[].proven_identities} (docs/contract/state.md): recorded by every successful
 * executed doctor, bounded at 32 (oldest dropped first), absent in old files (reads as empty),
 * validated on read.
 */
class ProvenIdentitiesTest {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final ExtensionId ALPHA = ExtensionId.of("alpha");

  private static ActivationState state(ExtensionRecord r) {
    TreeMap<ExtensionId, ExtensionRecord> map = new TreeMap<>();
    map.put(r.id(), r);
    return new ActivationState(map);
  }

  private static ExtensionRecord upgraded() {
    ExtensionRecord r =
        ExtensionRecords.installed(snapshot("alpha", "1"), Optional.of(identity(1)));
    return ExtensionRecords.upgradedTo(r, snapshot("alpha", "2"), Optional.of(identity(2)));
  }

  private static ActivationState roundTrip(ActivationState state) {
    return StateFormat.decode(StateFormat.encode(state));
  }

  /** Encodes {@code state}, lets {@code edit} change the first revision's JSON, decodes. */
  private static ActivationState decodeEdited(ActivationState state, Consumer<ObjectNode> edit) {
    JsonNode root = StrictJson.parse(StateFormat.encode(state));
    ObjectNode revision = (ObjectNode) root.get("extensions").get("alpha").get("revisions").get(0);
    edit.accept(revision);
    return StateFormat.decode(MAPPER.writeValueAsString(root).getBytes(UTF_8));
  }

  private static void assertInvalidEntry(Runnable read, String detail) {
    assertThatThrownBy(read::run)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE);
              assertThat(e)
                  .hasMessageStartingWith("extension runtime state has an invalid entry `alpha`: ")
                  .hasMessageContaining(detail);
            });
  }

  @Test
  void installUpgradeAndRollbackRecordTheProvenIdentityPerRevision() {
    ExtensionRecord r = upgraded();
    assertThat(r.snapshot(r.rollbackRevision().orElseThrow()).orElseThrow().provenIdentities())
        .containsExactly(identity(1));
    assertThat(r.active().provenIdentities()).containsExactly(identity(2));

    ExtensionRecord back = ExtensionRecords.rolledBack(r, identity(3));

    assertThat(back.active().version()).isEqualTo("1");
    assertThat(back.active().provenIdentities()).containsExactly(identity(1), identity(3));
    assertThat(
            back.snapshot(back.rollbackRevision().orElseThrow()).orElseThrow().provenIdentities())
        .containsExactly(identity(2));
  }

  @Test
  void provenForAsksTheTargetRevisionOnly() {
    ExtensionRecord r = upgraded();
    var v1 = r.rollbackRevision().orElseThrow();

    assertThat(ExtensionRecords.provenFor(r, v1, Optional.of(identity(1)))).isTrue();
    assertThat(ExtensionRecords.provenFor(r, v1, Optional.of(identity(2)))).isFalse();
    assertThat(ExtensionRecords.provenFor(r, v1, Optional.empty())).isFalse();
    assertThat(
            ExtensionRecords.provenFor(
                r, snapshot("alpha", "9").revision(), Optional.of(identity(1))))
        .isFalse();
  }

  @Test
  void aFailedProbeRevokesTheProofButNotWhatWasProven() {
    ExtensionRecord r = ExtensionRecords.withRevoked(upgraded(), identity(2));

    assertThat(r.proofCovers(identity(2))).isFalse();
    assertThat(r.active().provenIdentities()).containsExactly(identity(2));
  }

  @Test
  void upgradingBackToARevisionInTheHistoryKeepsItsProvenIdentities() {
    ExtensionRecord r = upgraded();
    r = ExtensionRecords.upgradedTo(r, snapshot("alpha", "1"), Optional.of(identity(7)));

    assertThat(r.active().version()).isEqualTo("1");
    assertThat(r.active().provenIdentities()).containsExactly(identity(1), identity(7));
    assertThat(r.doctorVerifiedIdentities()).containsExactly(identity(7));
  }

  @Test
  void roundTripKeepsTheFieldAndWritesItForEveryRevision() {
    ActivationState state = state(ExtensionRecords.rolledBack(upgraded(), identity(3)));

    byte[] bytes = StateFormat.encode(state);

    assertThat(StateFormat.decode(bytes)).isEqualTo(state);
    JsonNode revisions = StrictJson.parse(bytes).get("extensions").get("alpha").get("revisions");
    assertThat(revisions.get(0).get("proven_identities").toString())
        .isEqualTo("[\"" + identity(1) + "\",\"" + identity(3) + "\"]");
    assertThat(revisions.get(1).get("proven_identities").toString())
        .isEqualTo("[\"" + identity(2) + "\"]");
  }

  @Test
  void anOldStateFileWithoutTheFieldStillReadsWithNothingProven() {
    ActivationState state = state(upgraded());
    JsonNode root = StrictJson.parse(StateFormat.encode(state));
    for (JsonNode revision : root.get("extensions").get("alpha").get("revisions")) {
      ((ObjectNode) revision).remove("proven_identities");
    }
    String old = MAPPER.writeValueAsString(root);
    assertThat(old).doesNotContain("proven_identities");

    ActivationState read = StateFormat.decode(old.getBytes(UTF_8));

    ExtensionRecord r = read.get(ALPHA).orElseThrow();
    assertThat(r.revisions()).allSatisfy(s -> assertThat(s.provenIdentities()).isEmpty());
    // Everything else is as written: the doctor proof still counts.
    assertThat(r.proofCovers(identity(2))).isTrue();
    assertThat(r.activeRevision()).isEqualTo(state.get(ALPHA).orElseThrow().activeRevision());
  }

  @Test
  void thirtyTwoProvenIdentitiesReadAndTheOldestIsDroppedFirstBeyond() {
    ExtensionRecord r =
        ExtensionRecords.installed(snapshot("alpha", "1"), Optional.of(identity(0)));
    for (int i = 1; i < 40; i++) {
      r = ExtensionRecords.withVerified(r, r.activeRevision(), identity(i));
    }

    List<String> expected = new ArrayList<>();
    for (int i = 8; i < 40; i++) {
      expected.add(identity(i));
    }
    assertThat(r.active().provenIdentities())
        .hasSize(RevisionSnapshot.MAX_PROVEN_IDENTITIES)
        .containsExactlyElementsOf(expected);
    assertThat(roundTrip(state(r))).isEqualTo(state(r));
  }

  @Test
  void moreThanThirtyTwoOnReadIsAnInvalidEntry() {
    ActivationState state = state(upgraded());

    assertInvalidEntry(
        () ->
            decodeEdited(
                state,
                revision -> {
                  ArrayNode ids = revision.putArray("proven_identities");
                  for (int i = 0; i < 33; i++) {
                    ids.add(identity(i));
                  }
                }),
        "has more than 32 proven identities");
  }

  @Test
  void badIdentitiesAndShapesOnReadAreInvalidEntries() {
    ActivationState state = state(upgraded());
    String upper = identity(10).toUpperCase(java.util.Locale.ROOT);

    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.putArray("proven_identities").add(upper)),
        "not 64 lowercase hex");
    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.putArray("proven_identities").add("abc")),
        "not 64 lowercase hex");
    assertInvalidEntry(
        () ->
            decodeEdited(
                state, r -> r.putArray("proven_identities").add(identity(1)).add(identity(1))),
        "repeated proven identities");
    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.putArray("proven_identities").add(7)),
        "proven_identities must hold strings");
    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.putNull("proven_identities")),
        "proven_identities must be an array");
    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.put("proven_identities", identity(1))),
        "proven_identities must be an array");
    assertInvalidEntry(
        () -> decodeEdited(state, r -> r.putArray("proven_identity")),
        "revision fields do not match the schema");
  }

  @Test
  void anyProofSequenceKeepsTheNewest32DistinctAndRoundTrips() {
    qt().withExamples(200)
        .forAll(lists().of(integers().between(0, 60)).ofSizeBetween(0, 120))
        .checkAssert(
            sequence -> {
              ExtensionRecord r =
                  ExtensionRecords.installed(snapshot("alpha", "1"), Optional.empty());
              for (int i : sequence) {
                r = ExtensionRecords.withVerified(r, r.activeRevision(), identity(i));
              }
              // Expected: distinct by last occurrence, in order of last occurrence, newest 32.
              LinkedHashSet<String> order = new LinkedHashSet<>();
              for (int i : sequence) {
                order.remove(identity(i));
                order.add(identity(i));
              }
              List<String> expected = new ArrayList<>(order);
              expected =
                  expected.subList(
                      Math.max(0, expected.size() - RevisionSnapshot.MAX_PROVEN_IDENTITIES),
                      expected.size());
              assertThat(r.active().provenIdentities()).containsExactlyElementsOf(expected);
              assertThat(roundTrip(state(r))).isEqualTo(state(r));
            });
  }
}
