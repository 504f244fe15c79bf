package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.internal.process.ExecutedFile.Verdict;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The prevention half of docs/threat-model.md, P2, with real processes under every containment
 * mechanism this machine offers: the launcher compares {@code /proc/<pid>/exe} with the stamp taken
 * when the file was hashed, right after the start and before it writes stdin; another file (a
 * rename over the path, even with the same bytes) or a changed one (the same inode written or
 * touched) is killed before it ever sees its request. The provider under test is a copy of {@code
 * tee}, which writes its stdin to a file: that file tells whether the request reached it.
 */
class ExecutedFileTest {
  private static final byte[] REQUEST = "{\"request\":true}\n".getBytes(UTF_8);

  @TempDir Path dir;

  private Path tee(String name) throws IOException {
    Path copy = dir.resolve(name);
    Files.copy(
        LaunchSupport.findTool("tee").orElseThrow(), copy, StandardCopyOption.COPY_ATTRIBUTES);
    return copy;
  }

  private static LaunchResult launch(
      Enclosure enclosure, Path program, Path received, FileStamp expected) {
    OsProcessLauncher launcher =
        OsProcessLauncher.builder()
            .enclosure(enclosure)
            .terminationGrace(Duration.ofMillis(300))
            .build();
    return launcher.launch(
        new LaunchRequestRecord(
            List.of(program.toString(), received.toString()),
            ENV,
            Optional.empty(),
            REQUEST,
            Duration.ofSeconds(20),
            LaunchRequest.DEFAULT_OUTPUT_LIMIT,
            LaunchRequest.DEFAULT_OUTPUT_LIMIT,
            Optional.of(expected)));
  }

  private static boolean gotTheRequest(Path received) throws IOException {
    return Files.exists(received) && Files.size(received) > 0;
  }

  @ParameterizedTest
  @MethodSource("io.loopx.runtime.internal.process.ContainmentTest#mechanisms")
  void theHashedBinaryRunsAndGetsItsRequest(Enclosure enclosure) throws IOException {
    Path provider = tee("provider");
    FileStamp hashed = FileStamp.read(provider).orElseThrow();

    LaunchResult result = launch(enclosure, provider, dir.resolve("received"), hashed);

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(result.stdout()).isEqualTo(REQUEST);
    assertThat(Files.readAllBytes(dir.resolve("received"))).isEqualTo(REQUEST);
  }

