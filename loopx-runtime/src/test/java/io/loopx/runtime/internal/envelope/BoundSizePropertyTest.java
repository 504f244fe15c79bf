package io.loopx.runtime.internal.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.internal.state.Reliability;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.node.ObjectNode;

/**
 * The size as sent (docs/contract/dispatch.md#binding) at the binder, over generated requests whose
 * bound size lies within a few hundred bytes of the 1,000,000-byte cap: {@code 1e5} values that
 * grow by a byte each when re-serialised, and padding with two-byte characters, so that characters
 * and bytes differ. A bound request is refused exactly when its bytes on the wire exceed the cap,
 * and otherwise those bytes are what {@link EnvelopeBinder.Bound#stdin()} holds; {@link
 * EnvelopeBinder#bind} (in process, where the bytes are written only when a cheap bound of their
 * length exceeds the cap) decides the same.
 */
class BoundSizePropertyTest {
  private static final ActionToken ACTION = ActionToken.of("demo.recall");
  private static final ExtensionId ID = ExtensionId.of("demo-provider");
  private static final Revision REVISION = Revision.of("0123456789abcdef");
  private static final int LIMIT = RequestBody.MAX_BYTES;
  private static final AtomicInteger SENT = new AtomicInteger();
  private static final AtomicInteger REFUSED = new AtomicInteger();

  private static ObjectNode scope() {
    return StrictJson.parseObject(
        "{\"operation\":\"recall\",\"owner\":\"ünïcødé\"}".getBytes(StandardCharsets.UTF_8));
  }

  /**
   * What binding adds to a request: a comma, the key and the envelope (the digest's length is
   * fixed).
   */
  private static final int ENVELOPE_BYTES =
      EnvelopeBinder.bindForWire(ACTION, scope(), ID, REVISION, request(0, 0, 0)).stdin().length
          - StrictJson.toCompactBytes(request(0, 0, 0)).length;

  /** {@code {"v":[1e5 × n],"p":"x × ascii é × twoByte"}}. */
  private static ObjectNode request(int n, int ascii, int twoByte) {
    String text =
        "{\"v\":["
            + String.join(",", Collections.nCopies(n, "1e5"))
            + "],\"p\":\""
            + "x".repeat(ascii)
            + "é".repeat(twoByte)
            + "\"}";
    return StrictJson.parseObject(text.getBytes(StandardCharsets.UTF_8));
  }

  record Case(int values, int ascii, int twoByte) {}

  /** Requests whose bound size is LIMIT - 300 .. LIMIT + 300. */
  private static Gen<Case> nearTheCap() {
    return in -> {
      int n = (int) in.next(Constraint.between(0, 5_000));
      int twoByte = (int) in.next(Constraint.between(0, 50_000));
      int target = LIMIT + (int) in.next(Constraint.between(-300, 300));
      // compact size = 15 + 4n + max(n - 1, 0) + ascii + 2 twoByte
      int fixed = 15 + 4 * n + Math.max(n - 1, 0) + 2 * twoByte + ENVELOPE_BYTES;
      return new Case(n, Math.max(0, target - fixed), twoByte);
    };
  }

  /** {@code -Dloopx.reliability.boundSizes}, default 30. */
  private static int examples() {
    return Reliability.count("boundSizes", 30);
  }

  @Test
  void aBoundRequestIsRefusedExactlyWhenItsBytesOnTheWireExceedTheCap() {
    qt().withExamples(examples())
        .forAll(nearTheCap())
        .checkAssert(
            c -> {
              ObjectNode request = request(c.values(), c.ascii(), c.twoByte());
              int expected = StrictJson.toCompactBytes(request).length + ENVELOPE_BYTES;
              if (expected <= LIMIT) {
                byte[] stdin =
                    EnvelopeBinder.bindForWire(ACTION, scope(), ID, REVISION, request).stdin();
                assertThat(stdin).hasSize(expected);
                // In process the size rule is the same, decided without the bytes when it can be.
                assertThat(EnvelopeBinder.bind(ACTION, scope(), ID, REVISION, request))
                    .isEqualTo(StrictJson.parseObject(stdin));
                SENT.incrementAndGet();
              } else {
                assertThatThrownBy(
                        () -> EnvelopeBinder.bindForWire(ACTION, scope(), ID, REVISION, request))
                    .isInstanceOfSatisfying(
                        LoopxException.class,
                        e -> {
                          assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
                          assertThat(e.getMessage())
                              .isEqualTo(EnvelopeBinder.TOO_LARGE + ": " + expected + " bytes");
                        });
                assertThatThrownBy(
                        () -> EnvelopeBinder.bind(ACTION, scope(), ID, REVISION, request))
                    .isInstanceOf(LoopxException.class)
                    .hasMessage(EnvelopeBinder.TOO_LARGE + ": " + expected + " bytes");
                REFUSED.incrementAndGet();
              }
            });
  }

  @AfterAll
  static void writeTally() {
    Reliability.report(
        "bound-sizes.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "bound-sizes: %d generated requests within 300 bytes of the %d-byte cap once bound"
                    + " (QT_SEED %s): %d sent with exactly the expected bytes, %d refused as"
                    + " request_invalid naming their size",
                SENT.get() + REFUSED.get(),
                LIMIT,
                System.getProperty("QT_SEED", "random"),
                SENT.get(),
                REFUSED.get())));
  }
}
