package io.loopx.samples.semanticpreference;

import static io.loopx.samples.semanticpreference.Fixtures.ENV;
import static io.loopx.samples.semanticpreference.Fixtures.bare;
import static io.loopx.samples.semanticpreference.Fixtures.bound;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider as a real child JVM, as a host starts it ({@code java -cp ...
 * SemanticPreferenceProvider}, with {@code LOOPX_EXTENSION_ID} and {@code LOOPX_EXTENSION_REVISION}
 * in its environment): the expectation really comes from the process environment, stdout is UTF-8
 * under a non-UTF-8 default charset, stderr stays quiet (slf4j-nop), and the doctor leaves no file
 * behind.
 */
class ProviderProcessTest {
  private static final long SAFETY_TIMEOUT_SECONDS = 60;

  private record Result(int code, byte[] stdout, String stderr) {}

  /**
   * Runs the provider in {@code sandbox/work} with its own {@code user.home} and {@code
   * java.io.tmpdir} inside {@code sandbox}, a US-ASCII default charset, a German locale, and the
   * LoopX variables of {@code env} (no others).
   */
  private static Result provider(
      Path sandbox, Map<String, String> env, byte[] stdin, String... args)
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
    command.add(SemanticPreferenceProvider.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
    builder.environment().remove(Expectation.ID_VARIABLE);
    builder.environment().remove(Expectation.REVISION_VARIABLE);
    builder.environment().putAll(env);
    Process process = builder.start();
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
  void aBoundRequestIsAnsweredInUtf8WithAQuietStderr(@TempDir Path sandbox) throws Exception {
    byte[] request = StrictJson.toCompactBytes(bound(bare("José's accent", 2)));

    Result result = provider(sandbox, ENV, request);

    assertThat(result.stderr()).isEmpty(); // in particular no SLF4J "no providers" warning
    assertThat(result.code()).isZero();
    assertThat(new String(result.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
                + "\"items\":[{\"preference_ref\":\"pref-name-spelling\","
                + "\"summary\":\"Spell my name Jos\u00e9, with the accent.\"}]}\n");
  }

  @Test
  void withoutTheVariablesABoundRequestIsRefused(@TempDir Path sandbox) throws Exception {
    byte[] request = StrictJson.toCompactBytes(bound(bare("dark theme")));

    Result result = provider(sandbox, Map.of(), request);

    assertThat(result.code()).isEqualTo(1);
    assertThat(new String(result.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":false,\"schema_version\":\"semantic_preference_provider_response_v0\","
                + "\"error\":\"execution envelope cannot be verified: environment variable"
                + " LOOPX_EXTENSION_ID is not set; environment variable LOOPX_EXTENSION_REVISION"
                + " is not set\"}\n");
  }

  @Test
  void anUnboundRequestIsRefused(@TempDir Path sandbox) throws Exception {
    byte[] request = StrictJson.toCompactBytes(bare("dark theme"));

    Result result = provider(sandbox, ENV, request);

    assertThat(result.code()).isEqualTo(1);
    assertThat(new String(result.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":false,\"schema_version\":\"semantic_preference_provider_response_v0\","
                + "\"error\":\""
                + EnvelopeVerifier.SCHEMA_MESSAGE
                + "\"}\n");
  }

  @Test
  void doctorExitsZeroAndWritesNothingAnywhere(@TempDir Path sandbox) throws Exception {
    Result result = provider(sandbox, Map.of(), new byte[0], "--doctor");

    assertThat(result.code()).isZero();
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr()).isEmpty();
    assertThat(contents(sandbox))
        .containsExactlyInAnyOrder(
            sandbox.resolve("work"), sandbox.resolve("home"), sandbox.resolve("tmp"));
  }
}
