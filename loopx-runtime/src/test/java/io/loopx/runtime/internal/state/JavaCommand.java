package io.loopx.runtime.internal.state;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The command line of a child host JVM that runs a test {@code main} class on a plain class path
 * (the test JVM's class and module path, the test classes and the runtime's classes first), and a
 * read of its first line with a safety-net timeout.
 */
public final class JavaCommand {
  private JavaCommand() {}

  /** Returns {@code java … -cp … main args…}; {@code runtime} is a class of the code under test. */
  public static List<String> of(Class<?> main, Class<?> runtime, String... args)
      throws URISyntaxException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-cp");
    command.add(classPath(main, runtime));
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }

  /** Returns the first line {@code process} writes on stdout (null at its end), within 120 s. */
  public static String firstLine(Process process) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              try {
                return new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))
                    .readLine();
              } catch (IOException e) {
                return null;
              }
            })
        .get(120, TimeUnit.SECONDS);
  }

  private static String classPath(Class<?> main, Class<?> runtime) throws URISyntaxException {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(codeSource(main));
    entries.add(codeSource(runtime));
    for (String property : List.of("java.class.path", "jdk.module.path")) {
      for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(entry);
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String codeSource(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
