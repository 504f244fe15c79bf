package io.loopx.runtime.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An uninstall forgets an extension's failed worker starts; a retire alone keeps counting them. */
class WorkersForgetTest {
  private static final ExtensionId ID = ExtensionId.of("gone-ext");

  @TempDir Path tmp;

  @Test
  void forgettingAnExtensionDropsItsStartCountsAndRetiringDoesNot() {
    RuntimeSpec spec =
        new RuntimeSpec(
            ProtocolId.of("gone_ext_v0"),
            new LaunchTarget.Executable("bin/missing"),
            List.of(),
            List.of(),
            List.of(),
            5,
            Optional.of(WorkerSpec.defaults()));
    try (Workers workers = new Workers(OsProcessLauncher.create(), false, WorkerEvents.NONE)) {
      // A launcher that does not exist: the start fails and is counted.
      var launch =
          LaunchRequestBuilder.of(List.of(tmp.resolve("missing").toString(), "--loopx-worker"))
              .timeout(Duration.ofSeconds(5))
              .build();
      Optional<Workers.Outcome> outcome =
          workers.call(
              ID,
              Revision.of("0123456789abcdef"),
              "a".repeat(64),
              spec,
              () -> launch,
              "{}".getBytes(StandardCharsets.UTF_8),
              CallDeadline.none(),
              () -> {});
      assertThat(outcome).isPresent();
      assertThat(outcome.get().outcome().status().wireName()).isNotEqualTo("succeeded");
      assertThat(workers.countsStarts(ID)).isTrue();

      workers.retire(ID);
      assertThat(workers.countsStarts(ID)).isTrue();

      workers.forget(ID);
      assertThat(workers.countsStarts(ID)).isFalse();
    }
  }
}
