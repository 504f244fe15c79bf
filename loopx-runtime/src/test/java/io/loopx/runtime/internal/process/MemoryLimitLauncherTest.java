package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The memory limit of a call (docs/contract/run.md#memory-limit) with real Python processes that
 * allocate and touch memory: past the limit the kernel kills the provider and the launch ends
 * {@link LaunchOutcome#MEMORY_LIMIT}, decided from the controller's counter; under it the call
 * exits normally; the call's memory cgroup is removed either way. Skipped where no memory
 * controller is writable.
 */
class MemoryLimitLauncherTest {
  private static final long LIMIT = 256L << 20;
  private static final String ALLOCATE =
      "import sys\n"
          + "chunks = []\n"
          + "for _ in range(int(sys.argv[1]) // 16):\n"
          + "    c = bytearray(16 * 1024 * 1024)\n"
          + "    for i in range(0, len(c), 4096):\n"
          + "        c[i] = 1\n"
          + "    chunks.append(c)\n"
          + "print('{\"ok\": true}')\n";

  private OsProcessLauncher launcher;

  @BeforeEach
  void onlyWithAMemoryController() {
    launcher = OsProcessLauncher.create();
    assumeTrue(launcher.limitsMemory(), "no writable memory cgroup here");
  }

  private LaunchResult allocate(int megabytes) {
    return launcher.launch(
        LaunchRequestBuilder.of(List.of("python3", "-c", ALLOCATE, Integer.toString(megabytes)))
            .environment(ENV)
            .timeout(Duration.ofSeconds(60))
            .memoryLimit(LIMIT)
            .build());
  }

  @Test
  void aProcessThatTouchesMoreThanItsLimitIsKilledAndTheLaunchEndsMemoryLimit() {
    LaunchResult result = allocate(400);
    assertThat(result.outcome()).as(result.toString()).isEqualTo(LaunchOutcome.MEMORY_LIMIT);
    assertThat(result.exitCode()).isEmpty();
    assertThat(leftCgroups()).isEmpty();
  }

  @Test
  void aProcessUnderItsLimitExitsNormally() {
    LaunchResult result = allocate(64);
    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
    assertThat(new String(result.stdout(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"ok\": true");
    assertThat(leftCgroups()).isEmpty();
  }

  @Test
  void withoutALimitTheSameProcessIsNotKilled() {
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of("python3", "-c", ALLOCATE, "400"))
                .environment(ENV)
                .timeout(Duration.ofSeconds(60))
                .build());
    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
  }

  @Test
  void aMemoryLimitBelowTheSmallestIsRefusedByTheRequest() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                LaunchRequestBuilder.of(List.of("true"))
                    .memoryLimit(LaunchRequestRecord.MIN_MEMORY_LIMIT - 1)
                    .build())
        .isInstanceOf(io.loopx.api.InvalidValueException.class);
  }

  @Test
  void theProviderSitsInAMemoryCgroupOfItsOwnWithMemoryAndSwapLimitedTogether() {
    assumeTrue(Cgroups.locate().memory().isPresent(), "no cgroup v1 memory hierarchy here");
    String script =
        "import os\n"
            + "path = [l.split(':', 2)[2].strip() for l in open('/proc/self/cgroup')\n"
            + "        if 'memory' in l.split(':', 2)[1].split(',')][0]\n"
            + "d = '/sys/fs/cgroup/memory' + path\n"
            + "def read(n):\n"
            + "    p = os.path.join(d, n)\n"
            + "    return open(p).read().strip() if os.path.exists(p) else 'absent'\n"
            + "print(os.path.basename(path), read('memory.limit_in_bytes'),"
            + " read('memory.memsw.limit_in_bytes'))\n";
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of("python3", "-c", script))
                .environment(ENV)
                .timeout(Duration.ofSeconds(30))
                .memoryLimit(LIMIT)
                .build());
    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
    String[] seen =
        new String(result.stdout(), java.nio.charset.StandardCharsets.UTF_8).trim().split(" ");
    assertThat(seen[0]).startsWith(CallCgroup.name(""));
    assertThat(seen[1]).isEqualTo(Long.toString(LIMIT));
    assertThat(seen[2]).isIn(Long.toString(LIMIT), "absent");
    assertThat(leftCgroups()).isEmpty();
  }

  @Test
  void theMemoryHierarchyIsFoundInMountinfo(@org.junit.jupiter.api.io.TempDir Path root)
      throws IOException {
    Files.createDirectories(root.resolve("memory/m/n"));
    Cgroups.Placement placement =
        Cgroups.locate(
            List.of("40 31 0:37 / " + root + "/memory rw - cgroup cgroup rw,memory"),
            List.of("4:memory:/m/n", "0::/"));
    assertThat(placement.memory()).contains(root.resolve("memory/m/n"));
  }

  @Test
  void theOomKillCounterIsReadFromAFlatKeyedFile(@org.junit.jupiter.api.io.TempDir Path root)
      throws IOException {
    Path events = root.resolve("memory.events");
    Files.writeString(events, "low 0\nhigh 0\nmax 4\noom 1\noom_kill 2\noom_group_kill 0\n");
    assertThat(CallCgroup.counter(events, "oom_kill")).isEqualTo(2);
    assertThat(CallCgroup.counter(events, "oom")).isEqualTo(1);
    Files.writeString(events, "oom_kill_disable 0\nunder_oom 0\n");
    assertThat(CallCgroup.counter(events, "oom_kill")).isEqualTo(-1);
  }

  /** The call cgroups of this JVM left in its memory cgroup (v1) or its own cgroup (v2). */
  private static List<Path> leftCgroups() {
    Cgroups.Placement placement = Cgroups.locate();
    List<Path> left = new java.util.ArrayList<>();
    for (Path own :
        Stream.of(placement.memory(), placement.v2()).flatMap(o -> o.stream()).toList()) {
      try (Stream<Path> children = Files.list(own)) {
        children
            .filter(p -> p.getFileName().toString().startsWith(CallCgroup.name("")))
            .filter(p -> !p.getFileName().toString().contains("probe"))
            .forEach(left::add);
      } catch (IOException e) {
        // Not listable: nothing to check there.
      }
    }
    return left;
  }
}
