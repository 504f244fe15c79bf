package io.loopx.spring.boot;

import io.loopx.api.spi.BuiltinContribution;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.ProviderEnvironment;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.store.postgresql.PostgresActivationStore;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.apiguardian.api.API;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Auto-configures one {@link Loopx} bean from {@link LoopxProperties} (docs/spring-boot.md): the
 * application's {@link BuiltinContribution}, {@link LoopxListener} and {@link CallObserver} beans
 * in bean order, its one {@link DomainPolicy} bean (else deny-all), its {@link ActivationStore}
 * bean if it defines one, and every {@link LoopxBuilderCustomizer}. Backs off when the application
 * defines its own {@code Loopx}. The bean is {@linkplain Loopx#close() closed} (its workers
 * drained) when the context closes.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@AutoConfiguration(
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@EnableConfigurationProperties(LoopxProperties.class)
public class LoopxAutoConfiguration {

  /** Creates the auto-configuration (Spring calls it). */
  public LoopxAutoConfiguration() {}

  /**
   * The auto-configured {@link Loopx}.
   *
   * @throws IllegalStateException when {@code loopx.store.type=postgresql} but no store bean exists
   *     (loopx-store-postgresql or a {@code DataSource} missing)
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Loopx loopx(
      LoopxProperties properties,
      ObjectProvider<ActivationStore> store,
      ObjectProvider<DomainPolicy> policy,
      ObjectProvider<BuiltinContribution> builtins,
      ObjectProvider<LoopxListener> listeners,
      ObjectProvider<CallObserver> observers,
      ObjectProvider<LoopxBuilderCustomizer> customizers) {
    Loopx.Builder builder = Loopx.builder();
    ActivationStore given = store.getIfAvailable();
    if (given != null) {
      builder.activationStore(given);
    } else if (properties.getStore().getType() == LoopxProperties.StoreType.POSTGRESQL) {
      throw new IllegalStateException(
          "loopx.store.type=postgresql needs io.loopx:loopx-store-postgresql on the class path and"
              + " a javax.sql.DataSource bean");
    } else {
      Path root = properties.getRuntimeRoot();
      if (root == null) {
        throw new IllegalStateException(
            "loopx.runtime-root is required with loopx.store.type=file (the default)");
      }
      builder.runtimeRoot(root);
    }
    LoopxProperties.Provider provider = properties.getProvider();
    if (provider.getEnvironment() == LoopxProperties.EnvironmentPolicy.ALLOW_LIST) {
      builder.providerEnvironment(
          ProviderEnvironment.allowList(provider.getAllowedVariables().toArray(String[]::new)));
    } else if (!provider.getAllowedVariables().isEmpty()) {
      throw new IllegalStateException(
          "loopx.provider.allowed-variables is set but loopx.provider.environment is not"
              + " allow-list");
    }
    String path = provider.getPath();
    if (path != null) {
      Map<String, String> host = new HashMap<>(System.getenv());
      host.put("PATH", path);
      builder.hostEnvironment(host);
    }
    Integer pids = provider.getPidsLimit();
    if (pids != null) {
      builder.providerPidsLimit(pids);
    }
    DataSize memory = provider.getMemoryLimit();
    if (memory != null) {
      builder.providerMemoryLimit(memory.toBytes());
    }
    builder.providerStderrTail(provider.isStderrTail());
    builder.isolation(provider.getIsolation());
    provider.getAccessRoots().forEach(builder::accessRoot);
    DomainPolicy domainPolicy = policy.getIfAvailable();
    if (domainPolicy != null) {
      builder.domainPolicy(domainPolicy);
    }
    builtins.orderedStream().forEach(builder::builtin);
    listeners.orderedStream().forEach(builder::listener);
    observers.orderedStream().forEach(builder::observer);
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return builder.build();
  }

  /**
   * The PostgreSQL store on the application's {@code DataSource} when {@code
   * loopx.store.type=postgresql}; closed (its change listener stopped) with the context.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(PostgresActivationStore.class)
  @ConditionalOnProperty(name = "loopx.store.type", havingValue = "postgresql")
  public static class PostgresqlStoreConfiguration {

    /** Creates the configuration (Spring calls it). */
    public PostgresqlStoreConfiguration() {}

    /** The store; its schema migrated first when {@code loopx.store.postgresql.migrate=true}. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(ActivationStore.class)
    public PostgresActivationStore loopxActivationStore(
        LoopxProperties properties, DataSource dataSource) {
      LoopxProperties.Postgresql options = properties.getStore().getPostgresql();
      PostgresActivationStore store =
          PostgresActivationStore.builder(dataSource).lockTimeout(options.getLockTimeout()).build();
      if (options.isMigrate()) {
        store.migrate();
      }
      return store;
    }
  }
}
