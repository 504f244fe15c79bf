package io.loopx.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The raw-pipe reference of {@link WorkerBenchmark}: a Java process that reads one JSON object per
 * line on stdin, parses it with Jackson, writes it back re-serialised as one line, and exits at the
 * end of stdin. No frame, no envelope, no governance.
 */
public final class PipeEcho {
  private PipeEcho() {}

  /** Echoes lines until the end of stdin. */
  public static void main(String[] args) throws IOException {
    JsonMapper json = JsonMapper.builder().build();
    InputStream in = new BufferedInputStream(System.in, 65_536);
    OutputStream out = new BufferedOutputStream(System.out, 65_536);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      if (b != '\n') {
        line.write(b);
        continue;
      }
      JsonNode node = json.readTree(line.toByteArray());
      out.write(json.writeValueAsBytes(node));
      out.write('\n');
      out.flush();
      line.reset();
    }
  }
}
