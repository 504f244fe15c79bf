package io.loopx.api.provider;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.TraceContext;
import io.loopx.api.internal.WorkerWire;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the protocol of a {@code java_main} provider (docs/contract/run.md#provider-protocol) around
 * a {@link ProviderHandler}: the doctor probe ({@value #DOCTOR_FLAG}), one request read from stdin
 * and answered on stdout, or a warm worker ({@value #WORKER_FLAG}, {@link #serveWorker},
 * docs/contract/worker.md).
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   ProviderMain.run(args, new MyProvider()); // exits with the protocol's exit code
 * }
 * }</pre>
 *
 * <p>A request that cannot be read, or a handler that throws, is answered with exactly one {@code
 * {"ok":false,...}} object and exit code 1; what each mode reads, writes and exits with is in
 * docs/run.md#providermain-for-java-providers. Stateless and thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ProviderMain {
  /** The argument that selects the doctor probe. */
  public static final String DOCTOR_FLAG = "--doctor";

  /** The largest request accepted on stdin, in bytes (the host's limit, docs/contract/run.md). */
  public static final int MAX_REQUEST_BYTES = 1_000_000;

  /** The longest {@code error} message written, in UTF-16 code units. */
  public static final int MAX_ERROR_CHARS = 4_096;

  /** The {@code schema_version} of an error object when the handler cannot name its own. */
  public static final String FALLBACK_SCHEMA_VERSION = "loopx_provider_response_v0";

  /** Exit code of a successful doctor probe or an {@code "ok": true} response. */
  public static final int EXIT_OK = 0;

  /** Exit code of a failed doctor probe, a refused request or an {@code ok} other than true. */
  public static final int EXIT_FAILED = 1;

  /** The argument that selects worker mode: the default {@code runtime.worker.args}. */
  public static final String WORKER_FLAG = "--loopx-worker";

  /** The variable the host sets to the runtime's protocol when it starts a worker. */
  public static final String WORKER_PROTOCOL_VARIABLE = "LOOPX_WORKER_PROTOCOL";

  /** The {@code schema_version} of the worker handshake line. */
  public static final String WORKER_HANDSHAKE_SCHEMA = "loopx_worker_handshake_v0";

  /**
   * The longest frame line either way, in bytes: the 1,000,000-byte request or response cap plus
   * the envelope bound (16,384 bytes of scope, 1,024 for the rest of the envelope and the frame).
   */
  public static final int MAX_FRAME_BYTES = MAX_REQUEST_BYTES + 16_384 + 1_024;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ProviderMain() {}

  /**
   * Runs {@code handler} on this process's stdin, stdout and stderr, then terminates the JVM with
   * the exit code of {@link #execute}. Call it from {@code main}.
   *
   * <p>While the handler runs, {@link System#out} is redirected to stderr, so that stray prints of
   * the handler or its libraries cannot corrupt the one JSON object on stdout.
   */
  public static void run(String[] args, ProviderHandler handler) {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    int code;
    System.setOut(stderr);
    try {
      code = execute(args, handler, System.in, stdout, stderr);
    } finally {
      System.setOut(stdout);
    }
    stdout.flush();
    stderr.flush();
    System.exit(code);
  }

  /**
   * Runs {@code handler} on the given streams and returns the exit code instead of exiting; the
   * streams are not closed. This is {@link #run} without the process around it, for tests.
   *
   * @return {@link #EXIT_OK} or {@link #EXIT_FAILED}
   */
  public static int execute(
      String[] args,
      ProviderHandler handler,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr) {
    return execute(args, handler, stdin, stdout, stderr, System::getenv);
  }

  /** {@link #execute} reading the environment variables from {@code environment} (tests). */
  static int execute(
      String[] args,
      ProviderHandler handler,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr,
      Function<String, @Nullable String> environment) {
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(stdin, "stdin");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    if (Arrays.asList(args).contains(DOCTOR_FLAG)) {
      return doctor(handler, stderr);
    }
    if (Arrays.asList(args).contains(WORKER_FLAG)) {
      String protocol = environment.apply(WORKER_PROTOCOL_VARIABLE);
      if (protocol == null || protocol.isEmpty()) {
        report(
            stderr, "worker mode needs " + WORKER_PROTOCOL_VARIABLE + " (set by the host)", null);
        return EXIT_FAILED;
      }
      return serveWorker(handler, protocol, stdin, stdout, stderr);
    }
    Optional<TraceContext> trace =
        TraceContext.parse(
            environment.apply(WorkerWire.TRACEPARENT_VARIABLE),
            environment.apply(WorkerWire.TRACESTATE_VARIABLE));
    return serve(handler, trace, stdin, stdout, stderr);
  }

  /**
   * Runs {@code handler} as a warm worker (docs/contract/worker.md) on the given streams: writes
   * the handshake line {@code {"schema_version":"loopx_worker_handshake_v0","protocol":<protocol>,
   * "pid":<this process>,"features":["trace_context"]}}, then answers each request frame {@code
   * {"id":…,"request":{…}}} (with an optional {@code "trace":{"traceparent":…[,"tracestate":…]}},
   * passed to {@link ProviderHandler#handle(ObjectNode, Optional)}) in order, one at a time, with
   * exactly one frame {@code {"id":…,"response":{…}}}: the handler's response, or the same {@code
   * ok:false} object as a one-shot run when the handler fails. Returns {@link #EXIT_OK} at the end
   * of stdin, {@link #EXIT_FAILED} on a line that is not a request frame (a malformed {@code trace}
   * among them) or longer than {@value #MAX_FRAME_BYTES} bytes (it cannot be answered), or when
   * stdout breaks.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public static int serveWorker(
      ProviderHandler handler,
      String protocol,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr) {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(protocol, "protocol");
    InputStream in = new java.io.BufferedInputStream(stdin, 65_536);
    try {
      ObjectNode handshake = NODES.objectNode();
      handshake.put("schema_version", WORKER_HANDSHAKE_SCHEMA);
      handshake.put("protocol", protocol);
      handshake.put("pid", ProcessHandle.current().pid());
      handshake.putArray(WorkerWire.FEATURES_KEY).add(WorkerWire.TRACE_CONTEXT_FEATURE);
      stdout.write(StrictJson.toCompactBytes(handshake));
      stdout.write('\n');
      stdout.flush();
      while (true) {
        byte[] line = readLine(in);
        if (line == null) {
          return EXIT_OK;
        }
        ObjectNode frame;
        try {
          frame = StrictJson.parseObject(line);
        } catch (InvalidJsonException e) {
          report(stderr, "worker frame is not a JSON object: " + e.getMessage(), null);
          return EXIT_FAILED;
        }
        JsonNode id = frame.get("id");
        JsonNode request = frame.get("request");
        JsonNode traceValue = frame.get(WorkerWire.TRACE_KEY);
        int keys = traceValue == null ? 2 : 3;
        if (frame.size() != keys
            || id == null
            || !id.isString()
            || !(request instanceof ObjectNode)) {
          report(
              stderr,
              "worker frame must be {\"id\":<string>,\"request\":<object>[,\"trace\":<object>]}",
              null);
          return EXIT_FAILED;
        }
        Optional<TraceContext> trace;
        try {
          trace = traceValue == null ? Optional.empty() : Optional.of(WorkerWire.trace(traceValue));
        } catch (InvalidValueException e) {
          report(stderr, "worker frame has a malformed trace: " + e.getMessage(), null);
          return EXIT_FAILED;
        }
        byte[] response = answer(handler, () -> (ObjectNode) request, trace, stderr).bytes();
        stdout.write("{\"id\":".getBytes(StandardCharsets.UTF_8));
        stdout.write(StrictJson.toCompactBytes(id));
        stdout.write(",\"response\":".getBytes(StandardCharsets.UTF_8));
        stdout.write(response);
        stdout.write("}\n".getBytes(StandardCharsets.UTF_8));
        stdout.flush();
      }
    } catch (IOException e) {
      report(stderr, "worker stream failed: " + e.getMessage(), null);
      return EXIT_FAILED;
    } catch (ProviderException e) {
      report(stderr, String.valueOf(e.getMessage()), null);
      return EXIT_FAILED;
    }
  }

  /** Reads one line without its line feed; null at the end of the stream. */
  private static byte @Nullable [] readLine(InputStream in) throws IOException {
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (line.size() == 0) {
          return null;
        }
        throw new ProviderException("worker frame is not ended by a line feed");
      }
      if (b == '\n') {
        return line.toByteArray();
      }
      if (line.size() >= MAX_FRAME_BYTES) {
        throw new ProviderException("worker frame exceeds the " + MAX_FRAME_BYTES + "-byte limit");
      }
      line.write(b);
    }
  }

  /** A response and whether it says {@code "ok": true}. */
  private record Answer(byte[] bytes, boolean ok) {}

  private static Answer answer(
      ProviderHandler handler,
      java.util.function.Supplier<ObjectNode> request,
      Optional<TraceContext> trace,
      OutputStream stderr) {
    try {
      ObjectNode response = handler.handle(request.get(), trace);
      if (response == null) {
        throw new IllegalStateException("the provider handler returned no response");
      }
      return new Answer(encode(response), isOk(response));
    } catch (Exception | LinkageError | StackOverflowError e) {
      String message = describe(e);
      report(stderr, message, e);
      return new Answer(failure(handler, message), false);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static int doctor(ProviderHandler handler, OutputStream stderr) {
    try {
      handler.doctor();
      return EXIT_OK;
    } catch (Exception | LinkageError | StackOverflowError e) {
      report(stderr, "doctor failed: " + describe(e), e);
      return EXIT_FAILED;
    }
  }

  private static int serve(
      ProviderHandler handler,
      Optional<TraceContext> trace,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr) {
    Answer answer = answer(handler, () -> parse(read(stdin)), trace, stderr);
    try {
      stdout.write(answer.bytes());
      stdout.write('\n');
      stdout.flush();
    } catch (IOException e) {
      report(stderr, "the response could not be written to stdout: " + e.getMessage(), null);
      return EXIT_FAILED;
    }
    return answer.ok() ? EXIT_OK : EXIT_FAILED;
  }

  private static byte[] read(InputStream stdin) {
    byte[] bytes;
    try {
      bytes = stdin.readNBytes(MAX_REQUEST_BYTES + 1);
    } catch (IOException e) {
      throw new ProviderException("request could not be read from stdin: " + e.getMessage(), e);
    }
    if (bytes.length > MAX_REQUEST_BYTES) {
      throw new ProviderException("request exceeds the " + MAX_REQUEST_BYTES + "-byte limit");
    }
    return bytes;
  }

  private static ObjectNode parse(byte[] bytes) {
    try {
      return StrictJson.parseObject(bytes);
    } catch (InvalidJsonException e) {
      String prefix =
          e.reason() == InvalidJsonException.Reason.NOT_AN_OBJECT
              ? "request must be a JSON object: "
              : "request must be a readable JSON object: ";
      throw new ProviderException(prefix + e.getMessage(), e);
    }
  }

  private static byte[] encode(ObjectNode response) {
    try {
      return StrictJson.toCompactBytes(response);
    } catch (InvalidJsonException e) {
      throw new LoopxException(
          ErrorKind.INVALID_VALUE,
          "the provider response cannot be written as JSON: " + e.getMessage(),
          e);
    }
  }

  private static boolean isOk(ObjectNode response) {
    JsonNode ok = response.get("ok");
    return ok != null && ok.isBoolean() && ok.asBoolean();
  }

  private static byte[] failure(ProviderHandler handler, String message) {
    String schemaVersion;
    try {
      schemaVersion = Objects.requireNonNull(handler.responseSchemaVersion());
    } catch (RuntimeException e) {
      schemaVersion = FALLBACK_SCHEMA_VERSION;
    }
    ObjectNode error = NODES.objectNode();
    error.put("ok", false);
    error.put("schema_version", writable(schemaVersion));
    error.put("error", writable(message));
    return StrictJson.toCompactBytes(error);
  }

  private static String describe(Throwable e) {
    if (e instanceof LoopxException) {
      return String.valueOf(e.getMessage());
    }
    String message = e.getMessage();
    return "provider failed: " + e.getClass().getName() + (message == null ? "" : ": " + message);
  }

  /** Writes one diagnostic line (and, for an unexpected exception, its stack trace) to stderr. */
  private static void report(OutputStream stderr, String line, @Nullable Throwable e) {
    try {
      stderr.write((writable(line) + "\n").getBytes(StandardCharsets.UTF_8));
      if (e != null && !(e instanceof LoopxException)) {
        PrintStream printer = new PrintStream(stderr, false, StandardCharsets.UTF_8);
        e.printStackTrace(printer);
        printer.flush();
      }
      stderr.flush();
    } catch (IOException ignored) {
      // stderr is diagnostics only; the exit code and stdout still report the failure
    }
  }

  /** Cuts {@code s} to {@link #MAX_ERROR_CHARS} and replaces unpaired surrogates by U+FFFD. */
  static String writable(String s) {
    String cut = s.length() <= MAX_ERROR_CHARS ? s : s.substring(0, MAX_ERROR_CHARS);
    StringBuilder out = new StringBuilder(cut.length());
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < cut.length()
          && Character.isLowSurrogate(cut.charAt(i + 1))) {
        out.append(c).append(cut.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append('\uFFFD');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
