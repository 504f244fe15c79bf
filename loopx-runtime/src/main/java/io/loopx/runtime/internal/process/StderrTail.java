package io.loopx.runtime.internal.process;

import io.loopx.api.internal.ManifestValues;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@code stderr_tail} of a receipt (docs/contract/run.md): the last at most {@value #LIMIT}
 * bytes of what a provider wrote to stderr, started at a code point boundary, decoded as UTF-8
 * (malformed bytes become U+FFFD) and with every unsafe character but line feed and tab written as
 * {@code \\uXXXX}. Pure.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StderrTail {
  /** The most bytes of stderr a tail keeps. */
  public static final int LIMIT = 4096;

  private StderrTail() {}

  /** Returns the tail of {@code stderr}; empty when the provider wrote nothing. */
  public static Optional<String> of(byte[] stderr) {
    if (stderr.length == 0) {
      return Optional.empty();
    }
    int start = Math.max(0, stderr.length - LIMIT);
    // Skip the continuation bytes of a code point cut by the limit (at most three).
    for (int skipped = 0; start > 0 && skipped < 3 && isContinuation(stderr[start]); skipped++) {
      start++;
    }
    // The String constructor replaces malformed input with U+FFFD.
    return Optional.of(
        escaped(new String(stderr, start, stderr.length - start, StandardCharsets.UTF_8)));
  }

  private static boolean isContinuation(byte b) {
    return (b & 0xC0) == 0x80;
  }

  /** Returns {@code text} with every unsafe character but line feed and tab as {@code \\uXXXX}. */
  static String escaped(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\n' && c != '\t' && ManifestValues.isUnsafeCharacter(c)) {
        out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
