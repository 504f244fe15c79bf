package io.loopx.runtime.conformance;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.spi.Isolation;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Receipt of a conformance check ({@code loopx_extension_verify_v0}): {@code ok} is true when no
 * check failed. A preview lists the checks it would run, each {@code skipped}. Implemented by LoopX
 * only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ConformanceReceipt extends Receipt {
  /** Returns {@link Mode#PREVIEW} for a preview, {@link Mode#EXECUTE} when the checks ran. */
  Mode mode();

  /** Returns the provider's extension. */
  ExtensionId extensionId();

  /** Returns every check, in the order they ran. */
  List<ConformanceCheck> checks();

  /**
   * Returns the isolation the checks ran under ({@code isolation}: {@code bwrap}, or {@code none}
   * when {@link ProviderConformance.Builder#isolation} asked for it and no usable tool was found);
   * empty, and the field absent, for a preview and when isolation was off.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  default Optional<Isolation> isolation() {
    return Optional.empty();
  }
}
