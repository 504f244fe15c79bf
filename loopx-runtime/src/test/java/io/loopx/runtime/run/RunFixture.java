package io.loopx.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Shell-script standalone providers installed through the real lifecycle on the real file system.
 *
 * <p>Every provider answers its doctor probe ({@code --doctor} anywhere in its argv) with exit 0
 * and otherwise runs its body. A provider with a marker writes {@code <dir>/started} first thing
 * when it is run (not when probed), so a test can prove it never started.
 */
final class RunFixture {
  static final Map<String, String> HOST_ENV = Map.of("PATH", "/usr/bin:/bin");
  static final String PROTOCOL = "demo_run_v0";

  /** The whole-group termination grace used by these tests (the product default is 1 s). */
  static final Duration GRACE = Duration.ofMillis(200);

  final Path tmp;
  final Path stateFile;
  final Loopx loopx;

  RunFixture(Path tmp) {
    this(tmp, HOST_ENV);
  }

  RunFixture(Path tmp, Map<String, String> hostEnvironment) {
    this.tmp = tmp;
    this.stateFile = tmp.resolve("root").resolve("extensions").resolve("state.json");
    this.loopx = loopx(stateFile, hostEnvironment);
  }

  static Loopx loopx(Path stateFile, Map<String, String> hostEnvironment) {
    return Loopx.builder()
        .stateFile(stateFile)
        .hostEnvironment(hostEnvironment)
        .processLauncher(OsProcessLauncher.builder().terminationGrace(GRACE).build())
        .build();
  }

  /** What a provider package looks like, beyond its script body. */
  record Spec(
      String id,
      String body,
      int timeoutSeconds,
      List<String> args,
      List<String> permissions,
      List<String> requiredPermissions,
      String extraTables) {

    static Spec of(String id, String body) {
      return new Spec(id, body, 10, List.of(), List.of(), List.of(), "");
    }

    Spec timeout(int seconds) {
      return new Spec(id, body, seconds, args, permissions, requiredPermissions, extraTables);
    }

    Spec args(String... values) {
      return new Spec(
          id, body, timeoutSeconds, List.of(values), permissions, requiredPermissions, extraTables);
    }

    Spec permissions(List<String> declared, List<String> required) {
      return new Spec(id, body, timeoutSeconds, args, declared, required, extraTables);
    }

    Spec tables(String toml) {
      return new Spec(id, body, timeoutSeconds, args, permissions, requiredPermissions, toml);
    }
  }

  /** The directory of the provider package of {@code id}. */
  Path dir(String id) {
    return tmp.resolve("packages").resolve(id);
  }

  /** The launcher script of {@code id}. */
  Path script(String id) {
    return dir(id).resolve("bin").resolve("provider");
  }

  /** The file a provider with a marker writes when it is run (not probed). */
  Path startedMarker(String id) {
    return dir(id).resolve("started");
  }

  /** Writes the package of {@code spec} and installs it (executed, doctor ready). */
  ExtensionId install(Spec spec) throws IOException {
    write(spec);
    assertThat(
            loopx
                .install(
                    LoadedManifest.load(dir(spec.id()).resolve("extension.toml")), Mode.EXECUTE)
                .doctor()
                .orElseThrow()
                .status())
        .isEqualTo(DoctorStatus.READY);
    return ExtensionId.of(spec.id());
  }

  /** Writes the package of {@code spec}: a manifest and an executable launcher script. */
  void write(Spec spec) throws IOException {
    Path bin = script(spec.id()).getParent();
    Files.createDirectories(bin);
    String script =
        "#!/bin/sh\n"
            + "for a in \"$@\"; do [ \"$a\" = \"--doctor\" ] && exit 0; done\n"
            + "DIR=$(cd \"$(dirname \"$0\")/..\" && pwd)\n"
            + ": > \"$DIR/started\"\n"
            + spec.body()
            + "\n";
    Files.writeString(script(spec.id()), script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script(spec.id()), PosixFilePermissions.fromString("rwxr-xr-x"));
    StringBuilder toml =
        new StringBuilder()
            .append("schema_version = \"loopx_extension_manifest_v0\"\n")
            .append("id = \"")
            .append(spec.id())
            .append("\"\n")
            .append("version = \"1.0.0\"\n")
            .append("requires_loopx_api = \">=1,<2\"\n");
    if (!spec.permissions().isEmpty()) {
      toml.append("permissions = ").append(tomlArray(spec.permissions())).append('\n');
    }
    toml.append("[runtime]\n")
        .append("protocol = \"")
        .append(PROTOCOL)
        .append("\"\n")
        .append("entrypoint = \"bin/provider\"\n")
        .append("doctor_args = [\"--doctor\"]\n")
        .append("timeout_seconds = ")
        .append(spec.timeoutSeconds())
        .append('\n');
    if (!spec.args().isEmpty()) {
      toml.append("args = ").append(tomlArray(spec.args())).append('\n');
    }
    if (!spec.requiredPermissions().isEmpty()) {
      toml.append("required_permissions = ")
          .append(tomlArray(spec.requiredPermissions()))
          .append('\n');
    }
    toml.append(spec.extraTables());
    Files.writeString(
        dir(spec.id()).resolve("extension.toml"), toml.toString(), StandardCharsets.UTF_8);
  }

  private static String tomlArray(List<String> values) {
    return values.stream()
        .map(v -> "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Asserts that {@code call} fails with {@code kind} and a message containing {@code text}. */
  static void assertFails(ThrowingCallable call, ErrorKind kind, String text) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e.getMessage()).contains(text);
            });
  }

  /** Whether process {@code pid} is alive (not gone, not a zombie), read from {@code /proc}. */
  static boolean alive(long pid) throws IOException {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    Optional<String> text;
    try {
      text = Optional.of(Files.readString(stat, StandardCharsets.ISO_8859_1));
    } catch (java.nio.file.NoSuchFileException e) {
      text = Optional.empty();
    }
    if (text.isEmpty()) {
      return false;
    }
    String afterName = text.get().substring(text.get().lastIndexOf(')') + 2);
    char state = afterName.charAt(0);
    return state != 'Z' && state != 'X';
  }
}
