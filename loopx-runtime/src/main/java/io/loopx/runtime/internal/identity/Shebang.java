package io.loopx.runtime.internal.identity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The parsed {@code #!} line of a launcher, as Linux reads it: the interpreter is the first word
 * after {@code #!}, the rest are its arguments. The line is read from the first {@link #LIMIT}
 * bytes only; a carriage return is not stripped (the kernel does not either).
 *
 * @param interpreter the interpreter path as written (may be empty when the line is malformed)
 * @param arguments the words after the interpreter
 * @param complete whether the whole line fit in the bounded read
 */
record Shebang(String interpreter, List<String> arguments, boolean complete) {
  /** The number of leading bytes read for the shebang line. */
  static final int LIMIT = 256;

  Shebang {
    arguments = List.copyOf(arguments);
  }

  /**
   * Parses {@code head} (the first bytes of a file of {@code size} bytes); empty when the file does
   * not start with {@code #!}.
   */
  static Optional<Shebang> parse(byte[] head, long size) {
    if (head.length < 2 || head[0] != '#' || head[1] != '!') {
      return Optional.empty();
    }
    int end = 2;
    while (end < head.length && head[end] != '\n') {
      end++;
    }
    boolean complete = end < head.length || size <= head.length;
    String line = new String(Arrays.copyOfRange(head, 2, end), StandardCharsets.UTF_8);
    List<String> words = new ArrayList<>();
    for (String word : line.split("[ \t]+", -1)) {
      if (!word.isEmpty()) {
        words.add(word);
      }
    }
    if (words.isEmpty()) {
      return Optional.of(new Shebang("", List.of(), complete));
    }
    return Optional.of(new Shebang(words.get(0), words.subList(1, words.size()), complete));
  }

  /**
   * Returns the program name {@code env} is asked to run: the first argument that is neither an
   * option (starts with {@code -}, e.g. {@code -S}) nor an assignment ({@code NAME=value}).
   */
  Optional<String> envProgram() {
    for (String argument : arguments) {
      if (!argument.startsWith("-") && argument.indexOf('=') < 0) {
        return Optional.of(argument);
      }
    }
    return Optional.empty();
  }
}
