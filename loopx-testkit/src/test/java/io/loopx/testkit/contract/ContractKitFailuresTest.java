package io.loopx.testkit.contract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.spi.BuiltinContribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kit catches broken providers: each check, run on a shell provider that breaks exactly its
 * rule, fails with an {@link AssertionError} naming the problem; and a provider that refuses
 * everything cannot pass the envelope check vacuously.
 */
class ContractKitFailuresTest {
  @TempDir Path tmp;

  /** The kit on a given manifest, its test methods called directly. */
  static final class Kit extends ProviderContractTest {
    private final Path manifest;
    private final Optional<EnvelopeBinding> binding;

    Kit(Path manifest, Optional<EnvelopeBinding> binding) {
      this.manifest = manifest;
      this.binding = binding;
    }

    static Kit standalone(Path manifest) {
      return new Kit(manifest, Optional.empty());
    }

    static Kit effectful(Path manifest) {
      return new Kit(manifest, Optional.of(Fixtures.binding()));
    }

    @Override
    protected Path manifest() {
      return manifest;
    }

    @Override
    protected ObjectNode validRequest() {
      return Fixtures.validRequest();
    }

    @Override
    protected Optional<EnvelopeBinding> envelopeBinding() {
      return binding;
    }

    @Override
    protected List<BuiltinContribution> builtins() {
      return List.of(Fixtures.contract());
    }
  }

  static final String ACCEPTS_EVERYTHING =
      """
      if [ "$1" = "--doctor" ]; then exit 0; fi
      cat > /dev/null
      echo '{"ok":true}'
      """;

