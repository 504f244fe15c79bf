package io.loopx.buildchecks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads, writes and compares API signature files (UTF-8, LF line ends, trailing newline). */
final class SignatureFiles {

  /** At most this many changed lines are shown in a failure message. */
  static final int MAX_DIFF_LINES = 200;

  private SignatureFiles() {}

  /** Reads a signature file; carriage returns are ignored so a CRLF checkout still compares. */
  static List<String> read(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).replace("\r", "");
      List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
      while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
        lines.remove(lines.size() - 1);
      }
      return List.copyOf(lines);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Writes a signature file, creating its directory. */
  static void write(Path file, List<String> lines) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * Checks a signature file against freshly generated lines, or rewrites it in update mode.
   *
   * @param file the checked-in signature file
   * @param generated the lines rendered from the compiled module
   * @param update whether to rewrite the file instead of comparing
   * @param moduleName the module's name, for the message
   * @return empty when the file matches (or was rewritten), otherwise the failure message: a
   *     readable diff and the instruction to rerun with {@code -Dloopx.updateApiSignatures=true}
   */
  static Optional<String> verifyOrUpdate(
      Path file, List<String> generated, boolean update, String moduleName) {
    if (update) {
      write(file, generated);
      return Optional.empty();
    }
    String rerun =
        "If the change is intended, rerun with -D"
            + ApiSignatures.UPDATE_PROPERTY
            + "=true (mvn -B verify -pl build-checks -am -D"
            + ApiSignatures.UPDATE_PROPERTY
            + "=true) to rewrite the file, then review and commit it.";
    if (!Files.isRegularFile(file)) {
      return Optional.of(
          "No API signature file " + file + " for module " + moduleName + ". " + rerun);
    }
    return diff(read(file), generated)
        .map(
            d ->
                "The public API of "
                    + moduleName
                    + " differs from "
                    + file
                    + " (- recorded, + current):\n"
                    + d
                    + rerun);
  }

  /**
   * Compares the recorded lines with freshly generated ones.
   *
   * @return empty when equal, otherwise a readable diff: {@code -} lines are recorded but no longer
   *     generated, {@code +} lines are generated but not recorded
   */
  static Optional<String> diff(List<String> recorded, List<String> generated) {
    if (recorded.equals(generated)) {
      return Optional.empty();
    }
    Set<String> inRecorded = new HashSet<>(recorded);
    Set<String> inGenerated = new HashSet<>(generated);
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < recorded.size() || j < generated.size()) {
      if (i < recorded.size() && j < generated.size() && recorded.get(i).equals(generated.get(j))) {
        i++;
        j++;
      } else if (i < recorded.size()
          && (!inGenerated.contains(recorded.get(i)) || j >= generated.size())) {
        out.add("- " + recorded.get(i++));
      } else if (j < generated.size()
          && (!inRecorded.contains(generated.get(j)) || i >= recorded.size())) {
        out.add("+ " + generated.get(j++));
      } else {
        // Both lines exist elsewhere in the other list: the order changed.
        out.add("- " + recorded.get(i++));
      }
    }
    StringBuilder b = new StringBuilder();
    int shown = Math.min(out.size(), MAX_DIFF_LINES);
    for (int k = 0; k < shown; k++) {
      b.append(out.get(k)).append('\n');
    }
    if (out.size() > shown) {
      b.append("... and ").append(out.size() - shown).append(" more changed lines\n");
    }
    return Optional.of(b.toString());
  }
}
