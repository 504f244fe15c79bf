package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.json.CanonicalJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link RuntimeIdentity#recorded} (one canonical walk per resolution, the SHA-256 kept by the
 * record's canonical text) gives exactly the identity and text of the pinned rule: the SHA-256 of
 * the record's RFC 8785 canonical JSON, for the same record again, for records that differ in one
 * digest, and beyond the number of texts it keeps; a keyed record is built once.
 */
class RuntimeIdentityRecordedTest {
  private static final String A = "a".repeat(64);
  private static final String B = "b".repeat(64);

  @Test
  void identityIsTheSha256OfTheCanonicalRecordSeenOrNot() {
    List<ObjectNode> records =
        List.of(
            RuntimeIdentity.executableRecord(A, B),
            RuntimeIdentity.executableRecord(B, A),
            RuntimeIdentity.javaMainRecord(A, "p.Main", "jar", B),
            RuntimeIdentity.javaClassPathRecord(
                A, "p.Main", List.of(RuntimeIdentity.codeSource("jar", B))));
    for (int pass = 0; pass < 2; pass++) {
      for (ObjectNode record : records) {
        RuntimeIdentity.Recorded recorded = RuntimeIdentity.recorded(record);
        assertThat(recorded.identity().value()).isEqualTo(CanonicalJson.sha256Hex(record));
        assertThat(recorded.text()).isEqualTo(CanonicalJson.toText(record));
        assertThat(RuntimeIdentity.ofRecord(record)).isEqualTo(recorded.identity());
      }
    }
  }

  @Test
  void aKeyedRecordIsBuiltOnceAndIdentifiedByThePinnedRule() {
    int[] built = {0};
    for (int pass = 0; pass < 3; pass++) {
      RuntimeIdentity.Recorded recorded =
          RuntimeIdentity.recorded(
              "test\0" + A + "\0keyed.Main",
              () -> {
                built[0]++;
                return RuntimeIdentity.javaMainRecord(A, "keyed.Main", "jar", B);
              });
      ObjectNode record = RuntimeIdentity.javaMainRecord(A, "keyed.Main", "jar", B);
      assertThat(recorded.identity().value()).isEqualTo(CanonicalJson.sha256Hex(record));
      assertThat(recorded.text()).isEqualTo(CanonicalJson.toText(record));
    }
    assertThat(built[0]).isEqualTo(1);
  }

  @Test
  void staysExactBeyondTheTextsItKeeps() {
    for (int i = 0; i < 2_500; i++) {
      String digest = String.format("%064x", i);
      ObjectNode record = RuntimeIdentity.javaMainRecord(digest, "p.Main", "jar", A);
      assertThat(RuntimeIdentity.recorded(record).identity().value())
          .isEqualTo(CanonicalJson.sha256Hex(record));
    }
  }
}
