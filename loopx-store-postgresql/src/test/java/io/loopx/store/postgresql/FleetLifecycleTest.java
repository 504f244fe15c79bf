package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import io.loopx.testkit.JimfsRuntimeRoot;
import io.loopx.testkit.ManifestBuilder;
import io.loopx.testkit.Manifests;
import io.loopx.testkit.ProcessScript;
import io.loopx.testkit.TestLoopx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The lifecycle through real {@link io.loopx.runtime.Loopx} hosts that share one PostgreSQL store:
 * each host has its own file system (Jimfs) with its own copy of the provider package and scripted
 * providers; only the activation state is shared.
 */
class FleetLifecycleTest {
  static final ExtensionId ID = ExtensionId.of("demo-provider");
  static final byte[] REQUEST =
      "{\"schema_version\":\"demo_request_v0\",\"q\":\"x\"}".getBytes(StandardCharsets.UTF_8);
  static final ManifestBuilder MANIFEST =
      Manifests.implementer("demo-provider", "demo-recall")
          .protocol("demo_recall_v0")
          .permissions("demo.read")
          .requiredPermissions("demo.read");
  static final ProcessScript ANSWERS = ProcessScript.respondsWith("{\"ok\":true}");

  DataSource dataSource;
  final List<AutoCloseable> open = new ArrayList<>();

  /** The host's catalog: the public contract {@code demo-recall}. */
  static final class Contract implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CapabilityId.of("demo-recall"),
              KindToken.of("recall_contract"),
              "Demo recall",
              "active",
              Visibility.PUBLIC,
              "Recall demo things.",
              "Dispatch one real recall.",
              Optional.of("a demo"),
              Optional.of("loopx demo recall"),
              Map.of()));
    }
  }

  @BeforeEach
  void schema() {
    dataSource = EmbeddedPostgres.shared().freshSchema();
    PostgresActivationStore.of(dataSource).migrate();
  }

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** A host: its own file system and launcher, the shared store, {@code policy} for dispatch. */
  TestLoopx host(DomainPolicy policy) {
    PostgresActivationStore store = PostgresActivationStore.of(dataSource);
    TestLoopx t =
        TestLoopx.create(
            b -> b.activationStore(store).builtin(new Contract()).domainPolicy(policy));
    open.add(t);
    open.add(store);
    return t;
  }

  static DispatchRequest.Builder request() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", "demo-recall");
    scope.put("operation", "recall");
    return DispatchRequest.builder(
            CapabilityId.of("demo-recall"),
            ProtocolId.of("demo_recall_v0"),
            ActionToken.of("demo.recall"))
        .scope(scope)
        .permission(Permission.of("demo.read"));
  }

  static boolean ready(TestLoopx host) {
    return host.loopx().registry().provider(ProviderId.of(ID)).orElseThrow().state().ready();
  }

  @Test
  void oneHostsLifecycleIsEveryHostsAndADisableByAnyHostWinsAtLaunch() {
    AtomicReference<Runnable> duringPolicy = new AtomicReference<>(() -> {});
    TestLoopx a = host(DomainPolicy.allowAll());
    TestLoopx b =
        host(
            r -> {
              duringPolicy.get().run();
              return DomainPolicy.Decision.allow();
            });
    LoadedManifest onA = a.stage(MANIFEST, ANSWERS);
    b.stage(MANIFEST, ANSWERS); // the same package bytes on host B

    LifecycleReceipt installed = a.loopx().install(onA, Mode.EXECUTE);
    assertThat(installed.ok()).isTrue();

    // B never probed: the proof is of the identical runtime, so B is ready and dispatches.
    assertThat(b.loopx().state().get(ID)).isPresent();
    assertThat(ready(b)).isTrue();
    DispatchReceipt first = b.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE);
    assertThat(first.ok()).isTrue();
    assertThat(b.launcher().launchCount()).isEqualTo(1);

    // A disable committed by A while B's dispatch waits on its policy: B launches nothing.
    duringPolicy.set(() -> a.loopx().disable(ID, Mode.EXECUTE));
    assertThatThrownBy(() -> b.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.EXTENSION_DISABLED));
    assertThat(b.launcher().launchCount()).isEqualTo(1);
    duringPolicy.set(() -> {});
    assertThat(b.loopx().state().get(ID).orElseThrow().enabled()).isFalse();

    // B enables, A sees it and dispatches.
    assertThat(b.loopx().enable(ID, Mode.EXECUTE).ok()).isTrue();
    assertThat(a.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE).ok()).isTrue();
    DoctorReceipt doctor = b.loopx().doctor(ID, Mode.EXECUTE);
    assertThat(doctor.toJson().get("status").asString()).isEqualTo("ready");
    assertThat(a.loopx().state()).isEqualTo(b.loopx().state());
  }

  @Test
  void aHostWhoseLauncherDiffersSeesTheProofAsStaleUntilItsOwnDoctor() {
    TestLoopx a = host(DomainPolicy.allowAll());
    TestLoopx c = host(DomainPolicy.allowAll());
    a.loopx().install(a.stage(MANIFEST, ANSWERS), Mode.EXECUTE);
    c.stage(MANIFEST, ANSWERS);
    Path launcher = c.root().packageDirectory("demo-provider", "1.0.0").resolve("bin/provider");
    c.root()
        .writeExecutable(launcher, JimfsRuntimeRoot.launcherContent("demo-provider", "1.0.0", 2));

    assertThat(ready(a)).isTrue();
    assertThat(ready(c)).isFalse();
    assertThatThrownBy(() -> c.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE))
        .isInstanceOf(LoopxException.class);
    assertThat(c.launcher().launchCount()).isZero();

    DoctorReceipt doctor = c.loopx().doctor(ID, Mode.EXECUTE);
    assertThat(doctor.toJson().get("status").asString()).isEqualTo("ready");

    // Both runtimes are proven now: each host is ready with its own bytes.
    assertThat(ready(c)).isTrue();
    assertThat(ready(a)).isTrue();
    assertThat(c.loopx().state().get(ID).orElseThrow().doctorVerifiedIdentities()).hasSize(2);
    assertThat(a.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE).ok()).isTrue();
    assertThat(c.loopx().dispatch(request().input(REQUEST).build(), Mode.EXECUTE).ok()).isTrue();
  }
}
