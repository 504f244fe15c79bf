package io.loopx.samples.service;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tests' HTTP client of one service instance on a loopback port, and what they share: the
 * sample's extension, a word-count request and a polling wait with a safety-net timeout.
 */
final class Client {
  static final Duration SAFETY = Duration.ofSeconds(30);
  static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private final int port;

  Client(int port) {
    this.port = port;
  }

  /** The sample's extension manifest (the module's {@code extension/} directory). */
  static Path extensionManifest() {
    return Path.of("extension", "extension.toml").toAbsolutePath();
  }

  /** A {@code word_count_request_v0} request of {@code text}. */
  static String countRequest(String text) {
    return JSON.createObjectNode()
        .put("schema_version", "word_count_request_v0")
        .put("text", text)
        .toString();
  }

  /** One HTTP answer: the status, the body and the {@code Retry-After} header ("" if none). */
  record Answer(int status, String body, String retryAfter) {
    JsonNode json() {
      return JSON.readTree(body);
    }

    String kind() {
      return json().path("kind").asString("");
    }
  }

  Answer post(String path, String body) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
            .build());
  }

  Answer get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static Answer send(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(request, (n, v) -> true).timeout(SAFETY).build(),
            HttpResponse.BodyHandlers.ofString(UTF_8));
    return new Answer(
        response.statusCode(),
        response.body(),
        response.headers().firstValue("Retry-After").orElse(""));
  }

  /** Whether process {@code pid} is alive (its {@code /proc} entry exists). */
  static boolean alive(long pid) {
    return Files.exists(Path.of("/proc", Long.toString(pid)));
  }

  /** Waits (a safety net, not a delay) for {@code condition}. */
  static boolean eventually(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + SAFETY.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(10);
    }
    return condition.getAsBoolean();
  }
}
