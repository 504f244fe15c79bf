package io.loopx.runtime;

import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import java.nio.file.Path;
import java.util.Map;

/**
 * A host JVM for {@link WorkerHostDeathTest}: dispatches once to the installed warm worker under
 * the runtime root {@code args[0]}, prints {@code WORKER <pid> <hop>} (the pid of the pid hopper
 * the worker started, or -1) and waits to be killed.
 */
public final class WorkerHostMain {
  private WorkerHostMain() {}

  public static void main(String[] args) throws Exception {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(Path.of(args[0]))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new DispatchTest.Contract())
            .build();
    DispatchReceipt receipt =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request("host", "")).build(), Mode.EXECUTE);
    var hop = WorkerFixture.result(receipt).get("hop");
    System.out.println(
        "WORKER " + WorkerFixture.pid(receipt) + " " + (hop == null ? -1 : hop.longValue()));
    System.out.flush();
    System.in.read(); // until the test kills this JVM
  }
}
