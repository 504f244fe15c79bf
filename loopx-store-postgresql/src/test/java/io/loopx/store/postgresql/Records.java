package io.loopx.store.postgresql;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.List;
import java.util.Optional;

/** Entry fixtures for the store tests. */
final class Records {
  private Records() {}

  static ExtensionManifest manifest(String id, String version) {
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

  static RevisionSnapshot snapshot(String id, String version) {
    return RevisionSnapshot.of(manifest(id, version), Optional.of("/opt/" + id + "/bin/" + id));
  }

  static String identity(int n) {
    return String.format("%064x", n);
  }

  static ExtensionRecord installed(String id) {
    return ExtensionRecords.installed(snapshot(id, "1.0.0"), Optional.of(identity(1)));
  }

  static EntryChange install(String id) {
    return new EntryChange(ExtensionId.of(id), Optional.empty(), Optional.of(installed(id)));
  }

  static EntryChange toggle(ExtensionRecord r) {
    return new EntryChange(
        r.id(), Optional.of(r), Optional.of(ExtensionRecords.withEnabled(r, !r.enabled())));
  }
}
