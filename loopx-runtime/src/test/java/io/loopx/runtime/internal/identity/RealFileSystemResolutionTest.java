package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution against the real file system, with a real shell script and {@code /bin/sh}. */
class RealFileSystemResolutionTest {
  private static final Path SH = Path.of("/bin/sh");

  @TempDir Path dir;

  @BeforeAll
  static void requiresPosixShell() {
    assumeTrue(Files.isRegularFile(SH) && Files.isExecutable(SH), "needs /bin/sh");
  }

  private Path script(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  private static RuntimeResolution.Resolved resolved(RuntimeResolution resolution) {
    assertThat(resolution).isInstanceOf(RuntimeResolution.Resolved.class);
    return (RuntimeResolution.Resolved) resolution;
  }

  @Test
  void shellScriptOnPathResolvesWithShAsInterpreterAndItsPrefixRuns() throws Exception {
    Path bin = dir.resolve("bin");
    Path launcher = script(bin.resolve("provider"), "#!/bin/sh\necho \"provider:$1\"\n");
    RuntimeResolver resolver =
        RuntimeResolver.of(
            new RuntimeEnvironment(bin.toString(), Path.of("/nonexistent/java"), List.of()));

    RuntimeResolution.Resolved r =
        resolved(resolver.resolve(new LaunchTarget.Executable("provider"), dir));

    assertThat(r.savedPath()).contains(launcher);
    assertThat(r.identityRecord())
        .contains("\"launcher\":\"" + FileIdentity.of(launcher).digest() + "\"")
        .contains("\"interpreter\":\"" + FileIdentity.of(SH).digest() + "\"");

    List<String> argv = new java.util.ArrayList<>(r.commandPrefix());
    argv.add("ok");
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    assertThat(out).isEqualTo("provider:ok\n");
  }

  @Test
  void envShebangFindsShOnTheRealPathAndEditsChangeTheIdentity() throws IOException {
    Path env = Path.of("/usr/bin/env");
    assumeTrue(Files.isRegularFile(env), "needs /usr/bin/env");
    Path launcher = script(dir.resolve("tool"), "#!/usr/bin/env sh\necho one\n");
    RuntimeResolver resolver =
        RuntimeResolver.of(
            new RuntimeEnvironment("/bin:/usr/bin", Path.of("/nonexistent/java"), List.of()));
    LaunchTarget target = new LaunchTarget.Executable("tool");

    RuntimeResolution.Resolved before =
        resolved(resolver.resolveSaved(target, Optional.of(launcher)));
    assertThat(before.identityRecord()).contains(FileIdentity.of(SH).digest());

    script(launcher, "#!/usr/bin/env sh\necho two\n");
    RuntimeResolution.Resolved after =
        resolved(resolver.resolveSaved(target, Optional.of(launcher)));
    assertThat(after.identity()).isNotEqualTo(before.identity());

    Files.delete(launcher);
    assertThat(resolver.resolveSaved(target, Optional.of(launcher)))
        .isInstanceOf(RuntimeResolution.Missing.class);
  }

  @Test
  void symlinkedLauncherIsSavedAsFound() throws IOException {
    Path real = script(dir.resolve("opt/provider-1"), "#!/bin/sh\n");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path link = Files.createSymbolicLink(bin.resolve("provider"), real);
    RuntimeResolver resolver =
        RuntimeResolver.of(
            new RuntimeEnvironment(bin.toString(), Path.of("/nonexistent/java"), List.of()));

    RuntimeResolution.Resolved r =
        resolved(resolver.resolve(new LaunchTarget.Executable("provider"), dir));

    assertThat(r.savedPath()).contains(link);
    assertThat(r.identityRecord()).contains(FileIdentity.of(real).digest());
  }
}
