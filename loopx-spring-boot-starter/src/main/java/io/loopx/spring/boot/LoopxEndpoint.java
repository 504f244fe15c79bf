package io.loopx.spring.boot;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.WorkerPoolSnapshot;
import java.util.List;
import org.apiguardian.api.API;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The read-only actuator endpoint {@code loopx} (docs/spring-boot.md#the-loopx-endpoint): the
 * installed extensions with their active revision, enabled bit and doctor readiness, and the live
 * worker pools. It has no write operation; nothing in it changes state or starts a provider. Spring
 * Boot exposes it over the web only when the application opts in ({@code
 * management.endpoints.web.exposure.include=loopx}).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@Endpoint(id = "loopx")
public class LoopxEndpoint {
  private final Loopx loopx;

  /** Creates the endpoint of {@code loopx}. */
  public LoopxEndpoint(Loopx loopx) {
    this.loopx = loopx;
  }

  /** Returns the installed extensions and the live worker pools, read now. */
  @ReadOperation
  public Report report() {
    List<Extension> extensions =
        loopx.list().extensions().stream()
            .map(
                e ->
                    new Extension(
                        e.id().toString(),
                        e.activeRevision().value(),
                        e.enabled(),
                        e.doctorVerified(),
                        e.rollbackAvailable(),
                        e.revisionCount()))
            .toList();
    List<WorkerPool> pools = loopx.workerPools().stream().map(WorkerPool::of).toList();
    return new Report(Loopx.VERSION, extensions, pools);
  }

  /**
   * What the endpoint reports.
   *
   * @param version this library's version
   * @param extensions the installed extensions, sorted by id
   * @param workerPools the live warm-worker pools
   */
  public record Report(String version, List<Extension> extensions, List<WorkerPool> workerPools) {}

  /**
   * One installed extension.
   *
   * @param id the extension id
   * @param activeRevision the active revision
   * @param enabled the enabled bit
   * @param doctorReady whether a fresh doctor proof covers the current runtime
   * @param rollbackAvailable whether a rollback revision is recorded
   * @param revisionCount the number of recorded revisions
   */
  public record Extension(
      String id,
      String activeRevision,
      boolean enabled,
      boolean doctorReady,
      boolean rollbackAvailable,
      int revisionCount) {}

  /**
   * One live warm-worker pool ({@link WorkerPoolSnapshot}).
   *
   * @param extension the extension
   * @param revision the revision its workers run
   * @param processes the worker processes alive or starting
   * @param inFlight the requests holding a slot
   * @param queued the requests waiting
   * @param maxProcesses the manifest's {@code max_processes}
   * @param maxInFlight the manifest's {@code max_in_flight}
   * @param maxQueued the bound of the queue
   */
  public record WorkerPool(
      String extension,
      String revision,
      int processes,
      int inFlight,
      int queued,
      int maxProcesses,
      int maxInFlight,
      int maxQueued) {

    static WorkerPool of(WorkerPoolSnapshot s) {
      return new WorkerPool(
          s.extensionId().toString(),
          s.revision().value(),
          s.processes(),
          s.inFlight(),
          s.queued(),
          s.maxProcesses(),
          s.maxInFlight(),
          s.maxQueued());
    }
  }
}
