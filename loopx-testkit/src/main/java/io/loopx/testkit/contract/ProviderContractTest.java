package io.loopx.testkit.contract;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.api.provider.ProviderMain;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.runtime.internal.conformance.EnvelopeMutations;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.apiguardian.api.API;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider contract kit: extend this class in a JUnit 5 test, implement {@link #manifest()} and
 * {@link #validRequest()}, and the inherited tests check, with the real runtime on a temporary
 * runtime root and real processes, that the provider keeps the LoopX provider protocol
 * (docs/contract/run.md#provider-protocol): its doctor, its refusal of malformed requests, its
 * answer to the valid one, and, where they apply, its envelope check and its worker's frame
 * protocol. What each check sends and expects is in docs/testkit.md#the-checks.
 *
 * <pre>{@code
 * class MyProviderContractTest extends ProviderContractTest {
 *   protected Path manifest() { return Path.of("extension.toml"); }
 *   protected ObjectNode validRequest() {
 *     return JsonNodeFactory.instance.objectNode().put("schema_version", "my_request_v0");
 *   }
 * }
 * }</pre>
 *
 * <p>Each test installs into its own temporary runtime root, so tests are independent; generated
 * values come from a {@link Random} seeded with {@link #seed()}, so a failure reproduces. The test
 * methods are public so that a subclass in any package or module can run them. Implemented
 * (extended) by extension authors; new hooks only ever get defaults.
 */
@API(status = API.Status.STABLE, since = "1.0")
public abstract class ProviderContractTest {
  /** The default seed of the generated inputs. */
  public static final long DEFAULT_SEED = 0x5EED_C0DEL;

  /** Creates the test. */
  protected ProviderContractTest() {}

  /** Returns the provider's {@code extension.toml}. */
  protected abstract Path manifest();

  /**
   * Returns a request the provider must answer successfully. It must hold a string {@code
   * schema_version} (the malformations change or drop it). For an effectful provider this is the
   * bare request, without an envelope: the kit binds one.
   */
  protected abstract ObjectNode validRequest();

  /**
   * Returns what an effectful provider's capability command binds into its envelope; empty (the
   * default) for a standalone provider, whose envelope check is then skipped.
   */
  protected Optional<EnvelopeBinding> envelopeBinding() {
    return Optional.empty();
  }

  /**
   * Returns the host's built-in contributions the provider needs, for example the capability
   * contract an effectful provider implements (default: none).
   */
  protected List<BuiltinContribution> builtins() {
    return List.of();
  }

  /**
   * Returns the environment the host hands to providers (default: this process's); the kit replaces
   * {@code HOME} with an empty temporary directory.
   */
  protected Map<String, String> hostEnvironment() {
    return System.getenv();
  }

  /** Returns the seed of the generated inputs (default {@link #DEFAULT_SEED}). */
  protected long seed() {
    return DEFAULT_SEED;
  }

  private ProviderHarness harness(Path sandbox) {
    return ProviderHarness.create(
        sandbox, manifest(), hostEnvironment(), builtins(), envelopeBinding());
  }

  // ------------------------------------------------------------------ doctor

  /**
   * The doctor exits 0 twice under LoopX (install and {@code doctor --execute}) and once directly,
   * and creates no file under the temporary {@code HOME} or working directory.
   */
  @Test
  public void doctorExitsZeroTwiceAndLeavesNoTrace(@TempDir Path sandbox) {
    ProviderHarness h = harness(sandbox);

    LifecycleReceipt install = h.install();
    assertThatReceipt(install)
        .doctor()
        .as("the doctor at install")
        .hasStatus(DoctorStatus.READY)
        .isVerified();
    assertThatReceipt(h.doctor())
        .doctor()
        .as("a second doctor probe")
        .hasStatus(DoctorStatus.READY)
        .isVerified();
    assertThat(ProviderHarness.contents(h.home))
        .as("files the doctor created under HOME")
        .isEmpty();

    LaunchResult direct = h.direct(h.runtime().doctorArgs(), new byte[0]);
    assertThat(direct.outcome() == LaunchOutcome.EXITED && direct.exitedWithZero())
        .as("a direct doctor probe exits 0: %s", ProviderHarness.describe(direct))
        .isTrue();
    assertThat(ProviderHarness.contents(h.work))
        .as("files the doctor created in its working directory")
        .isEmpty();
    assertThat(ProviderHarness.contents(h.home))
        .as("files the doctor created under HOME")
        .isEmpty();
  }

  // ------------------------------------------------------------------ malformed requests

  /** Every {@link MalformedRequest} is refused with a non-zero exit and {@code "ok": false}. */
  @Test
  public void malformedRequestsAreRefused(@TempDir Path sandbox) {
    ProviderHarness h = harness(sandbox);
    ObjectNode valid = validRequest();
    h.install();
    Random random = new Random(seed());
    SoftAssertions softly = new SoftAssertions();
    for (MalformedRequest m : MalformedRequest.values()) {
      byte[] request = m.render(valid, random);
      ProviderOutcome outcome;
      try {
        outcome = h.send(request);
      } catch (LoopxException e) {
        softly
            .assertThat(m.rejectedByLoopx() && e.kind() == ErrorKind.REQUEST_INVALID)
            .as("%s: LoopX refused it with [%s] %s", m, e.kind().wireName(), e.getMessage())
            .isTrue();
        LaunchResult direct = h.direct(List.of(), request);
        softly
            .assertThat(Refusals.refusal(direct))
            .as("%s sent directly: %s", m, ProviderHarness.describe(direct))
            .isEmpty();
        continue;
      }
      softly
          .assertThat(Refusals.refusal(outcome))
          .as("%s through LoopX: %s", m, ProviderHarness.describe(outcome))
          .isEmpty();
    }
    softly.assertAll();
  }

  // ------------------------------------------------------------------ the valid request

  /**
   * The valid request succeeds: exit 0 and stdout exactly one JSON object within the 1,000,000-byte
   * limit.
   */
  @Test
  public void validRequestGetsExactlyOneJsonObject(@TempDir Path sandbox) {
    ProviderHarness h = harness(sandbox);
    byte[] request = StrictJson.toCompactBytes(validRequest());
    assertThat(request.length)
        .as("the valid request's size in bytes")
        .isLessThanOrEqualTo(ProviderMain.MAX_REQUEST_BYTES);
    h.install();

    ProviderOutcome outcome = h.send(request);

    assertThat(outcome.status())
        .as("the valid request: %s", ProviderHarness.describe(outcome))
        .isEqualTo(RunStatus.SUCCEEDED);
    assertThat(outcome.exitCode()).as("exit code").hasValue(0);
    assertThat(outcome.providerResult()).as("the answer object").isPresent();
  }

  // ------------------------------------------------------------------ the envelope

  /**
   * For an effectful provider: the bound valid request succeeds when launched directly, and every
   * single-field mutation of its envelope is refused. Skipped for a standalone provider.
   */
  @Test
  public void everySingleFieldEnvelopeMutationIsRejected(@TempDir Path sandbox) {
    Optional<EnvelopeBinding> binding = envelopeBinding();
    Assumptions.assumeTrue(
        binding.isPresent(), "a standalone provider receives no execution envelope");
    ProviderHarness h = harness(sandbox);
    ObjectNode valid = validRequest();
    h.install();
    EnvelopeBinding b = binding.get();
    ObjectNode bound = b.bind(h.id, h.revision(), valid);

    LaunchResult baseline = h.direct(List.of(), StrictJson.toCompactBytes(bound));
    assertThat(baseline.outcome() == LaunchOutcome.EXITED && baseline.exitedWithZero())
        .as(
            "the correctly bound request, launched directly, succeeds (else the mutations prove"
                + " nothing): %s",
            ProviderHarness.describe(baseline))
        .isTrue();

    SoftAssertions softly = new SoftAssertions();
    for (EnvelopeMutations.Mutation m : EnvelopeMutations.of(bound, new Random(seed()))) {
      LaunchResult result = h.direct(List.of(), StrictJson.toCompactBytes(m.request()));
      softly
          .assertThat(Refusals.refusal(result))
          .as("envelope mutation \"%s\": %s", m.description(), ProviderHarness.describe(result))
          .isEmpty();
    }
    softly.assertAll();
  }

  // ------------------------------------------------------------------ worker mode

  /** How many valid requests {@link #workerKeepsTheFrameProtocol} sends at once. */
  private static final int WORKER_BURST = 8;

  /** A request the worker check sends and must see refused. */
  private record Refusable(String description, ObjectNode request) {}

  /**
   * For a provider whose manifest declares {@code [runtime.worker]} (docs/contract/worker.md): the
   * worker, started directly as LoopX starts it (the installed runtime, {@code args} + {@code
   * runtime.worker.args}, {@code LOOPX_WORKER_PROTOCOL}, the empty sandbox directory), keeps the
   * frame protocol. Skipped without the table.
   *
   * <ul>
   *   <li>its first line is the handshake, with exactly the keys {@code schema_version} ({@code
   *       loopx_worker_handshake_v0}), {@code protocol} (the runtime's) and {@code pid} (an
   *       integer) and optionally {@code features} (at most 16 distinct names), before any request
   *       is sent;
   *   <li>one frame at a time: the valid request (bound with its own envelope for an effectful
   *       provider) gets exactly one frame {@code {"id","response"}} with its id and a response
   *       that is not {@code "ok": false}; then each malformation that LoopX passes on (bound, for
   *       an effectful provider) and, for an effectful provider, each single-field mutation of the
   *       envelope, is answered {@code "ok": false}, each followed by the valid request again,
   *       which must still succeed: the worker verifies every request's own envelope and keeps no
   *       state between them;
   *   <li>{@value #WORKER_BURST} valid requests written at once get exactly one response each (any
   *       order), with their ids;
   *   <li>at the end of its stdin the worker writes nothing more and exits 0.
   * </ul>
   */
  @Test
  public void workerKeepsTheFrameProtocol(@TempDir Path sandbox) {
    ProviderHarness h = harness(sandbox);
    RuntimeSpec spec = h.runtime();
    Assumptions.assumeTrue(
        spec.worker().isPresent(), "the manifest declares no [runtime.worker] table");
    WorkerSpec worker = spec.worker().get();
    ObjectNode valid = validRequest();
    h.install();
    Optional<EnvelopeBinding> binding = envelopeBinding();
    ObjectNode bound = binding.map(b -> b.bind(h.id, h.revision(), valid)).orElse(valid);
    Random random = new Random(seed());
    List<Refusable> refusable = new ArrayList<>();
    for (MalformedRequest m : MalformedRequest.values()) {
      if (!m.rejectedByLoopx()) {
        ObjectNode bare = StrictJson.parseObject(m.render(valid, random));
        refusable.add(
            new Refusable(
                m + " (framed)", binding.map(b -> b.bind(h.id, h.revision(), bare)).orElse(bare)));
      }
    }
    if (binding.isPresent()) {
      for (EnvelopeMutations.Mutation m : EnvelopeMutations.of(bound, random)) {
        refusable.add(new Refusable("envelope mutation \"" + m.description() + "\"", m.request()));
      }
    }

    Duration timeout = Duration.ofSeconds(spec.timeoutSeconds());
    SoftAssertions softly = new SoftAssertions();
    try (WorkerSession w = WorkerSession.start(h.workerCommand(worker), h.work, timeout)) {
      WorkerFrameChecks.checkHandshake(w, spec.protocol().value());
      int n = 0;
      ObjectNode first =
          WorkerFrameChecks.exchange(w, WorkerFrameChecks.frameId(n++, random), bound);
      softly
          .assertThat(Refusals.okFalse(first))
          .as("the valid request, framed, is not refused: %s", first)
          .isPresent();
      for (Refusable r : refusable) {
        ObjectNode response =
            WorkerFrameChecks.exchange(w, WorkerFrameChecks.frameId(n++, random), r.request());
        softly
            .assertThat(Refusals.okFalse(response))
            .as("%s through the worker: %s", r.description(), response)
            .isEmpty();
        ObjectNode again =
            WorkerFrameChecks.exchange(w, WorkerFrameChecks.frameId(n++, random), bound);
        softly
            .assertThat(Refusals.okFalse(again))
            .as("the valid request right after %s is not refused: %s", r.description(), again)
            .isPresent();
      }

      Set<String> sent = new LinkedHashSet<>();
      for (int i = 0; i < WORKER_BURST; i++) {
        String id = WorkerFrameChecks.frameId(n++, random);
        sent.add(id);
        w.send(WorkerFrameChecks.frame(id, bound));
      }
      Set<String> answered = new LinkedHashSet<>();
      for (int i = 0; i < WORKER_BURST; i++) {
        ObjectNode f =
            WorkerFrameChecks.responseFrame(
                w, "response " + (i + 1) + " of a burst of " + WORKER_BURST);
        String id = f.get("id").stringValue();
        assertThat(sent).as("the id of a burst response").contains(id);
        assertThat(answered.add(id)).as("a second response to the request %s", id).isTrue();
        softly
            .assertThat(Refusals.okFalse((ObjectNode) f.get("response")))
            .as("burst request %s is not refused: %s", id, f)
            .isPresent();
      }

      w.closeStdin();
      Optional<WorkerSession.Line> extra = w.nextLine("the end of stdout after stdin's end");
      assertThat(extra.map(WorkerSession.Line::text))
          .as("the worker's stdout after the last response and stdin's end%s", w.describe())
          .isEmpty();
      OptionalInt exit = w.awaitExit();
      assertThat(exit)
          .as(
              "the worker's exit at the end of its stdin (within %d s)%s",
              timeout.toSeconds(), w.describe())
          .hasValue(0);
    }
    softly.assertAll();
  }
}
