package io.loopx.samples.cli;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The output format chosen with {@code --format}: a readable summary or exactly one JSON object.
 */
enum Format {
  /** A readable table or summary (the default). */
  TEXT,
  /** Exactly one JSON object on stdout. */
  JSON;

  /** Returns the word used on the command line. */
  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code json} or {@code text} (exactly, lower case). */
  static Optional<Format> parse(String word) {
    for (Format f : values()) {
      if (f.word().equals(word)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /**
   * Scans raw arguments for the last {@code --format X} or {@code --format=X} before {@code --}, so
   * that even a command line that fails to parse reports its error in the format asked for. An
   * unknown word counts as text.
   */
  static Format prescan(List<String> args) {
    Format found = TEXT;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        break;
      }
      if (arg.equals("--format") && i + 1 < args.size()) {
        found = parse(args.get(i + 1)).orElse(TEXT);
        i++;
      } else if (arg.startsWith("--format=")) {
        found = parse(arg.substring("--format=".length())).orElse(TEXT);
      }
    }
    return found;
  }

  /** Converts the {@code --format} option value; anything but {@code json}/{@code text} fails. */
  static final class Converter implements ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      return parse(value)
          .orElseThrow(
              () ->
                  new TypeConversionException("expected `json` or `text` but was `" + value + "`"));
    }
  }
}
