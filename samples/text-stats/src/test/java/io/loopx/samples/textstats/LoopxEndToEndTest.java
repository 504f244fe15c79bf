package io.loopx.samples.textstats;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample with the real runtime: {@code Loopx} installs {@code extension.toml}, resolving the
 * {@code java_main} class from this JVM's code path (this module's {@code target/classes}), and
 * probes the provider's doctor in a child JVM.
 */
class LoopxEndToEndTest {

  @Test
  void installExecutesTheDoctorAndTheExtensionIsReady(@TempDir Path runtimeRoot) {
    // The Java provider runs on this JVM's code path, partly in the local Maven repository under
    // root's 0700 home, which an isolated provider (uid 65534 on a root host) cannot read.
    Loopx loopx = Loopx.builder().isolation(IsolationPolicy.OFF).runtimeRoot(runtimeRoot).build();
    LoadedManifest manifest = LoadedManifest.load(Path.of("extension.toml").toAbsolutePath());

    LifecycleReceipt receipt = loopx.install(manifest, Mode.EXECUTE);

    assertThatReceipt(receipt)
        .lifecycle()
        .isExecuted()
        .isChanged()
        .hasVersion("1.0.0")
        .doctor()
        .hasStatus(DoctorStatus.READY)
        .isVerified()
        .hasNoFailure();
    assertThat(receipt.extensionId()).isEqualTo(ExtensionId.of(TextStatsProvider.EXTENSION_ID));
    assertThat(loopx.list().extensions())
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.enabled()).isTrue();
              assertThat(row.doctorVerified()).isTrue();
            });
  }
}
