package io.loopx.samples.cli;

import io.loopx.store.postgresql.PostgresActivationStore;
import java.util.Map;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL activation state of the CLI (docs/store-postgresql.md): a {@link
 * PostgresActivationStore} over a plain {@link PGSimpleDataSource} of the JDBC URL. The password
 * comes only from the variable {@value #PASSWORD_VARIABLE} (never from the command line, where
 * other users could read it); the user from the URL or {@value #USER_VARIABLE}. The schema must
 * exist ({@code loopx state migrate --execute}); the CLI never creates it implicitly.
 */
final class StateDatabase {
  /** The variable holding the database user, when the URL names none. */
  static final String USER_VARIABLE = "LOOPX_STATE_JDBC_USER";

  /** The variable holding the database password. */
  static final String PASSWORD_VARIABLE = "LOOPX_STATE_JDBC_PASSWORD";

  private StateDatabase() {}

  /**
   * Returns a store over {@code url} with the credentials of {@code variables}; a URL the driver
   * does not accept is a usage error. No connection is opened before the first read or write.
   */
  static PostgresActivationStore store(String url, Map<String, String> variables) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw Arguments.usage(
          "--state-jdbc-url must be a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DATABASE)");
    }
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    try {
      dataSource.setUrl(url);
    } catch (IllegalArgumentException e) {
      throw Arguments.usage("invalid --state-jdbc-url: " + e.getMessage());
    }
    String user = variables.get(USER_VARIABLE);
    if (user != null && !user.isEmpty()) {
      dataSource.setUser(user);
    }
    String password = variables.get(PASSWORD_VARIABLE);
    if (password != null && !password.isEmpty()) {
      dataSource.setPassword(password);
    }
    if (dataSource.getConnectTimeout() == 0) {
      dataSource.setConnectTimeout(10); // seconds: an unreachable server fails, never hangs
    }
    return PostgresActivationStore.of(dataSource);
  }

  /** Returns the store of {@code settings}; without a JDBC URL a usage error. */
  static PostgresActivationStore required(Settings settings, Map<String, String> variables) {
    String url =
        settings
            .stateJdbcUrl()
            .orElseThrow(
                () ->
                    Arguments.usage(
                        "this command needs the PostgreSQL state: give --state-jdbc-url URL or set "
                            + Settings.JDBC_URL_VARIABLE));
    return store(url, variables);
  }
}
