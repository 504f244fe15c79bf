package io.loopx.store.postgresql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;

/**
 * The change listener of a store (package-private): a daemon thread that {@code LISTEN}s on {@code
 * loopx_state} on one connection of the data source and, after every notification (or at the latest
 * every poll interval), reads the generation and reports a new one. When the connection is lost it
 * reads the generation on a fresh connection every poll interval and reconnects, so a change is
 * reported within the poll interval even without notifications.
 */
final class ChangeListener implements AutoCloseable {
  private final DataSource dataSource;
  private final Duration pollInterval;
  private final LongConsumer onChange;
  private final Thread thread;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch listened = new CountDownLatch(1);
  private volatile boolean closed;
  private volatile @Nullable Connection connection;
  private long reported = -1;

  private ChangeListener(DataSource dataSource, Duration pollInterval, LongConsumer onChange) {
    this.dataSource = dataSource;
    this.pollInterval = pollInterval;
    this.onChange = onChange;
    this.thread = new Thread(this::run, "loopx-postgresql-listener");
    thread.setDaemon(true);
  }

  static ChangeListener start(DataSource dataSource, Duration pollInterval, LongConsumer onChange) {
    ChangeListener l = new ChangeListener(dataSource, pollInterval, onChange);
    l.thread.start();
    return l;
  }

  private void run() {
    try {
      while (!closed) {
        try (Connection c = dataSource.getConnection()) {
          connection = c;
          c.setAutoCommit(true);
          try (PreparedStatement listen = c.prepareStatement("LISTEN " + Sql.CHANNEL)) {
            listen.execute();
          }
          PGConnection pg = c.unwrap(PGConnection.class);
          int waitMillis = (int) Math.max(1, pollInterval.toMillis());
          while (!closed) {
            check(c); // after LISTEN: nothing committed from here on is missed
            listened.countDown();
            pg.getNotifications(waitMillis);
          }
        } catch (SQLException | RuntimeException e) {
          // Lost: poll on fresh connections until one LISTENs again.
          connection = null;
          pollUntilReconnect();
        } finally {
          connection = null;
        }
      }
    } finally {
      stopped.countDown();
    }
  }

  private void pollUntilReconnect() {
    if (closed) {
      return;
    }
    try (Connection c = dataSource.getConnection()) {
      check(c);
    } catch (SQLException | RuntimeException e) {
      // the server is unreachable: try again after the poll interval
    }
    pause();
  }

  private void check(Connection c) throws SQLException {
    long generation = Sql.generation(c, Sql.GENERATION);
    if (generation != reported) {
      boolean first = reported < 0;
      reported = generation;
      if (!first) {
        try {
          onChange.accept(generation);
        } catch (RuntimeException e) {
          // a failing host callback does not stop the listener
        }
      }
    }
  }

  private void pause() {
    try {
      closing.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  /** Waits until the listener has {@code LISTEN}ed once and read its first generation. */
  boolean awaitListening(Duration timeout) throws InterruptedException {
    return listened.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    closed = true;
    closing.countDown();
    Connection c = connection;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing
      }
    }
    try {
      stopped.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