  @Test
  void aDoctorThatWritesUnderHomeFails() {
    Path manifest =
        Fixtures.standalone(
            tmp.resolve("pkg"),
            "demo-home-writer",
            """
            if [ "$1" = "--doctor" ]; then echo cached > "$HOME/.demo-cache"; exit 0; fi
            cat > /dev/null; echo '{"ok":true}'
            """);

    assertThatThrownBy(
            () -> Kit.standalone(manifest).doctorExitsZeroTwiceAndLeavesNoTrace(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("files the doctor created under HOME")
        .hasMessageContaining(".demo-cache");
  }

  @Test
  void aDoctorThatWritesIntoItsWorkingDirectoryFails() {
    Path manifest =
        Fixtures.standalone(
            tmp.resolve("pkg"),
            "demo-cwd-writer",
            """
            if [ "$1" = "--doctor" ]; then
              case "$PWD" in */work) echo log > doctor.log ;; esac
              exit 0
            fi
            cat > /dev/null; echo '{"ok":true}'
            """);

    assertThatThrownBy(
            () -> Kit.standalone(manifest).doctorExitsZeroTwiceAndLeavesNoTrace(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("files the doctor created in its working directory")
        .hasMessageContaining("doctor.log");
  }

  @Test
  void aDoctorThatFailsFailsAtInstall() {
    Path manifest = Fixtures.standalone(tmp.resolve("pkg"), "demo-sick", "exit 3\n");

    assertThatThrownBy(
            () -> Kit.standalone(manifest).doctorExitsZeroTwiceAndLeavesNoTrace(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("doctor_not_ready")
        .hasMessageContaining("provider_unavailable");
  }

  @Test
  void aProviderThatAcceptsMalformedRequestsFailsAndEveryMalformationIsNamed() {
    Path manifest = Fixtures.standalone(tmp.resolve("pkg"), "demo-lax", ACCEPTS_EVERYTHING);

    assertThatThrownBy(() -> Kit.standalone(manifest).malformedRequestsAreRefused(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContainingAll(
            "EMPTY sent directly",
            "ARRAY sent directly",
            "NOT_JSON sent directly",
            "OVERSIZE sent directly",
            "MISSING_SCHEMA_VERSION through LoopX",
            "WRONG_SCHEMA_VERSION through LoopX",
            "EXTRA_KEY through LoopX",
            "status is succeeded, not provider_failed",
            "the provider exited 0");
  }

  @Test
  void anAnswerOfTwoObjectsFailsTheValidRequestCheck() {
    Path manifest =
        Fixtures.standalone(
            tmp.resolve("pkg"),
            "demo-chatty",
            """
            if [ "$1" = "--doctor" ]; then exit 0; fi
            cat > /dev/null
            echo '{"ok":true}'
            echo '{"ok":true}'
            """);

    assertThatThrownBy(
            () -> Kit.standalone(manifest).validRequestGetsExactlyOneJsonObject(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("invalid_provider_output")
        .hasMessageContaining("response_not_json_object");
  }

  @Test
  void anEffectfulProviderThatIgnoresItsEnvelopeFailsOnEveryMutation() {
    Path manifest = Fixtures.effectful(tmp.resolve("pkg"), "demo-trusting", ACCEPTS_EVERYTHING);
    Kit kit = Kit.effectful(manifest);

    assertThatThrownBy(() -> kit.everySingleFieldEnvelopeMutationIsRejected(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContainingAll(
            "schema_version changed",
            "action changed",
            "scope widened",
            "scope value",
            "extension.id changed",
            "extension.revision changed",
            "request_digest changed",
            "removed",
            "unknown field",
            "request changed after binding",
            "envelope removed");
  }

  @Test
  void aProviderThatRefusesEverythingCannotPassTheEnvelopeCheckVacuously() {
    Path manifest =
        Fixtures.effectful(
            tmp.resolve("pkg"),
            "demo-refuser",
            """
            if [ "$1" = "--doctor" ]; then exit 0; fi
            cat > /dev/null
            echo '{"ok":false,"error":"no"}'
            exit 1
            """);

    assertThatThrownBy(
            () ->
                Kit.effectful(manifest)
                    .everySingleFieldEnvelopeMutationIsRejected(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the correctly bound request, launched directly, succeeds");
  }

  @Test
  void theEnvelopeCheckIsSkippedForAStandaloneProvider() {
    Path manifest = Fixtures.standalone(tmp.resolve("pkg"), "demo-lax", ACCEPTS_EVERYTHING);

    assertThatThrownBy(
            () ->
                Kit.standalone(manifest)
                    .everySingleFieldEnvelopeMutationIsRejected(tmp.resolve("s")))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("standalone");
  }

  @Test
  void malformationsAndMutationsAreDeterministicForASeed() {
    ObjectNode valid = Fixtures.validRequest();
    for (MalformedRequest m : MalformedRequest.values()) {
      assertThat(m.render(valid, new Random(7))).isEqualTo(m.render(valid, new Random(7)));
    }
    assertThat(
            new String(MalformedRequest.WRONG_SCHEMA_VERSION.render(valid, new Random(7)), UTF_8))
        .matches("\\{\"schema_version\":\"demo_request_v[1-8]\",\"q\":\"x\"}");
    assertThat(MalformedRequest.OVERSIZE.render(valid, new Random(7))).hasSize(1_000_001);
    assertThatThrownBy(
            () ->
                MalformedRequest.EMPTY.render(
                    Fixtures.validRequest().without("schema_version"), new Random(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema_version");
  }

  // ------------------------------------------------------------------ worker mode

  /**
   * A Python worker that answers every request {@code {"ok":true}}, trusting any envelope, with
   * {@code flaw} breaking one more rule.
   */
  private Path pythonWorker(String id, String flaw) {
    Path dir = tmp.resolve("pkg");
    Path manifest =
        Fixtures.effectful(
            dir, id, "exec python3 \"$(dirname \"$0\")/worker.py\" \"$@\"\n", "[runtime.worker]\n");
    try {
      Files.writeString(
          dir.resolve("bin/worker.py"),
          """
          import json, os, sys
          FLAW = "%s"
          if "--doctor" in sys.argv:
              sys.exit(0)
          if "--loopx-worker" not in sys.argv:
              sys.stdin.read()
              print('{"ok":true}')
              sys.exit(0)
          hs = {"schema_version": "loopx_worker_handshake_v0",
                "protocol": os.environ["LOOPX_WORKER_PROTOCOL"], "pid": os.getpid()}
          if FLAW == "handshake-key":
              hs["ready"] = True
          if FLAW == "bad-features":
              hs["features"] = ["trace_context", "trace_context"]
          sys.stdout.write(json.dumps(hs) + "\\n")
          sys.stdout.flush()
          for line in sys.stdin:
              frame = json.loads(line)
              answer = json.dumps({"id": frame["id"], "response": {"ok": True}}) + "\\n"
              if FLAW == "stray":
                  sys.stdout.write("handling " + frame["id"] + "\\n")
              sys.stdout.write(answer)
              if FLAW == "twice":
                  sys.stdout.write(answer)
              sys.stdout.flush()
          sys.exit(3 if FLAW == "exit" else 0)
          """
              .formatted(flaw),
          UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return manifest;
  }

  @Test
  void aHandshakeWithAnotherKeyFailsTheWorkerCheck() {
    Kit kit = Kit.effectful(pythonWorker("demo-handshake", "handshake-key"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the keys of the handshake")
        .hasMessageContaining("ready");
  }

  @Test
  void aHandshakeWithMalformedFeaturesFailsTheWorkerCheck() {
    Kit kit = Kit.effectful(pythonWorker("demo-features", "bad-features"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the handshake's features");
  }

  @Test
  void aWorkerThatAnswersTwiceFailsTheWorkerCheck() {
    Kit kit = Kit.effectful(pythonWorker("demo-twice", "twice"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the id of the response to the only request in flight");
  }

  @Test
  void aWorkerThatWritesStrayLinesFailsTheWorkerCheck() {
    Kit kit = Kit.effectful(pythonWorker("demo-stray", "stray"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is not one JSON object")
        .hasMessageContaining("handling r0-");
  }

  @Test
  void aWorkerThatFailsAtTheEndOfItsStdinFailsTheWorkerCheck() {
    Kit kit = Kit.effectful(pythonWorker("demo-exit", "exit"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the worker's exit at the end of its stdin")
        .hasMessageContaining("3");
  }

  @Test
  void aWorkerThatTrustsEveryEnvelopeFailsOnEveryMutation() {
    Kit kit = Kit.effectful(pythonWorker("demo-trusting-worker", "none"));

    assertThatThrownBy(() -> kit.workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContainingAll(
            "MISSING_SCHEMA_VERSION (framed) through the worker",
            "EXTRA_KEY (framed) through the worker",
            "envelope mutation \"action changed",
            "envelope mutation \"request changed after binding",
            "envelope mutation \"envelope removed");
  }

  @Test
  void theWorkerCheckIsSkippedWithoutAWorkerTable() {
    Path manifest = Fixtures.effectful(tmp.resolve("pkg"), "demo-one-shot", ACCEPTS_EVERYTHING);

    assertThatThrownBy(() -> Kit.effectful(manifest).workerKeepsTheFrameProtocol(tmp.resolve("s")))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("[runtime.worker]");
  }
}
