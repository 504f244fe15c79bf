package io.loopx.runtime.internal.process;

import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;

/**
 * The one-line preview of what a provider wrote, as {@code loopx extension verify}'s evidence and
 * the doctor packet's {@code handshake_line} show it: at most the first {@value #MAX_BYTES} bytes,
 * decoded as UTF-8 (malformed bytes become U+FFFD), stripped, every run of white space written as
 * one space, cut to {@value #MAX_CHARS} characters (then ending in {@code ...}), and every other
 * unsafe character written as {@code \\uXXXX} as in {@link StderrTail}. Pure.
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class OutputPreview {
  /** The most characters a preview keeps (before its {@code ...}). */
  public static final int MAX_CHARS = 200;

  /** The most bytes a preview reads. */
  public static final int MAX_BYTES = 4096;

  private OutputPreview() {}

  /** Returns the preview of {@code bytes}, or {@code (empty)} when nothing but white space. */
  public static String of(byte[] bytes) {
    return of(bytes, bytes.length);
  }

  /** Returns the preview of the first {@code length} bytes of {@code bytes}. */
  public static String of(byte[] bytes, int length) {
    String s =
        new String(bytes, 0, Math.min(length, MAX_BYTES), StandardCharsets.UTF_8)
            .strip()
            .replaceAll("\\s+", " ");
    if (s.isEmpty()) {
      return "(empty)";
    }
    return StderrTail.escaped(s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS) + "...");
  }
}
