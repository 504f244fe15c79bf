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
import io.loopx.runtime.internal.state.Reliability;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The number rule of a digested request (docs/contract/dispatch.md#binding): a number is bound only
 * when it is exactly the ES6 form of its nearest double, which is what the digest canonicalises it
 * to.
 */
class ExactNumbersTest {
  private static final ActionToken ACTION = ActionToken.of("demo.recall");
  private static final ExtensionId ID = ExtensionId.of("demo-provider");
  private static final Revision REVISION = Revision.of("0123456789abcdef");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static ObjectNode json(String text) {
    return StrictJson.parseObject(text.getBytes(StandardCharsets.UTF_8));
  }

  private static ObjectNode scope() {
    return json("{\"operation\":\"recall\"}");
  }

  private static EnvelopeBinder.Bound bind(ObjectNode request) {
    return EnvelopeBinder.bindForWire(ACTION, scope(), ID, REVISION, request);
  }

  private static final AtomicInteger BOUND = new AtomicInteger();
  private static final AtomicInteger REFUSED = new AtomicInteger();

  /** {@code -Dloopx.reliability.exactNumbers}, default 4000 per property. */
  private static int examples() {
    return Reliability.count("exactNumbers", 4000);
  }

  @AfterAll
  static void writeTally() {
    Reliability.report(
        "exact-numbers.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "exact-numbers: %d ES6 forms of doubles at the boundaries (subnormals, MIN_VALUE,"
                    + " MIN_NORMAL, MAX_VALUE, 2^53 +- k, powers of ten, random bits) bound and"
                    + " received with the digested value; %d decimals perturbed beyond double"
                    + " precision refused as request_invalid naming the number (%d asked per"
                    + " property, repeats skipped; QT_SEED %s)",
                BOUND.get(),
                REFUSED.get(),
                examples(),
                System.getProperty("QT_SEED", "random"))));
  }

  private static String es6(double d) {
    return CanonicalJson.toText(NODES.numberNode(d));
  }

  // ---------------------------------------------------------------------------------------------
  // The pairs of the issue

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.1",
        "1e5",
        "1.50",
        "-0.0",
        "0e-400",
        "9007199254740992.0",
        "100.0000000000000",
        "5e-324",
        "1.7976931348623157e308",
        "2.2250738585072014E-308",
        "1e-310",
        "0.30000000000000004"
      })
  void aNumberThatIsItsNearestDoubleIsBoundAndSentAsWritten(String literal) {
    ObjectNode request = json("{\"a\":1,\"n\":" + literal + ",\"z\":[true]}");

    EnvelopeBinder.Bound bound = bind(request);

    ObjectNode received = StrictJson.parseObject(bound.stdin());
    assertThat(received.get("n").decimalValue()).isEqualTo(request.get("n").decimalValue());
    assertThat(new String(bound.stdin(), StandardCharsets.UTF_8))
        .startsWith("{\"a\":1,\"n\":" + request.get("n").decimalValue() + ",\"z\":[true],");
    ObjectNode bare =
        EnvelopeVerifier.verify(received, new Expectation(ACTION, scope(), ID, REVISION));
    // What the provider reads at full precision is the value the digest bound.
    assertThat(bare.get("n").decimalValue())
        .isEqualByComparingTo(new BigDecimal(CanonicalJson.toText(request.get("n"))));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "9007199254740993.0    | 9007199254740992.0    | 9007199254740992",
        "100.000000000000001   | 100                   | 100",
        "1e-400                | 0                     | 0",
        "-1e-400               | 0                     | 0",
        "2e-324                | 0                     | 0",
        "0.1000000000000000055 | 0.1                   | 0.1",
        "1.00000000000000001e300 | 1e300               | 1e+300",
        "4.9406564584124654e-324 | 5e-324              | 5e-324"
      })
  void aNumberTheDigestWouldRoundIsRefusedNamingItAndItsPointer(
      String literal, String twin, String nearest) {
    ObjectNode request = json("{\"a\":{\"b/c\":[0," + literal + "]}}");
    ObjectNode sameDigest = json("{\"a\":{\"b/c\":[0," + twin + "]}}");
    // The defect: both share one digest although a provider reading decimals acts on different
    // values.
    assertThat(ExecutionEnvelope.requestDigest(request))
        .isEqualTo(ExecutionEnvelope.requestDigest(sameDigest));

    assertThatThrownBy(() -> bind(request))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
              assertThat(e.getMessage())
                  .startsWith(
                      "request number "
                          + new BigDecimal(literal)
                          + " at `/a/b~1c/1` is not exactly a double: its nearest double is "
                          + nearest
                          + ",");
            });
    bind(sameDigest);
  }

  @Test
  void anInfiniteNumberKeepsItsCanonicalFormMessage() {
    assertThatThrownBy(() -> bind(json("{\"n\":1e400}")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
              assertThat(e.getMessage()).startsWith("request has no canonical JSON form: ");
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1e-999999999",
        "-1e-999999999",
        "1.5e-2147483000",
        "123456789012345678901234567890e-999999990",
        "0.00000000000000000000000000000000000000000000000000000000000000000000001e-999"
      })
  void hugeNegativeExponentsAreRefusedQuickly(String literal) {
    long start = System.nanoTime();
    assertThatThrownBy(() -> bind(json("{\"n\":" + literal + "}")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.getMessage()).contains("its nearest double is 0,"));
    assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
  }

  @Test
  void aLongLiteralIsComparedExactlyAndBoundedly() {
    // 1000 characters (the parser's limit): 0.1 followed by zeros is exactly 0.1.
    String tenths = "0.1" + "0".repeat(997);
    bind(json("{\"n\":" + tenths + "}"));
    String off = "0.1" + "0".repeat(996) + "1";
    assertThatThrownBy(() -> bind(json("{\"n\":" + off + "}")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.getMessage()).contains("request number 0.100000000000"));
  }

  @Test
  void aPointerIsEscapedAndCut() {
    ObjectNode request = NODES.objectNode();
    request.set(
        "k~\u001b\u202e\uD83D\uDE00" + "x".repeat(100), NODES.numberNode(new BigDecimal("1e-400")));
    assertThatThrownBy(() -> bind(request))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("at `/k~0\\u001B\\u202E\uD83D\uDE00xxx")
                    .contains("...`")
                    .doesNotContain("\u001b"));
  }

  @Test
  void aBinaryDoubleIsCheckedAsJacksonWritesIt() {
    // JDK 17 writes this double with 18 digits, while its ES6 form is 243933839663657380.
    double d = 2.43933839663657376E17;
    ObjectNode request = NODES.objectNode();
    request.put("n", d);
    assertThat(new String(StrictJson.toCompactBytes(request), StandardCharsets.US_ASCII))
        .isEqualTo("{\"n\":2.43933839663657376E17}");
    assertThatThrownBy(() -> bind(request))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.getMessage()).contains("its nearest double is 243933839663657380"));
    ObjectNode plain = NODES.objectNode();
    plain.put("n", 0.1);
    plain.put("f", 0.5f);
    bind(plain);
  }

  // ---------------------------------------------------------------------------------------------
  // Properties over doubles at the boundaries

  /** Doubles where decimal forms are hardest: subnormals, range ends, 2^53 ± k, powers of ten. */
  static Gen<Double> boundaryDoubles() {
    return in -> {
      int kind = (int) in.next(Constraint.between(0, 9));
      long k = in.next(Constraint.between(0, 3));
      double d =
          switch (kind) {
            case 0 -> Double.longBitsToDouble(in.next(Constraint.between(1, (1L << 52) - 1)));
            case 1 -> Double.MIN_VALUE * (k + 1);
            case 2 -> step(Double.MIN_NORMAL, k - 2);
            case 3 -> step(Double.MAX_VALUE, -k);
            case 4 -> (double) ((1L << 53) + k - 2);
            case 5 -> step(9007199254740992.0, k - 2);
            case 6 -> step(Math.pow(10, in.next(Constraint.between(-323, 308))), k - 1);
            case 7 -> Double.parseDouble("1e" + in.next(Constraint.between(-324, 308)));
            case 8 -> (double) in.next(Constraint.between(-(1L << 53), 1L << 53)) / (k + 1);
            default -> {
              double r = Double.longBitsToDouble(in.next(Constraint.none()));
              yield Double.isFinite(r) ? r : 0.25;
            }
          };
      return in.next(Constraint.between(0, 1)) == 1 ? -d : d;
    };
  }

  private static double step(double d, long ulps) {
    for (long i = 0; i < Math.abs(ulps); i++) {
      d = ulps < 0 ? Math.nextDown(d) : Math.nextUp(d);
    }
    return Double.isFinite(d) ? d : Double.MAX_VALUE;
  }

  @Test
  void everyEs6FormIsBoundAndReachesTheProviderWithTheDigestedValue() {
    qt().withExamples(examples())
        .forAll(boundaryDoubles())
        .checkAssert(
            d -> {
              String text = es6(d);
              if (text.indexOf('.') < 0 && text.indexOf('e') < 0) {
                text += ".0"; // strict parsing refuses integer literals beyond 2^53
              }
              ObjectNode request = json("{\"n\":" + text + ",\"m\":[" + text + "]}");
              EnvelopeBinder.Bound bound = bind(request);
              ObjectNode received = StrictJson.parseObject(bound.stdin());
              BigDecimal digested = new BigDecimal(CanonicalJson.toText(request.get("n")));
              assertThat(received.get("n").decimalValue()).isEqualByComparingTo(digested);
              assertThat(received.get("n").decimalValue().doubleValue())
                  .isEqualTo(d == 0 ? 0.0 : d);
              BOUND.incrementAndGet();
              assertThat(ExecutionEnvelope.requestDigest(request))
                  .isEqualTo(
                      ExecutionEnvelope.requestDigest(
                          json("{\"n\":" + exactText(d) + ",\"m\":[" + d + "]}")));
            });
  }

  @Test
  void aDecimalPerturbedBeyondDoublePrecisionIsRefused() {
    qt().withExamples(examples())
        .forAll(boundaryDoubles(), in -> in.next(Constraint.between(1, 9)))
        .checkAssert(
            (d, digit) -> {
              BigDecimal exact = new BigDecimal(es6(d));
              // One non-zero digit 26 places below the leading digit (1e-400 for zero): beyond
              // the 17 a double holds, so no double's ES6 form can equal it.
              int lead = exact.signum() == 0 ? -400 : exact.precision() - exact.scale() - 1;
              BigDecimal delta = BigDecimal.valueOf(digit).scaleByPowerOfTen(lead - 26);
              BigDecimal sum = exact.signum() < 0 ? exact.subtract(delta) : exact.add(delta);
              BigDecimal perturbed = sum.scale() == 0 ? sum.setScale(1) : sum;
              ObjectNode request = json("{\"n\":" + perturbed + "}");
              assertThatThrownBy(() -> bind(request))
                  .isInstanceOfSatisfying(
                      LoopxException.class,
                      e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
                        assertThat(e.getMessage())
                            .startsWith("request number " + cut(perturbed.toString()));
                      });
              REFUSED.incrementAndGet();
            });
  }

  /** The fast path agrees with the exact comparison on the decimals it accepts. */
  @Test
  void fifteenDigitDecimalsInTheNormalRangeAreAlwaysTheirEs6Form() {
    qt().withExamples(20000)
        .forAll(
            in -> {
              long digits = in.next(Constraint.between(1, 999_999_999_999_999L));
              int exponent = (int) in.next(Constraint.between(-314, 314));
              return BigDecimal.valueOf(digits).scaleByPowerOfTen(exponent);
            })
        .checkAssert(
            v -> {
              JsonNode node = NODES.numberNode(v);
              boolean exact =
                  Double.isFinite(v.doubleValue())
                      && new BigDecimal(CanonicalJson.toText(node)).compareTo(v) == 0;
              if (ExactNumbers.alwaysExact(v)) {
                assertThat(exact).as("%s", v).isTrue();
              }
            });
  }

  /** The exact binary value of {@code d} as a JSON number literal that is not an integer. */
  private static String exactText(double d) {
    BigDecimal b = new BigDecimal(d);
    return (b.scale() <= 0 ? b.setScale(1) : b).toString();
  }

  private static String cut(String s) {
    return s.length() <= 64 ? s : s.substring(0, 61);
  }
}
