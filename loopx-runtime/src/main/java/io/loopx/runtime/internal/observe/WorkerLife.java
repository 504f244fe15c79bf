package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.internal.worker.WorkerEvents;
import io.loopx.runtime.run.RunFailure;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * One warm worker's life as an {@link Observer} reports it (docs/observing.md), from the moment its
 * launch began: a JFR event, a log line and a {@link WorkerEvent} when it spawned and when it
 * ended, on the thread that started or ended the worker.
 */
final class WorkerLife implements WorkerEvents.Life {
  private final ExtensionId id;
  private final Revision revision;
  private final long launched = System.nanoTime();
  private final JfrEvents.WorkerSpawn spawn = new JfrEvents.WorkerSpawn();
  private final JfrEvents.WorkerRetire retire = new JfrEvents.WorkerRetire();
  private final JfrEvents.WorkerCrash crash = new JfrEvents.WorkerCrash();

  private final System.Logger log;
  private final EventDelivery delivery;

  WorkerLife(ExtensionId id, Revision revision, System.Logger log, EventDelivery delivery) {
    this.id = id;
    this.revision = revision;
    this.log = log;
    this.delivery = delivery;
    spawn.begin();
    retire.begin();
    crash.begin();
  }

  @Override
  public void spawned(long pid) {
    Duration took = since();
    spawn.end();
    if (spawn.shouldCommit()) {
      spawn.extension = id.value();
      spawn.revision = revision.value();
      spawn.pid = pid;
      spawn.commit();
    }
    log.log(Level.DEBUG, () -> worker(pid) + " spawned in " + took.toMillis() + " ms");
    delivery.publish(List.of(WorkerEventRecord.spawned(id, revision, pid, took)));
  }

  @Override
  public void retired(long pid, WorkerEvent.Reason reason, long served) {
    Duration lifetime = since();
    retire.end();
    if (retire.shouldCommit()) {
      retire.extension = id.value();
      retire.revision = revision.value();
      retire.pid = pid;
      retire.reason = reason.wireName();
      retire.served = served;
      retire.commit();
    }
    Level level =
        switch (reason) {
          case IDLE, RECYCLED, LIFECYCLE, CLOSED -> Level.DEBUG;
          case TIMEOUT, CANCELLED -> Level.INFO;
          case MALFORMED_FRAME, UNKNOWN_RESPONSE, RESPONSE_TOO_LARGE -> Level.WARNING;
          case SPAWNED, CRASHED -> throw new IllegalArgumentException("not an end by LoopX");
        };
    log.log(
        level,
        () ->
            worker(pid)
                + " retired ("
                + reason.wireName()
                + ") after "
                + served
                + " requests in "
                + lifetime.toMillis()
                + " ms");
    delivery.publish(
        List.of(WorkerEventRecord.retired(id, revision, pid, reason, served, lifetime)));
  }

  @Override
  public void crashed(long pid, OptionalInt exitCode, RunFailure failure, long served) {
    Duration lifetime = since();
    crash.end();
    if (crash.shouldCommit()) {
      crash.extension = id.value();
      crash.revision = revision.value();
      crash.pid = pid;
      crash.failure = failure.wireName();
      crash.exitCode = exitCode.orElse(-1);
      crash.served = served;
      crash.commit();
    }
    log.log(
        Level.WARNING,
        () ->
            worker(pid)
                + " crashed ("
                + failure.wireName()
                + (exitCode.isPresent() ? ", exit " + exitCode.getAsInt() : "")
                + ") after "
                + served
                + " requests in "
                + lifetime.toMillis()
                + " ms");
    delivery.publish(
        List.of(WorkerEventRecord.crashed(id, revision, pid, exitCode, failure, served, lifetime)));
  }

  private Duration since() {
    return Duration.ofNanos(System.nanoTime() - launched);
  }

  private String worker(long pid) {
    return "loopx: worker " + id + " " + revision + " pid " + pid;
  }
}
