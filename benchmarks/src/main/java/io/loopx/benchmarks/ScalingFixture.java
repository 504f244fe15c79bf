package io.loopx.benchmarks;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the runtime root of the scaling table (docs/PERFORMANCE.md): {@code N} installed {@code
 * #!/bin/sh} extensions, each upgraded until it records {@code R} revisions, through the library (a
 * CLI process per operation would take most of an hour at 1,000 × 5). Used by {@code
 * benchmarks/scaling.sh}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.loopx.benchmarks.ScalingFixture DIR N R}: the root is
 * {@code DIR/root}, the packages {@code DIR/packages/<id>}.
 */
public final class ScalingFixture {
  private ScalingFixture() {}

  /** Creates the fixture; fails when any operation does not end ready. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]).toAbsolutePath();
    int installed = Integer.parseInt(args[1]);
    int revisions = Integer.parseInt(args[2]);
    java.util.logging.Logger.getLogger("io.loopx").setLevel(java.util.logging.Level.OFF);
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(dir.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
    for (int i = 0; i < installed; i++) {
      String id = String.format(Locale.ROOT, "scale-ext-%04d", i);
      Path pkg = dir.resolve("packages").resolve(id);
      Files.createDirectories(pkg.resolve("bin"));
      Path launcher = pkg.resolve("bin").resolve("provider");
      Files.writeString(
          launcher,
          "#!/bin/sh\n[ \"$1\" = \"--doctor\" ] && exit 0\ncat > /dev/null\necho '{\"ok\":true}'\n",
          StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
      for (int r = 0; r < revisions; r++) {
        Path manifest = pkg.resolve("extension.toml");
        Files.writeString(manifest, manifest(id, "1.0." + r), StandardCharsets.UTF_8);
        LoadedManifest loaded = LoadedManifest.load(manifest);
        DoctorStatus status =
            (r == 0 ? loopx.install(loaded, Mode.EXECUTE) : loopx.upgrade(loaded, Mode.EXECUTE))
                .doctor()
                .orElseThrow()
                .status();
        if (status != DoctorStatus.READY) {
          throw new IllegalStateException(id + " revision " + r + " is not ready: " + status);
        }
      }
    }
  }

  static String manifest(String id, String version) {
    return "schema_version = \"loopx_extension_manifest_v0\"\n"
        + "id = \""
        + id
        + "\"\nversion = \""
        + version
        + "\"\nrequires_loopx_api = \">=1,<2\"\n"
        + "title = \"Scaling fixture\"\n"
        + "permissions = [\"bench.read\"]\n"
        + "[runtime]\nprotocol = \"scale_v0\"\nentrypoint = \"bin/provider\"\n"
        + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"bench.read\"]\n"
        + "timeout_seconds = 30\n";
  }
}
