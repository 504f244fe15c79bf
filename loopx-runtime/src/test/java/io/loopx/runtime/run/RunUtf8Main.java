package io.loopx.runtime.run;

import io.loopx.api.ExtensionId;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Map;

/**
 * A host started in a child JVM by {@link RunUtf8ChildJvmTest}: it runs extension {@code args[1]}
 * of state file {@code args[0]} with the request from its stdin and writes the receipt's compact
 * JSON bytes to its stdout, whatever its default charset. It names that charset on stderr.
 */
public final class RunUtf8Main {
  private RunUtf8Main() {}

  /** Runs the extension; see the class documentation. */
  public static void main(String[] args) throws IOException {
    System.err.println("default charset: " + Charset.defaultCharset().name());
    Loopx loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .stateFile(Path.of(args[0]))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
    RunReceipt receipt = loopx.run(RunRequest.of(ExtensionId.of(args[1]), System.in), Mode.EXECUTE);
    System.out.write(StrictJson.toCompactBytes(receipt.toJson()));
    System.out.flush();
  }
}
