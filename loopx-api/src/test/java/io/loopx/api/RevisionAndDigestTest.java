package io.loopx.api;

import static io.loopx.api.IdTesting.HEX;
import static io.loopx.api.IdTesting.assertAccepted;
import static io.loopx.api.IdTesting.assertRejected;
import static io.loopx.api.IdTesting.chars;
import static io.loopx.api.IdTesting.corrupted;
import static io.loopx.api.IdTesting.insert;
import static io.loopx.api.IdTesting.pick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.IdTesting.Corruption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** {@link Revision} (16 lowercase hex) and {@link Digest} ({@code sha256:} + 64 lowercase hex). */
class RevisionAndDigestTest {
  private static final Gen<String> REVISION = in -> chars(in, HEX, 16, 16);
  private static final Gen<String> DIGEST = in -> "sha256:" + chars(in, HEX, 64, 64);

  /** Corruptions of a hex text: uppercase, a non-hex letter, one too few or too many digits. */
  private static List<Corruption> hexCorruptions() {
    return List.of(
        (in, s) -> insert(in, s.substring(0, s.length() - 1), String.valueOf(pick(in, "ABCDEF"))),
        (in, s) -> insert(in, s.substring(0, s.length() - 1), String.valueOf(pick(in, "ghxz-_ "))),
        (in, s) -> s.substring(0, s.length() - 1),
        (in, s) -> s + pick(in, HEX));
  }

  @Test
  void revisionExamples() {
    assertAccepted(Revision::of, "1566783bb5842048");
    for (String bad :
        List.of(
            "", "1566783BB5842048", "1566783bb584204", "1566783bb58420480", "1566783bb584204g")) {
      assertRejected(Revision::of, "revision id", bad);
    }
  }

  @Test
  void digestExamples() {
    String hex = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
    assertAccepted(Digest::of, "sha256:" + hex);
    for (String bad :
        List.of(
            "",
            hex,
            "SHA256:" + hex,
            "sha512:" + hex,
            "sha256:" + hex.toUpperCase(java.util.Locale.ROOT),
            "sha256:" + hex.substring(1),
            "sha256:" + hex + "0",
            "sha256: " + hex)) {
      assertRejected(Digest::of, "digest", bad);
    }
  }

  @Test
  void generatedValidValuesAreAccepted() {
    qt().forAll(REVISION).checkAssert(s -> assertAccepted(Revision::of, s));
    qt().forAll(DIGEST).checkAssert(s -> assertAccepted(Digest::of, s));
  }

  @Test
  void generatedCorruptionsAreRejected() {
    qt().forAll(corrupted(REVISION, hexCorruptions()))
        .checkAssert(s -> assertRejected(Revision::of, "revision id", s));
    qt().forAll(
            corrupted(
                DIGEST,
                List.of(
                    hexCorruptions().get(0),
                    hexCorruptions().get(1),
                    hexCorruptions().get(2),
                    hexCorruptions().get(3),
                    (in, s) -> s.substring("sha256:".length()),
                    (in, s) -> s.replace("sha256:", "sha-256:"))))
        .checkAssert(s -> assertRejected(Digest::of, "digest", s));
  }

  @Test
  void orderingIsByText() {
    assertThat(Revision.of("0000000000000000")).isLessThan(Revision.of("000000000000000f"));
    assertThat(Digest.of("sha256:" + "0".repeat(64)))
        .isLessThan(Digest.of("sha256:" + "1".repeat(64)));
  }
}
