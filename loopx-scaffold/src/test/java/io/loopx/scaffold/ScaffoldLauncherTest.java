package io.loopx.scaffold;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated launcher on the real file system, run by {@code /bin/sh} as LoopX starts it: mode
 * 0755, and it runs {@code java -jar <package>/target/<id>.jar} with the arguments unchanged, from
 * {@code $JAVA_HOME/bin} when set and from PATH otherwise. A fake {@code java} prints its argv, so
 * no JVM starts.
 */
class ScaffoldLauncherTest {
  static final String ID = "loopx-example";

  @TempDir Path tmp;

  record Result(int code, List<String> lines) {}

  Result launch(Path launcher, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder();
    pb.command().add(launcher.toString());
    pb.command().addAll(List.of(args));
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("launcher finished").isTrue();
    return new Result(p.exitValue(), out.lines().toList());
  }

  Path fakeJava(String dir) throws IOException {
    Path bin = Files.createDirectories(tmp.resolve(dir).resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"" + dir + "\"\nprintf '%s\\n' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return tmp.resolve(dir);
  }

  @Test
  void launcherRunsTheBuiltJarWithJavaHomeOrPath() throws Exception {
    Path pkg = tmp.resolve("my pkg");
    Scaffold.init(ID, Optional.of(pkg), Optional.empty(), tmp, Mode.EXECUTE);
    Path launcher = pkg.resolve("bin").resolve(ID);
    Path jdk = fakeJava("jdk");
    Path onPath = fakeJava("on-path");
    String jar = pkg.resolve("bin") + "/../target/" + ID + ".jar";

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(launcher)))
        .isEqualTo("rwxr-xr-x");

    Result withJavaHome =
        launch(
            launcher,
            Map.of("JAVA_HOME", jdk.toString(), "PATH", onPath.resolve("bin") + ":/usr/bin:/bin"),
            "--doctor",
            "two words");
    assertThat(withJavaHome.code()).isZero();
    assertThat(withJavaHome.lines())
        .containsExactly(
            "jdk",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-jar",
            jar,
            "--doctor",
            "two words");

    Result fromPath =
        launch(launcher, Map.of("PATH", onPath.resolve("bin") + ":/usr/bin:/bin"), "x");
    assertThat(fromPath.code()).isZero();
    assertThat(fromPath.lines())
        .containsExactly(
            "on-path", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar, "x");
  }
}
