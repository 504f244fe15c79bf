package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end through the real {@code target/loopx.jar}: what the CLI hands to providers
 * (docs/contract/cli.md#provider-environment). A shell provider writes its whole environment to a
 * file beside its package; the CLI runs with its own state password and an arbitrary secret in its
 * environment.
 */
class ProviderEnvironmentIT {
  @TempDir Path tmp;

  private static final Map<String, String> CLI_ENVIRONMENT =
      Map.of(
          "LC_ALL", "C",
          "LANG", "C",
          "LOOPX_STATE_JDBC_PASSWORD", "fleet-trust-anchor",
          "LOOPX_STATE_JDBC_USER", "loopx",
          "MY_CLOUD_SECRET", "s3cret",
          "WANTED_VAR", "yes");

  private ObjectNode json(JarProcess loopx, int exitCode, List<String> args)
      throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("--runtime-root", tmp.resolve("root").toString(), "--format", "json"));
    Cli.Result r = loopx.run(all);
    assertThat(r.exitCode()).as("loopx %s: %s %s", all, r.stdout(), r.stderr()).isEqualTo(exitCode);
    return r.json();
  }

  /**
   * An extension {@code envdump} whose provider writes {@code env} to stderr: its receipt's {@code
   * stderr_tail} (the CLI runs standalone extensions isolated, so the package is read-only).
   */
  private static Path envDump(Path dir) throws IOException {
    return Cli.writePackage(
        dir,
        "envdump",
        "1.0.0",
        """
        #!/bin/sh
        [ "$1" = "--doctor" ] && exit 0
        cat >/dev/null
        env >&2
        echo '{"ok":true}'
        """);
  }

  @Test
  void providersGetTheAllowListAndTheAddedNamesButNeverTheClisSecrets() throws Exception {
    JarProcess loopx = new JarProcess(tmp, CLI_ENVIRONMENT);
    Path pkg = tmp.resolve("envdump");
    Path manifest = envDump(pkg);
    Path request = Files.writeString(tmp.resolve("request.json"), "{\"schema_version\":\"x_v0\"}");
    json(loopx, 0, List.of("extension", "install", "--manifest", manifest.toString(), "--execute"));

    ObjectNode receipt =
        json(
            loopx,
            0,
            List.of(
                "extension",
                "run",
                "envdump",
                "--input-json",
                request.toString(),
                "--execute",
                "--provider-env",
                "WANTED_VAR"));

    assertThat(receipt.get("status").stringValue()).isEqualTo("succeeded");
    List<String> env = receipt.get("stderr_tail").stringValue().lines().toList();
    assertThat(env)
        .as("the provider's environment")
        .contains("WANTED_VAR=yes", "LC_ALL=C", "LANG=C", "LOOPX_EXTENSION_ID=envdump")
        .anyMatch(l -> l.startsWith("PATH="))
        .noneMatch(l -> l.startsWith("LOOPX_STATE_JDBC_"))
        .noneMatch(l -> l.startsWith("MY_CLOUD_SECRET="))
        .noneMatch(l -> l.contains("fleet-trust-anchor") || l.contains("s3cret"));

    // Without the option the added name is not handed on either.
    ObjectNode plain =
        json(
            loopx,
            0,
            List.of(
                "extension", "run", "envdump", "--input-json", request.toString(), "--execute"));
    assertThat(plain.get("stderr_tail").stringValue().lines().toList())
        .noneMatch(l -> l.startsWith("WANTED_VAR="))
        .contains("LC_ALL=C");

    // The CLI's own state credentials cannot be handed on, even when named.
    ObjectNode refused =
        json(
            loopx,
            2,
            List.of(
                "extension",
                "run",
                "envdump",
                "--input-json",
                request.toString(),
                "--execute",
                "--provider-env",
                "LOOPX_STATE_JDBC_PASSWORD"));
    Cli.assertErrorPacket(refused, "usage");
    assertThat(refused.get("error").stringValue())
        .contains("never hands its own state credentials");
  }

  /**
   * A provider {@code #!/usr/bin/env python3} on a PATH whose {@code python3} is a shim script (as
   * a version manager installs it) is refused with the way forward, and {@code --provider-path}
   * with a directory whose {@code python3} is a binary makes it install and run.
   */
  @Test
  void aShimOnThePathNamesTheFixAndProviderPathIsIt() throws Exception {
    Path shims = Files.createDirectories(tmp.resolve("shims"));
    Path shim = shims.resolve("python3");
    Files.writeString(shim, "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n");
    Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
    JarProcess loopx = new JarProcess(tmp, Map.of("LC_ALL", "C", "PATH", shims + ":/usr/bin:/bin"));
    Path dir = tmp.resolve("pyprov");
    Path manifest =
        Cli.writePackage(
            dir,
            "pyprov",
            "1.0.0",
            """
        #!/usr/bin/env python3
        import json, sys
        if "--doctor" in sys.argv[1:]:
            sys.exit(0)
        sys.stdin.read()
        print(json.dumps({"ok": True, "python": sys.executable}))
            """);
    Path request = Files.writeString(tmp.resolve("request.json"), "{\"schema_version\":\"x_v0\"}");

    ObjectNode refused =
        json(
            loopx,
            2,
            List.of("extension", "install", "--manifest", manifest.toString(), "--execute"));
    Cli.assertErrorPacket(refused, "entrypoint_unsupported");
    assertThat(refused.get("error").stringValue())
        .contains(
            "its interpreter `"
                + shim
                + "` is itself a `#!` script: give providers a PATH on"
                + " which `python3` is a binary, or start the entrypoint with an absolute `#!`");

    ObjectNode installed =
        json(
            loopx,
            0,
            List.of(
                "extension",
                "install",
                "--manifest",
                manifest.toString(),
                "--execute",
                "--provider-path",
                "/usr/bin:/bin"));
    assertThat(installed.get("doctor").get("status").stringValue()).isEqualTo("ready");
    ObjectNode ran =
        json(
            loopx,
            0,
            List.of(
                "extension",
                "run",
                "pyprov",
                "--input-json",
                request.toString(),
                "--execute",
                "--provider-path",
                "/usr/bin:/bin"));
    assertThat(ran.get("status").stringValue()).isEqualTo("succeeded");
  }
}
