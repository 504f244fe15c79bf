package io.loopx.runtime.internal.state;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.List;
import java.util.Optional;

/** Small manifest fixtures for state tests. */
public final class TestManifests {
  private TestManifests() {}

  public static ExtensionManifest standalone(String id, String version) {
    return new ExtensionManifest(
        ExtensionId.of(id),
        version,
        ApiRange.parse(">=1,<2"),
        List.of(),
        Optional.of(
            new RuntimeSpec(
                ProtocolId.of("test_provider_v0"),
                new LaunchTarget.Executable("bin/" + id),
                List.of(),
                List.of("--doctor"),
                List.of(),
                30)),
        List.of(),
        List.of(),
        List.of());
  }

  public static RevisionSnapshot snapshot(String id, String version) {
    return RevisionSnapshot.of(standalone(id, version), Optional.of("/opt/" + id + "/bin/" + id));
  }

  public static String identity(int n) {
    return String.format("%064x", n);
  }
}
