package io.loopx.runtime.internal.process;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A host JVM for {@link IsolationTest}, started as {@code nobody}: {@code PROVIDER ARGUMENTS} runs
 * one isolated call of {@code PROVIDER} (its interpreter, {@code python3}, the expected executed
 * file) with {@code ARGUMENTS} on stdin and prints one JSON line: {@code {"host_uid": ..,
 * "isolation": .., "provider": <its stdout>}}.
 */
public final class IsolatedHostMain {
  private IsolatedHostMain() {}

  /**
   * Runs the host.
   *
   * @param args {@code PROVIDER ARGUMENTS}
   * @throws Exception on failure to read its own status
   */
  public static void main(String[] args) throws Exception {
    OsProcessLauncher launcher =
        OsProcessLauncher.builder().isolation(IsolationPolicy.REQUIRED).build();
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(args[0]))
                .environment(Map.of("PATH", "/usr/bin:/bin", "HOME", System.getenv("HOME")))
                .stdin(args[1].getBytes(UTF_8))
                .executable(FileStamp.read(Path.of("/usr/bin/python3").toRealPath()).orElseThrow())
                .timeout(Duration.ofSeconds(60))
                .build());
    String uid = "?";
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("Uid:")) {
        uid = line.substring(4).trim().split("\\s+")[1];
      }
    }
    String stdout = new String(result.stdout(), UTF_8).strip();
    if (stdout.isEmpty()) {
      System.out.println("FAILED " + result + " " + new String(result.stderr(), UTF_8));
      return;
    }
    System.out.println(
        "{\"host_uid\":\""
            + uid
            + "\",\"isolation\":\""
            + launcher.isolation().wireName()
            + "\",\"provider\":"
            + stdout
            + "}");
  }
}
