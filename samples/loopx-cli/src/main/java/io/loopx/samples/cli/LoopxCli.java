package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The sample host's command line {@code loopx}: the extension lifecycle ({@code extension install,
 * upgrade, list, doctor, enable, disable, rollback}), the managed run of standalone extensions
 * ({@code extension run}), the capability catalog ({@code capability list, show}), the capability
 * command {@code semantic-preference recall}, {@code demo} and, for an activation state kept in
 * PostgreSQL ({@code --state-jdbc-url}), {@code state migrate, import}, over the public LoopX API.
 *
 * <p>Output is UTF-8 whatever the locale. With {@code --format json} stdout carries exactly one
 * JSON object: the result, or on any error (also a command line that does not parse) the packet
 * {@code {ok:false, schema_version:"loopx_extension_error_v0", status:"invalid_request", kind,
 * error}}; with the text format errors go to stderr. Exit codes: 0 success, 1 the result says
 * {@code ok:false}, 2 any error. Never a stack trace.
 */
public final class LoopxCli {
  /**
   * The library's {@code System.Logger} lines ({@code io.loopx}, docs/observing.md) are off in the
   * CLI: every byte the CLI prints goes through {@link CliSession}. Held so the level sticks.
   */
  private static final java.util.logging.Logger LIBRARY_LOG =
      java.util.logging.Logger.getLogger("io.loopx");

  private LoopxCli() {}

  /** Runs {@code loopx} on the process's stdout and stderr and exits with its exit code. */
  public static void main(String[] args) {
    LIBRARY_LOG.setLevel(java.util.logging.Level.OFF);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, UTF_8);
    int code = execute(args, System.in, out, err);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * Runs {@code loopx} with {@code args} and an empty stdin (so {@code --input-json -} reads no
   * bytes); see {@link #execute(String[], InputStream, OutputStream, OutputStream)}.
   *
   * @param args the arguments after {@code loopx}
   * @param stdout receives results (and, with {@code --format json}, error packets)
   * @param stderr receives text-format errors
   */
  public static int execute(String[] args, OutputStream stdout, OutputStream stderr) {
    return execute(args, InputStream.nullInputStream(), stdout, stderr);
  }

  /**
   * Runs {@code loopx} with {@code args}, reading {@code stdin} only for {@code --input-json -},
   * writing UTF-8 to {@code stdout} and {@code stderr}, and returns the exit code (0, 1 or 2).
   * Never throws for any input; the streams are flushed, not closed.
   *
   * @param args the arguments after {@code loopx}
   * @param stdin the request of {@code extension run} or {@code semantic-preference recall} given
   *     {@code --input-json -} (at most 1,000,001 bytes are read; the stream is not closed)
   * @param stdout receives results (and, with {@code --format json}, error packets)
   * @param stderr receives text-format errors
   */
  public static int execute(
      String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr) {
    return execute(args, stdin, stdout, stderr, CliEnvironment::current);
  }

  /** Runs {@code loopx} with an empty stdin in the environment {@code environment} supplies. */
  static int execute(
      String[] args,
      OutputStream stdout,
      OutputStream stderr,
      Supplier<CliEnvironment> environment) {
    return execute(args, InputStream.nullInputStream(), stdout, stderr, environment);
  }

  /** Runs {@code loopx} in the environment {@code environment} supplies; see {@link #execute}. */
  static int execute(
      String[] args,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr,
      Supplier<CliEnvironment> environment) {
    PrintWriter out = writer(stdout);
    PrintWriter err = writer(stderr);
    List<String> argv = List.copyOf(Arrays.asList(args));
    try {
      CliSession session;
      try {
        session = new CliSession(environment.get(), Format.prescan(argv), stdin, out, err);
      } catch (RuntimeException e) {
        return new CliSession(CliEnvironment.fallback(), Format.prescan(argv), stdin, out, err)
            .fail(e);
      }
      try {
        CommandLine commandLine =
            CommandTree.build(session)
                // an argument such as `@ids` is a value, never a file of more arguments
                .setExpandAtFiles(false)
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler((e, a) -> session.fail(e))
                .setExecutionExceptionHandler((e, c, p) -> session.fail(e));
        return commandLine.execute(argv.toArray(new String[0]));
      } catch (RuntimeException | LinkageError e) {
        return session.fail(e);
      }
    } finally {
      out.flush();
      err.flush();
    }
  }

  private static PrintWriter writer(OutputStream stream) {
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, UTF_8)), false);
  }
}
