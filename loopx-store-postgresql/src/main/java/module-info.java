/**
 * The activation state of a fleet of hosts on PostgreSQL: {@link
 * io.loopx.store.postgresql.PostgresActivationStore}, an {@link
 * io.loopx.runtime.state.ActivationStore} over a host-given {@link javax.sql.DataSource}, its
 * versioned schema, change notifications and the import of a {@code state.json}
 * (docs/store-postgresql.md).
 */
@org.jspecify.annotations.NullMarked
module io.loopx.store.postgresql {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.runtime;
  requires transitive java.sql;
  requires org.postgresql.jdbc;

  exports io.loopx.store.postgresql;
}
