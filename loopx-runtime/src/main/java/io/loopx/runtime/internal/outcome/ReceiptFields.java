package io.loopx.runtime.internal.outcome;

import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/** The receipt fields that run, dispatch and doctor receipts write by one rule. */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class ReceiptFields {
  private ReceiptFields() {}

  /** Whether a call ended well: it succeeded or, for a preview, would be attempted. */
  public static boolean ok(ProviderOutcome outcome) {
    return outcome.status() == RunStatus.SUCCEEDED || outcome.status() == RunStatus.READY;
  }

  /**
   * Writes {@code isolation} (what isolated the provider's processes) into {@code receipt} when the
   * host chose an isolation policy other than off; absent otherwise, so that receipts of hosts
   * without isolation are unchanged (docs/contract/run.md).
   */
  public static void writeIsolation(ObjectNode receipt, Optional<Isolation> isolation) {
    isolation.ifPresent(i -> receipt.put("isolation", i.wireName()));
  }

  /**
   * Writes {@code containment} and {@code memory_limit_bytes} (what contained the provider's
   * processes and the memory limit applied; {@code null} when none) into {@code receipt}.
   */
  public static void writeContainment(
      ObjectNode receipt, Optional<Containment> containment, OptionalLong memoryLimitBytes) {
    receipt.put("containment", containment.map(Containment::wireName).orElse(null));
    if (memoryLimitBytes.isPresent()) {
      receipt.put("memory_limit_bytes", memoryLimitBytes.getAsLong());
    } else {
      receipt.putNull("memory_limit_bytes");
    }
  }
}
