package io.loopx.spring.boot;

import io.loopx.runtime.IsolationPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code loopx.*} properties of the auto-configured {@link io.loopx.runtime.Loopx}
 * (docs/spring-boot.md#properties). Unset values keep the builder's defaults.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@ConfigurationProperties("loopx")
public class LoopxProperties {

  /**
   * The runtime root: with the file store, state is kept at {@code
   * <runtime-root>/extensions/state.json}. Required for the file store.
   */
  private @Nullable Path runtimeRoot;

  private final Store store = new Store();

  private final Provider provider = new Provider();

  /** Creates the properties with every default. */
  public LoopxProperties() {}

  /** Returns the runtime root, if set. */
  public @Nullable Path getRuntimeRoot() {
    return runtimeRoot;
  }

  /** Sets the runtime root. */
  public void setRuntimeRoot(@Nullable Path runtimeRoot) {
    this.runtimeRoot = runtimeRoot;
  }

  /** Returns the store properties. */
  public Store getStore() {
    return store;
  }

  /** Returns the provider properties. */
  public Provider getProvider() {
    return provider;
  }

  /** Where the activation state lives. */
  public enum StoreType {
    /** A state file under the runtime root. */
    FILE,
    /** The PostgreSQL store on the application's {@code DataSource} (loopx-store-postgresql). */
    POSTGRESQL
  }

  /** Which host environment variables providers and doctor probes inherit. */
  public enum EnvironmentPolicy {
    /** Every variable of the host environment (the builder's default). */
    INHERIT_ALL,
    /** PATH, HOME, LANG, LC_*, TZ, TMPDIR and {@code loopx.provider.allowed-variables} only. */
    ALLOW_LIST
  }

  /** The {@code loopx.store.*} properties. */
  public static class Store {
    /** The activation store: file (under the runtime root) or postgresql (the DataSource). */
    private StoreType type = StoreType.FILE;

    private final Postgresql postgresql = new Postgresql();

    /** Creates the properties with every default. */
    public Store() {}

    /** Returns the store type. */
    public StoreType getType() {
      return type;
    }

    /** Sets the store type. */
    public void setType(StoreType type) {
      this.type = type;
    }

    /** Returns the PostgreSQL store properties. */
    public Postgresql getPostgresql() {
      return postgresql;
    }
  }

  /** The {@code loopx.store.postgresql.*} properties. */
  public static class Postgresql {
    /**
     * Whether to create or upgrade the schema at startup ({@code
     * PostgresActivationStore.migrate()}, idempotent); the DataSource's role must then be allowed
     * to create tables and functions.
     */
    private boolean migrate;

    /** The bounded wait for the write lock (and a migration's advisory lock). */
    private Duration lockTimeout = Duration.ofSeconds(5);

    /** Creates the properties with every default. */
    public Postgresql() {}

    /** Returns whether the schema is migrated at startup. */
    public boolean isMigrate() {
      return migrate;
    }

    /** Sets whether the schema is migrated at startup. */
    public void setMigrate(boolean migrate) {
      this.migrate = migrate;
    }

    /** Returns the lock timeout. */
    public Duration getLockTimeout() {
      return lockTimeout;
    }

    /** Sets the lock timeout. */
    public void setLockTimeout(Duration lockTimeout) {
      this.lockTimeout = lockTimeout;
    }
  }

  /** The {@code loopx.provider.*} properties: how providers are started. */
  public static class Provider {
    /** Which host environment variables providers and doctor probes inherit. */
    private EnvironmentPolicy environment = EnvironmentPolicy.INHERIT_ALL;

    /** The variables an allow-list passes besides PATH, HOME, LANG, LC_*, TZ and TMPDIR. */
    private List<String> allowedVariables = new ArrayList<>();

    /**
     * The one PATH searched for runtimes and given to providers (default: the application's own
     * PATH).
     */
    private @Nullable String path;

    /** The most processes and threads of one provider call (default 512; 1..4194304). */
    private @Nullable Integer pidsLimit;

    /** The memory (and memory plus swap) of one provider call or worker (default 1GB). */
    private @Nullable DataSize memoryLimit;

    /** Whether receipts keep the last 4,096 bytes a provider wrote to stderr. */
    private boolean stderrTail = true;

    /** Whether providers run isolated by bubblewrap: off, when-available or required. */
    private IsolationPolicy isolation = IsolationPolicy.OFF;

    /** The host directories a manifest's runtime.access may name, by root name (e.g. data). */
    private Map<String, Path> accessRoots = new LinkedHashMap<>();

    /** Creates the properties with every default. */
    public Provider() {}

    /** Returns the environment policy. */
    public EnvironmentPolicy getEnvironment() {
      return environment;
    }

    /** Sets the environment policy. */
    public void setEnvironment(EnvironmentPolicy environment) {
      this.environment = environment;
    }

    /** Returns the allow-listed variable names. */
    public List<String> getAllowedVariables() {
      return allowedVariables;
    }

    /** Sets the allow-listed variable names. */
    public void setAllowedVariables(List<String> allowedVariables) {
      this.allowedVariables = allowedVariables;
    }

    /** Returns the provider PATH, if set. */
    public @Nullable String getPath() {
      return path;
    }

    /** Sets the provider PATH. */
    public void setPath(@Nullable String path) {
      this.path = path;
    }

    /** Returns the pids limit, if set. */
    public @Nullable Integer getPidsLimit() {
      return pidsLimit;
    }

    /** Sets the pids limit. */
    public void setPidsLimit(@Nullable Integer pidsLimit) {
      this.pidsLimit = pidsLimit;
    }

    /** Returns the memory limit, if set. */
    public @Nullable DataSize getMemoryLimit() {
      return memoryLimit;
    }

    /** Sets the memory limit. */
    public void setMemoryLimit(@Nullable DataSize memoryLimit) {
      this.memoryLimit = memoryLimit;
    }

    /** Returns whether receipts keep the stderr tail. */
    public boolean isStderrTail() {
      return stderrTail;
    }

    /** Sets whether receipts keep the stderr tail. */
    public void setStderrTail(boolean stderrTail) {
      this.stderrTail = stderrTail;
    }

    /** Returns the isolation policy. */
    public IsolationPolicy getIsolation() {
      return isolation;
    }

    /** Sets the isolation policy. */
    public void setIsolation(IsolationPolicy isolation) {
      this.isolation = isolation;
    }

    /** Returns the access roots: root name to host directory. */
    public Map<String, Path> getAccessRoots() {
      return accessRoots;
    }

    /** Sets the access roots. */
    public void setAccessRoots(Map<String, Path> accessRoots) {
      this.accessRoots = accessRoots;
    }
  }
}
