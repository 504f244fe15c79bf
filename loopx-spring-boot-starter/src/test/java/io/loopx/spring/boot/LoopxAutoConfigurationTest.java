package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.ProviderEnvironment;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.spi.Isolation;
import io.loopx.store.postgresql.PostgresActivationStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link LoopxAutoConfiguration} in an {@link ApplicationContextRunner}: every {@code loopx.*}
 * property observed through a real {@link Loopx} and real provider processes ({@link Fixtures}),
 * the collected beans, the back-off and the close on context shutdown.
 */
class LoopxAutoConfigurationTest {
  @TempDir Path tmp;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LoopxAutoConfiguration.class))
        .withPropertyValues("loopx.runtime-root=" + tmp.resolve("root"));
  }

  /** The host environment a doctor probe of {@code demo-sh} saw (its {@code env} output). */
  private static Map<String, String> probeEnvironment(Path dir) throws IOException {
    return Files.readAllLines(dir.resolve("env.txt")).stream()
        .filter(l -> l.indexOf('=') > 0)
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')),
                l -> l.substring(l.indexOf('=') + 1),
                (a, b) -> b));
  }

  @Test
  void theFileStoreKeepsStateUnderTheRuntimeRoot() {
    runner()
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              Loopx loopx = context.getBean(Loopx.class);
              Fixtures.installSh(loopx, tmp);
              assertThat(tmp.resolve("root/extensions/state.json")).isRegularFile();
              assertThat(loopx.list().extensions()).hasSize(1);
              assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();
            });
  }

  @Test
  void withoutARuntimeRootTheFileStoreFailsTheStartup() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LoopxAutoConfiguration.class))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessage(
                        "loopx.runtime-root is required with loopx.store.type=file (the default)"));
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnLoopx() {
    runner()
        .withUserConfiguration(OwnLoopx.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).hasBean("ownLoopx");
              assertThat(context).doesNotHaveBean("loopx");
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnLoopx {
    @Bean(destroyMethod = "close")
    Loopx ownLoopx() {
      return Loopx.builder().stateFile(Path.of("own-state.json")).build();
    }
  }

  @Test
  void collectsTheBuiltinsThePolicyTheListenersAndTheObservers() {
    runner()
        .withUserConfiguration(HostBeans.class)
        .run(
            context -> {
              HostBeans host = context.getBean(HostBeans.class);
              Loopx loopx = context.getBean(Loopx.class);

              DispatchReceipt sum = loopx.dispatch(Fixtures.sum(), Mode.EXECUTE);
              assertThat(sum.ok()).as(sum.toString()).isTrue();
              assertThat(host.decided).containsExactly("demo-sum");
              assertThat(host.observed).contains("loopx.dispatch");

              Fixtures.installSh(loopx, tmp);
              assertThat(host.events).anyMatch(e -> e.contains("LifecycleTransition"));
              assertThat(host.observed).contains("loopx.lifecycle");
              assertThat(host.customized).isTrue();
            });
  }

  @Test
  void withoutAPolicyBeanEffectfulDispatchesAreDenied() {
    runner()
        .withBean(BuiltinContribution.class, Fixtures.Catalog::new)
        .run(
            context -> {
              Loopx loopx = context.getBean(Loopx.class);
              assertThatThrownBy(() -> loopx.dispatch(Fixtures.sum(), Mode.EXECUTE))
                  .isInstanceOfSatisfying(
                      LoopxException.class,
                      e -> assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED));
            });
  }

  @Test
  void twoPoliciesWithoutAPrimaryFailTheStartup() {
    runner()
        .withBean("first", DomainPolicy.class, DomainPolicy::allowAll)
        .withBean("second", DomainPolicy.class, DomainPolicy::denyAll)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(NoUniqueBeanDefinitionException.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class HostBeans {
    final List<String> decided = new CopyOnWriteArrayList<>();
    final List<String> observed = new CopyOnWriteArrayList<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    volatile boolean customized;

    @Bean
    BuiltinContribution catalog() {
      return new Fixtures.Catalog();
    }

    @Bean
    DomainPolicy policy() {
      return request -> {
        decided.add(request.capabilityId().value());
        return DomainPolicy.allowAll().decide(request);
      };
    }

    @Bean
    LoopxListener listener() {
      return (LoopxEvent event) -> events.add(event.getClass().getSimpleName() + " " + event);
    }

    @Bean
    CallObserver observer() {
      return call -> {
        observed.add(call.name());
        return ended -> {};
      };
    }

    @Bean
    LoopxBuilderCustomizer customizer() {
      return builder -> customized = true;
    }
  }

  @Test
  void anAllowListKeepsOnlyTheNamedVariablesAndThePathIsTheConfiguredOne() throws IOException {
    // a variable of this JVM's environment outside the always-allowed ones
    List<String> candidates =
        System.getenv().keySet().stream()
            .filter(n -> !ProviderEnvironment.ALWAYS_ALLOWED.contains(n) && !n.startsWith("LC_"))
            .filter(n -> !n.startsWith("LOOPX_"))
            .sorted()
            .toList();
    assertThat(candidates).as("this JVM's environment").hasSizeGreaterThanOrEqualTo(2);
    String kept = candidates.get(0);
    String dropped = candidates.get(1);
    Path extra = tmp.resolve("extra-bin");
    Files.createDirectories(extra);
    runner()
        .withPropertyValues(
            "loopx.provider.environment=allow-list",
            "loopx.provider.allowed-variables=" + kept,
            "loopx.provider.path=/usr/bin:/bin:" + extra)
        .run(
            context -> {
              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              Map<String, String> env = probeEnvironment(dir);
              assertThat(env).containsEntry(kept, System.getenv(kept));
              assertThat(env).doesNotContainKey(dropped);
              // the one PATH: the package's bin/ first, then exactly the configured one
              assertThat(env.get("PATH")).endsWith("/bin:/usr/bin:/bin:" + extra);
              assertThat(env.get("PATH").split(":")).hasSize(4);
            });
  }

  @Test
  void byDefaultProvidersInheritTheWholeEnvironment() {
    String variable =
        System.getenv().keySet().stream()
            .filter(n -> !ProviderEnvironment.ALWAYS_ALLOWED.contains(n) && !n.startsWith("LC_"))
            .filter(n -> !n.startsWith("LOOPX_"))
            .sorted()
            .findFirst()
            .orElseThrow();
    runner()
        .run(
            context -> {
              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              assertThat(probeEnvironment(dir)).containsEntry(variable, System.getenv(variable));
            });
  }

  @Test
  void allowedVariablesWithoutTheAllowListPolicyFailTheStartup() {
    runner()
        .withPropertyValues("loopx.provider.allowed-variables=HOSTNAME")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("loopx.provider.environment is not allow-list"));
  }

  @Test
  void theStderrTailIsKeptByDefaultAndDroppedWhenOff() {
    runner()
        .run(
            context -> {
              Loopx loopx = context.getBean(Loopx.class);
              Fixtures.installSh(loopx, tmp);
              DoctorReceipt doctor = loopx.doctor(Fixtures.SH, Mode.EXECUTE);
              assertThat(doctor.stderrTail().orElseThrow()).contains("doctor-stderr");
            });
    runner()
        .withPropertyValues(
            "loopx.provider.stderr-tail=false", "loopx.runtime-root=" + tmp.resolve("root2"))
        .run(
            context -> {
              Loopx loopx = context.getBean(Loopx.class);
              Fixtures.installSh(loopx, tmp.resolve("second"));
              DoctorReceipt doctor = loopx.doctor(Fixtures.SH, Mode.EXECUTE);
              assertThat(doctor.ready()).isTrue();
              assertThat(doctor.stderrTail()).isEmpty();
            });
  }

  @Test
  void theLimitsReachTheBuilder() {
    runner()
        .withPropertyValues("loopx.provider.pids-limit=64", "loopx.provider.memory-limit=256MB")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Loopx loopx = context.getBean(Loopx.class);
              Fixtures.installSh(loopx, tmp);
              DoctorReceipt doctor = loopx.doctor(Fixtures.SH, Mode.EXECUTE);
              // where the probe ran in a memory cgroup, the limit it got is the configured one
              doctor
                  .memoryLimitBytes()
                  .ifPresent(limit -> assertThat(limit).isEqualTo(256L * 1024 * 1024));
            });
    runner()
        .withPropertyValues("loopx.provider.pids-limit=0")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("0"));
    runner()
        .withPropertyValues("loopx.provider.memory-limit=1MB")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("1048576"));
  }

  @Test
  void isolationAndAccessRootsReachTheBuilder() throws IOException {
    // The isolated probe runs as an unprivileged uid: the package must be reachable.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path data = Files.createDirectory(tmp.resolve("data"));
    runner()
        .withPropertyValues(
            "loopx.provider.isolation=required", "loopx.provider.access-roots.data=" + data)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Loopx loopx = context.getBean(Loopx.class);
              Fixtures.installSh(loopx, tmp);
              DoctorReceipt doctor = loopx.doctor(Fixtures.SH, Mode.EXECUTE);
              assertThat(doctor.ready()).as(doctor.toJson().toString()).isTrue();
              assertThat(doctor.isolation()).hasValue(Isolation.BUBBLEWRAP);
            });
    runner()
        .withPropertyValues("loopx.provider.access-roots.data=" + tmp.resolve("missing"))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("must be an existing directory"));
  }

  @Test
  void postgresqlWithoutTheStoreModuleFailsTheStartupByName() {
    runner()
        .withClassLoader(new FilteredClassLoader(PostgresActivationStore.class))
        .withPropertyValues("loopx.store.type=postgresql")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("loopx.store.type=postgresql needs"));
  }

  @Test
  void closingTheContextRetiresTheWarmWorkers() throws Exception {
    List<Long> pids = new ArrayList<>();
    runner()
        .withBean(BuiltinContribution.class, Fixtures.Catalog::new)
        .withBean(DomainPolicy.class, DomainPolicy::allowAll)
        .run(
            context -> {
              Loopx loopx = context.getBean(Loopx.class);
              Path dir = Fixtures.installWorker(loopx, tmp);
              DispatchRequest request = Fixtures.recall("first");
              DispatchReceipt receipt = loopx.dispatch(request, Mode.EXECUTE);
              assertThat(receipt.ok()).as(receipt.toString()).isTrue();
              assertThat(loopx.workerPools()).hasSize(1);
              assertThat(loopx.workerPools().get(0).extensionId())
                  .isEqualTo(ExtensionId.of("warm-recall"));
              pids.add(Long.parseLong(Files.readString(dir.resolve("seen/first")).trim()));
              assertThat(Path.of("/proc", Long.toString(pids.get(0)))).exists();
            });
    // the runner closed the context: Loopx.close() retired the worker and killed its tree
    assertThat(pids).hasSize(1);
    assertThat(Fixtures.eventually(() -> !Files.exists(Path.of("/proc", pids.get(0).toString()))))
        .as("worker pid %s gone", pids.get(0))
        .isTrue();
  }

  @Test
  void theMetadataNamesEveryProperty() throws IOException {
    String metadata;
    try (var in =
        LoopxAutoConfigurationTest.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated metadata").isNotNull();
      metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    for (String name :
        Arrays.asList(
            "loopx.runtime-root",
            "loopx.store.type",
            "loopx.store.postgresql.migrate",
            "loopx.store.postgresql.lock-timeout",
            "loopx.provider.environment",
            "loopx.provider.allowed-variables",
            "loopx.provider.path",
            "loopx.provider.pids-limit",
            "loopx.provider.memory-limit",
            "loopx.provider.stderr-tail",
            "loopx.provider.isolation",
            "loopx.provider.access-roots")) {
      assertThat(metadata).contains("\"name\": \"" + name + "\"");
    }
  }
}
