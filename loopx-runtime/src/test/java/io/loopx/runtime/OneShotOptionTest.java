package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one-shot option of {@link RunRequest} and {@link DispatchRequest} on a manifest that declares
 * {@code [runtime.worker]}, with the real standard-library Python worker of {@link WorkerFixture}:
 * the call starts no worker and answers exactly as a one-shot call does; and the request values'
 * argument errors.
 */
class OneShotOptionTest {
  private static final ExtensionId SOLO = ExtensionId.of("warm-solo");

  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();
  private final List<Loopx> opened = new ArrayList<>();
  private Path dir;

  @BeforeEach
  void setUp() {
    host.tmp = tmp;
    dir = tmp.resolve("warm");
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx loopx() {
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    opened.add(loopx);
    return loopx;
  }

  /** The receipt's JSON without the provider's pid (one process each call). */
  private static ObjectNode withoutPid(Receipt receipt) {
    ObjectNode json = receipt.toJson();
    ((ObjectNode) json.get("provider_result")).remove("pid");
    return json;
  }

  private List<Long> workerPids(Loopx loopx, ExtensionId id) {
    return loopx.workers().map(w -> w.pids(id)).orElse(Collections.emptyList());
  }

  @Test
  void aOneShotDispatchStartsNoWorkerAndAnswersAsAOneShotDispatch() throws IOException {
    WorkerFixture.write(dir, "1.0.0", 10, "[runtime.worker]\n");
    Loopx loopx = loopx();
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
    byte[] body = request("once", "");

    DispatchReceipt oneShot =
        loopx.dispatch(DispatchTest.request().input(body).oneShot().build(), Mode.EXECUTE);

    assertThat(oneShot.ok()).as(oneShot.toString()).isTrue();
    assertThat(WorkerFixture.result(oneShot).get("one_shot").booleanValue()).isTrue();
    assertThat(workerPids(loopx, WorkerFixture.ID)).isEmpty();
    assertThat(WorkerFixture.descendants()).isEmpty();
    // Without the option the same manifest is served by a warm worker ...
    DispatchReceipt warm = loopx.dispatch(DispatchTest.request().input(body).build(), Mode.EXECUTE);
    assertThat(WorkerFixture.result(warm).get("served").intValue()).isEqualTo(1);
    assertThat(workerPids(loopx, WorkerFixture.ID)).containsExactly(WorkerFixture.pid(warm));
    // ... and once the workers are closed it runs one-shot: the receipt the option gave.
    loopx.close();
    DispatchReceipt closed =
        loopx.dispatch(DispatchTest.request().input(body).build(), Mode.EXECUTE);
    assertThat(withoutPid(oneShot)).isEqualTo(withoutPid(closed));
  }

  @Test
  void aOneShotRunStartsNoWorkerAndAnswersAsAOneShotRun() throws IOException {
    WorkerFixture.write(dir, "1.0.0", 10, "[runtime.worker]\n");
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \""
            + SOLO
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/worker\"\n"
            + "doctor_args = [\"--doctor\"]\ntimeout_seconds = 10\n[runtime.worker]\n");
    Loopx loopx = loopx();
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
    byte[] body = request("once", "");

    RunReceipt oneShot = loopx.run(RunRequest.of(SOLO, body).oneShot(), Mode.EXECUTE);

    assertThat(oneShot.ok()).as(oneShot.toString()).isTrue();
    assertThat(oneShot.outcome().providerResult().orElseThrow().get("one_shot").booleanValue())
        .isTrue();
    assertThat(oneShot.outcome().exitCode()).hasValue(0);
    assertThat(workerPids(loopx, SOLO)).isEmpty();
    assertThat(WorkerFixture.descendants()).isEmpty();
    RunReceipt warm = loopx.run(RunRequest.of(SOLO, body), Mode.EXECUTE);
    assertThat(warm.outcome().providerResult().orElseThrow().get("served").intValue()).isEqualTo(1);
    assertThat(workerPids(loopx, SOLO)).hasSize(1);
    loopx.close();
    RunReceipt closed = loopx.run(RunRequest.of(SOLO, body), Mode.EXECUTE);
    assertThat(withoutPid(oneShot)).isEqualTo(withoutPid(closed));
  }

  @Test
  void requestValuesRefuseBadArgumentsWithOneExceptionType() {
    byte[] body = request("a", "");
    assertThatThrownBy(() -> RunRequest.of(SOLO, body).withDeadline(Duration.ZERO))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("invalid deadline `PT0S`: must be positive");
    assertThatThrownBy(() -> DispatchTest.request().deadline(Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("invalid deadline `PT-1S`: must be positive");
    assertThatThrownBy(() -> DispatchTest.request().scope(JsonNodeFactory.instance.objectNode()))
        .isInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> DispatchTest.request().extraArgs(Collections.nCopies(33, "x")))
        .isInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> DispatchTest.request().extraArgs(List.of("a\0b")))
        .isInstanceOf(InvalidValueException.class);
    // Missing the input, the scope or the permission.
    assertThatThrownBy(() -> DispatchTest.request().build())
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("input");
    assertThatThrownBy(
            () ->
                DispatchRequest.builder(
                        DispatchTest.CAP, DispatchTest.PROTOCOL, DispatchTest.ACTION)
                    .permission(DispatchTest.READ)
                    .input(body)
                    .build())
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("scope");
    assertThatThrownBy(
            () ->
                DispatchRequest.builder(
                        DispatchTest.CAP, DispatchTest.PROTOCOL, DispatchTest.ACTION)
                    .scope(DispatchTest.scope())
                    .input(body)
                    .build())
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("permission");
    DispatchRequest built =
        DispatchTest.request().input(body).deadline(Duration.ofSeconds(2)).oneShot().build();
    assertThat(built.deadline()).contains(Duration.ofSeconds(2));
    assertThat(built.isOneShot()).isTrue();
    assertThat(RunRequest.of(SOLO, body).isOneShot()).isFalse();
  }
}
