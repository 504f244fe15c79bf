package io.loopx.runtime.internal.identity;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The {@code #!} line of a launcher, read as bytes the way Linux's {@code binfmt_script} reads it
 * (fs/binfmt_script.c, {@code BINPRM_BUF_SIZE} = 256 since Linux 5.1): the line must end with
 * {@code \n} within the first {@link #LIMIT} bytes, or the file must end before byte 256; a NUL
 * ends it early; trailing spaces and tabs are dropped; the interpreter is the bytes after {@code
 * #!} and any spaces or tabs, up to the next space or tab; the <em>single</em> argument is the rest
 * of the line after the spaces and tabs that follow the interpreter (the kernel does not split it,
 * so {@code #!/usr/bin/env -S -u decoy python3} hands {@code env} the one argument {@code -S -u
 * decoy python3}). A carriage return is not stripped (the kernel does not either).
 *
 * <p>Immutable: the byte arrays are copied in and out.
 */
final class Shebang {
  /** The number of leading bytes the kernel reads for the shebang line ({@code #!} included). */
  static final int LIMIT = 256;

  private final byte[] interpreter;
  private final byte[] argument;
  private final boolean complete;

  private Shebang(byte[] interpreter, byte[] argument, boolean complete) {
    this.interpreter = interpreter;
    this.argument = argument;
    this.complete = complete;
  }

  /**
   * Parses {@code head} (the first bytes of a file of {@code size} bytes, at most {@link #LIMIT}
   * are read); empty when the file does not start with {@code #!}. Never throws for any bytes.
   */
  static Optional<Shebang> parse(byte[] head, long size) {
    if (head.length < 2 || head[0] != '#' || head[1] != '!') {
      return Optional.empty();
    }
    int bounded = Math.min(head.length, LIMIT);
    int end = 2;
    while (end < bounded && head[end] != '\n') {
      end++;
    }
    boolean complete = end < bounded || size < LIMIT;
    for (int i = 2; i < end; i++) {
      if (head[i] == 0) {
        end = i;
        break;
      }
    }
    while (end > 2 && blank(head[end - 1])) {
      end--;
    }
    int start = 2;
    while (start < end && blank(head[start])) {
      start++;
    }
    int separator = start;
    while (separator < end && !blank(head[separator])) {
      separator++;
    }
    int argumentStart = separator;
    while (argumentStart < end && blank(head[argumentStart])) {
      argumentStart++;
    }
    return Optional.of(
        new Shebang(
            Arrays.copyOfRange(head, start, separator),
            Arrays.copyOfRange(head, argumentStart, end),
            complete));
  }

  /** Whether the line ended within the kernel's limit (else the launcher is unsupported). */
  boolean complete() {
    return complete;
  }

  /** The interpreter's bytes as written (empty when the line names none). */
  byte[] interpreterBytes() {
    return interpreter.clone();
  }

  /** The single argument's bytes (empty when there is none). */
  byte[] argumentBytes() {
    return argument.clone();
  }

  /** Whether the line names no interpreter ({@code #!} followed only by blanks). */
  boolean interpreterEmpty() {
    return interpreter.length == 0;
  }

  /** Whether there is an argument after the interpreter. */
  boolean hasArgument() {
    return argument.length > 0;
  }

  /** The interpreter path decoded as strict UTF-8; empty when it is not valid UTF-8. */
  Optional<String> interpreter() {
    return strictUtf8(interpreter);
  }

  /** The argument decoded as strict UTF-8; empty when it is not valid UTF-8. */
  Optional<String> argument() {
    return strictUtf8(argument);
  }

  /** The line after {@code #!} as text for messages (invalid UTF-8 replaced). */
  String text() {
    String i = new String(interpreter, StandardCharsets.UTF_8);
    return argument.length == 0 ? i : i + " " + new String(argument, StandardCharsets.UTF_8);
  }

  private static boolean blank(byte b) {
    return b == ' ' || b == '\t';
  }

  private static Optional<String> strictUtf8(byte[] bytes) {
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
