package io.loopx.store.postgresql;

import static io.loopx.store.postgresql.ActivationStoreContract.A;
import static io.loopx.store.postgresql.ActivationStoreContract.B;
import static io.loopx.store.postgresql.ActivationStoreContract.assertKind;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.Mode;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The roles and grants of docs/store-postgresql.md on a real server: the schema migrated by an
 * owner role; a login role with exactly the documented grants runs every operation of the store
 * (install, enable, disable, upgrade, uninstall, reads, the change listener, an import); a role
 * without them fails typed and writes nothing: {@code io_failed} (SQLSTATE 42501) for a missing
 * table privilege, {@code state_unreadable} naming the grant when it lacks {@code USAGE} on the
 * schema (it then sees no LoopX table at all).
 */
class LeastPrivilegeTest {
  private static final AtomicInteger ROLES = new AtomicInteger();

  EmbeddedPostgres pg;
  String schema;
  String owner;
  DataSource ownerSource;

  @BeforeEach
  void migrateAsOwner() {
    pg = EmbeddedPostgres.shared();
    int n = ROLES.incrementAndGet();
    schema = "grants" + n;
    owner = "loopx_owner" + n;
    pg.execute("CREATE ROLE " + owner + " LOGIN");
    pg.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + owner);
    ownerSource = as(owner);
    PostgresActivationStore.of(ownerSource).migrate();
  }

  /** Creates a login role and returns its data source on the schema. */
  private DataSource role(String name) {
    pg.execute("CREATE ROLE " + name + " LOGIN");
    return as(name);
  }

  private DataSource as(String role) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(pg.url("postgres"));
    ds.setUser(role);
    ds.setCurrentSchema(schema);
    ds.setConnectTimeout(10);
    return ds;
  }

  /** The grants of docs/store-postgresql.md, for the schema and role of this test. */
  private void documentedGrants(String app) {
    pg.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + app);
    pg.execute("GRANT SELECT ON " + schema + ".loopx_schema_version TO " + app);
    pg.execute("GRANT SELECT, UPDATE ON " + schema + ".loopx_state_generation TO " + app);
    pg.execute(
        "GRANT SELECT, INSERT, UPDATE, DELETE ON " + schema + ".loopx_extension_state TO " + app);
  }

  @Test
  void theDocumentedGrantsRunEveryOperation() throws Exception {
    String app = "loopx_app" + ROLES.get();
    DataSource appSource = role(app);
    documentedGrants(app);
    LinkedBlockingQueue<Long> told = new LinkedBlockingQueue<>();
    try (PostgresActivationStore store =
        PostgresActivationStore.builder(appSource).onChange(told::add).build()) {
      assertThat(store.awaitListening(Duration.ofSeconds(30))).isTrue();
      ExtensionRecord a =
          store.update("install", List.of(Records.install("alpha-ext"))).installed(A);
      a = store.update("disable", List.of(Records.toggle(a))).installed(A);
      a = store.update("enable", List.of(Records.toggle(a))).installed(A);
      ActivationState upgraded = store.update("upgrade", HostMain.count(store.read(), List.of(A)));
      assertThat(HostMain.counter(upgraded.installed(A))).isEqualTo(2);
      store.update("install", List.of(Records.install("beta-ext")));
      ExtensionRecord b = store.entry(B).orElseThrow();
      ActivationState removed =
          store.update("uninstall", List.of(new EntryChange(B, Optional.of(b), Optional.empty())));
      assertThat(removed.extensions().keySet()).containsExactly(A);
      long generation = store.generation();
      Long seen = told.poll(30, TimeUnit.SECONDS);
      while (seen != null && seen < generation) {
        seen = told.poll(30, TimeUnit.SECONDS);
      }
      assertThat(seen).isEqualTo(generation);
      StateImport.Plan plan =
          StateImport.from(
              new ActivationState(new TreeMap<>(Map.of(B, Records.installed("beta-ext")))),
              store,
              Mode.EXECUTE);
      assertThat(plan.added()).containsExactly(B);
      assertThat(PostgresActivationStore.of(ownerSource).read().extensions()).hasSize(2);
    }
  }

  @Test
  void aRoleWithoutTheGrantsFailsTypedAndWritesNothing() {
    PostgresActivationStore owners = PostgresActivationStore.of(ownerSource);
    owners.update("install", List.of(Records.install("alpha-ext")));
    long generation = owners.generation();

    // without USAGE on the schema the role sees no LoopX table at all
    String none = "loopx_none" + ROLES.get();
    PostgresActivationStore nothing = PostgresActivationStore.of(role(none));
    assertKind(nothing::read, ErrorKind.STATE_UNREADABLE, "grant this role USAGE on the schema");

    // USAGE alone: every table is refused
    String usage = "loopx_usage" + ROLES.get();
    PostgresActivationStore usageOnly = PostgresActivationStore.of(role(usage));
    pg.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + usage);
    assertKind(usageOnly::read, ErrorKind.IO_FAILED, "permission denied");

    String reader = "loopx_reader" + ROLES.get();
    DataSource readerSource = role(reader);
    pg.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + reader);
    pg.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + reader);
    PostgresActivationStore readOnly = PostgresActivationStore.of(readerSource);
    ExtensionRecord a = readOnly.read().installed(A);
    assertKind(
        () -> readOnly.update("disable", List.of(Records.toggle(a))),
        ErrorKind.IO_FAILED,
        "permission denied");
    assertKind(readOnly::migrate, ErrorKind.IO_FAILED, "permission denied");

    assertThat(owners.generation()).isEqualTo(generation);
    assertThat(owners.read().installed(A)).isEqualTo(a);
  }
}
