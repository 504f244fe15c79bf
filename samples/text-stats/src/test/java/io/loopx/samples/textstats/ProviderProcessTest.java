package io.loopx.samples.textstats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider as a real child JVM, as a host starts it ({@code java -cp ... TextStatsProvider}):
 * the process boundary, the exit codes, UTF-8 on stdout under a non-UTF-8 default charset and a
 * non-English locale, a quiet stderr (slf4j-nop), and a doctor that leaves no file behind.
 */
class ProviderProcessTest {
  private static final long SAFETY_TIMEOUT_SECONDS = 60;

  private record Result(int code, byte[] stdout, String stderr) {}

  /**
   * Runs the provider in {@code work} with its own {@code user.home} and {@code java.io.tmpdir}
   * inside {@code sandbox}, a non-UTF-8 default charset and a German locale.
   */
  private static Result provider(Path sandbox, byte[] stdin, String... args)
      throws IOException, InterruptedException {
    return provider(TextStatsProvider.class, sandbox, stdin, args);
  }

  private static Result provider(Class<?> main, Path sandbox, byte[] stdin, String... args)
      throws IOException, InterruptedException {
    Path work = Files.createDirectories(sandbox.resolve("work"));
    Path home = Files.createDirectories(sandbox.resolve("home"));
    Path tmp = Files.createDirectories(sandbox.resolve("tmp"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dfile.encoding=US-ASCII");
    command.add("-Duser.language=de");
    command.add("-Duser.country=DE");
    command.add("-Duser.home=" + home);
    command.add("-Djava.io.tmpdir=" + tmp);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(work.toFile()).start();
    CompletableFuture<byte[]> out = drain(process.getInputStream());
    CompletableFuture<byte[]> err = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin);
    } catch (IOException e) {
      // the doctor does not read stdin and may already have exited: a closed pipe is fine
    }
    assertThat(process.waitFor(SAFETY_TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("provider exited in time")
        .isTrue();
    return new Result(process.exitValue(), out.join(), new String(err.join(), UTF_8));
  }

  private static CompletableFuture<byte[]> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static List<Path> contents(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(p -> !p.equals(directory)).toList();
    }
  }

  @Test
  void requestIsAnsweredInUtf8WithAQuietStderr(@TempDir Path sandbox) throws Exception {
    byte[] request =
        "{\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":\"caf\u00e9 \u4f60\u597d \ud83c\udf0d\"}"
            .getBytes(UTF_8);

    Result result = provider(sandbox, request);

    assertThat(result.stderr()).isEmpty(); // in particular no SLF4J "no providers" warning
    assertThat(result.code()).isZero();
    assertThat(new String(result.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
                + "\"extension_id\":\"loopx-text-stats\","
                + "\"request_schema_version\":\"loopx_text_stats_request_v0\","
                + "\"result\":{\"characters\":9,\"words\":3,\"lines\":1}}\n");
  }

  @Test
  void refusalIsOneEnglishObjectAndExitOne(@TempDir Path sandbox) throws Exception {
    byte[] request =
        "{\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":\"\u00e9\",\"x\":1}"
            .getBytes(UTF_8);

    Result result = provider(sandbox, request);

    assertThat(result.code()).isEqualTo(1);
    String stdout = new String(result.stdout(), UTF_8);
    assertThat(stdout)
        .startsWith(
            "{\"ok\":false,\"schema_version\":\"loopx_text_stats_response_v0\","
                + "\"error\":\"request does not match loopx_text_stats_request_v0: $: property 'x'")
        .endsWith("\"}\n")
        .containsOnlyOnce("\n");
  }

  @Test
  void doctorExitsZeroAndWritesNothingAnywhere(@TempDir Path sandbox) throws Exception {
    Result result = provider(sandbox, new byte[0], "--doctor");

    assertThat(result.code()).isZero();
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr()).isEmpty();
    assertThat(contents(sandbox))
        .containsExactlyInAnyOrder(
            sandbox.resolve("work"), sandbox.resolve("home"), sandbox.resolve("tmp"));
  }

  @Test
  void printsOfTheHandlerGoToStderrNotIntoTheResponse(@TempDir Path sandbox) throws Exception {
    byte[] request =
        "{\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":\"a b\"}".getBytes(UTF_8);

    Result result = provider(NoisyProvider.class, sandbox, request);

    assertThat(result.code()).isZero();
    assertThat(new String(result.stdout(), UTF_8))
        .startsWith("{\"ok\":true,")
        .endsWith("\"result\":{\"characters\":3,\"words\":2,\"lines\":1}}\n")
        .containsOnlyOnce("\n");
    assertThat(result.stderr()).isEqualTo("noise from the handler\n");
  }
}
