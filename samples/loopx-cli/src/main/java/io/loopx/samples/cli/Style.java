package io.loopx.samples.cli;

import java.util.Set;

/**
 * Text highlighting: ANSI colour when enabled, plain text otherwise.
 *
 * @param colour whether to emit ANSI escape sequences
 */
record Style(boolean colour) {
  private static final String RESET = "\u001b[0m";
  private static final String BOLD = "\u001b[1m";
  private static final String RED = "\u001b[31m";
  private static final String GREEN = "\u001b[32m";
  private static final String YELLOW = "\u001b[33m";

  private static final Set<String> GOOD = Set.of("ready", "true", "succeeded", "ok");
  private static final Set<String> PENDING = Set.of("probe_required", "would_create");

  /** Returns {@code text} in bold. */
  String bold(String text) {
    return wrap(BOLD, text);
  }

  /** Returns {@code text} in red (errors). */
  String error(String text) {
    return wrap(RED, text);
  }

  /**
   * Highlights a status word: green for {@code ready}/{@code true}, yellow for {@code
   * probe_required}, red for anything else (a blocked or failed status). {@code text} may carry
   * padding around the word.
   */
  String status(String text) {
    String word = text.strip();
    if (GOOD.contains(word)) {
      return wrap(GREEN, text);
    }
    if (PENDING.contains(word)) {
      return wrap(YELLOW, text);
    }
    return wrap(RED, text);
  }

  private String wrap(String code, String text) {
    return colour ? code + text + RESET : text;
  }
}