  @ParameterizedTest
  @MethodSource("io.loopx.runtime.internal.process.ContainmentTest#mechanisms")
  void aFileRenamedOverTheHashedOneIsKilledBeforeItGetsItsRequest(Enclosure enclosure)
      throws IOException {
    Path provider = tee("provider");
    FileStamp hashed = FileStamp.read(provider).orElseThrow();
    // Same bytes, another inode: what was hashed is not what runs.
    Files.move(
        tee("unproven"),
        provider,
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);

    Path received = dir.resolve("received");
    LaunchResult result = launch(enclosure, provider, received, hashed);

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXECUTABLE_MISMATCH);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.exitCode()).isEmpty();
    assertThat(gotTheRequest(received)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.loopx.runtime.internal.process.ContainmentTest#mechanisms")
  void theHashedInodeChangedInPlaceIsKilledBeforeItGetsItsRequest(Enclosure enclosure)
      throws IOException {
    Path provider = tee("provider");
    FileStamp hashed = FileStamp.read(provider).orElseThrow();
    Files.setLastModifiedTime(provider, FileTime.from(Instant.parse("2001-02-03T04:05:06Z")));

    Path received = dir.resolve("received");
    LaunchResult result = launch(enclosure, provider, received, hashed);

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXECUTABLE_MISMATCH);
    assertThat(gotTheRequest(received)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.loopx.runtime.internal.process.ContainmentTest#mechanisms")
  void aScriptRunsWhenItsInterpreterIsTheHashedOneAndIsKilledWhenOtherBytesAreThere(
      Enclosure enclosure) throws IOException {
    Path sh = LaunchSupport.findTool("sh").orElseThrow();
    Path interpreter = dir.resolve("interpreter");
    Files.copy(sh, interpreter, StandardCopyOption.COPY_ATTRIBUTES);
    Path script = dir.resolve("script");
    // The script execs onward at once: the check may see sh or cat, never a mismatch.
    Files.writeString(script, "#!" + interpreter + "\nexec cat > \"$1\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    FileStamp hashed = FileStamp.read(interpreter).orElseThrow();
    Path received = dir.resolve("received");

    LaunchResult proven = launch(enclosure, script, received, hashed);
    assertThat(proven.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(Files.readAllBytes(received)).isEqualTo(REQUEST);

    // Another copy of sh renamed over the hashed interpreter: other bytes at the hashed path.
    Path other = dir.resolve("other");
    Files.copy(sh, other, StandardCopyOption.COPY_ATTRIBUTES);
    Files.move(
        other, interpreter, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(script, "#!" + interpreter + "\nread -r line\necho \"$line\" > \"$1\"\n");
    Files.delete(received);
    LaunchResult swapped = launch(enclosure, script, received, hashed);
    assertThat(swapped.outcome()).isEqualTo(LaunchOutcome.EXECUTABLE_MISMATCH);
    assertThat(gotTheRequest(received)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.loopx.runtime.internal.process.ContainmentTest#mechanisms")
  void aProviderThatExecsAnotherProgramIsLeftToTheDetection(Enclosure enclosure)
      throws IOException {
    Path script = ProcessFixtures.writeScript(dir.resolve("script"), "exec cat > \"$1\"");
    // Expected: a file the process never executes at its own path (a provider that execs onward
    // looks the same to the check): not killed.
    FileStamp elsewhere = FileStamp.read(tee("elsewhere")).orElseThrow();
    LaunchResult result = launch(enclosure, script, dir.resolve("received"), elsewhere);
    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(Files.readAllBytes(dir.resolve("received"))).isEqualTo(REQUEST);
  }

  @Test
  void aRequestWithoutAnExpectedFileIsNotChecked() throws IOException {
    Path provider = tee("provider");
    Files.setLastModifiedTime(provider, FileTime.from(Instant.parse("2001-02-03T04:05:06Z")));
    LaunchResult result =
        OsProcessLauncher.create()
            .launch(
                new LaunchRequestRecord(
                    List.of(provider.toString(), dir.resolve("received").toString()),
                    ENV,
                    Optional.empty(),
                    REQUEST,
                    Duration.ofSeconds(20),
                    100,
                    100));
    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXITED);
  }

  @Test
  void aProcessThatIsGoneIsLeftToTheDetection() throws IOException {
    FileStamp any = FileStamp.read(tee("provider")).orElseThrow();
    Verdict verdict =
        ExecutedFile.forThisJvm()
            .check(Long.MAX_VALUE, any, List.of("x"), System.nanoTime() + 1_000_000_000L);
    assertThat(verdict).isEqualTo(new Verdict.Undecided("gone"));
  }

  @Test
  void aProcessThatStaysInALauncherStageIsLeftToTheDetectionAfterTheBound() throws IOException {
    Path stage = tee("stage");
    ExecutedFile check = ExecutedFile.of(List.of(stage));
    FileStamp expected = FileStamp.read(tee("provider")).orElseThrow();
    ProcessBuilder builder = new ProcessBuilder(stage.toString()); // blocks reading its stdin
    Process process = builder.start();
    try {
      long started = System.nanoTime();
      Verdict verdict =
          check.check(process.pid(), expected, List.of("x"), started + 60_000_000_000L);
      assertThat(verdict).isEqualTo(new Verdict.Undecided("still in a launcher stage"));
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(ExecutedFile.STAGE_BOUND);
    } finally {
      process.destroyForcibly();
    }
  }
}
