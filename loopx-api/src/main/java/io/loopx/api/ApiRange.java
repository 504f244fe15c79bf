package io.loopx.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@code requires_loopx_api} range: comma-separated clauses, each trimmed and of the form {@code
 * (>=|<=|==|>|<)? [0-9]+} (no operator means {@code ==}), all of which must hold. Examples: {@code
 * ">=1, <2"}, {@code "1"}, {@code "==1"}.
 *
 * <p>Immutable; {@link #toString()} returns the text as given (used in the normalised manifest).
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ApiRange {
  /** The extension API version that this runtime provides. */
  public static final int CURRENT_API_VERSION = 1;

  private static final Pattern CLAUSE = Pattern.compile("(>=|<=|==|>|<)?\\s*([0-9]+)");

  private final String text;
  private final List<Clause> clauses;

  private ApiRange(String text, List<Clause> clauses) {
    this.text = text;
    this.clauses = List.copyOf(clauses);
  }

  /**
   * Parses a range, or throws {@link InvalidValueException} naming it when a clause is empty or
   * does not match the grammar.
   */
  public static ApiRange parse(String text) {
    Objects.requireNonNull(text, "text");
    List<Clause> clauses = new ArrayList<>();
    for (String raw : text.split(",", -1)) {
      String clause = raw.strip();
      Matcher m = CLAUSE.matcher(clause);
      if (clause.isEmpty() || !m.matches()) {
        throw new InvalidValueException(
            "requires_loopx_api range",
            text,
            "each comma-separated clause must be (>=|<=|==|>|<)? followed by an integer");
      }
      String op = m.group(1) == null ? "==" : m.group(1);
      String digits = stripLeadingZeros(m.group(2));
      // Integers beyond int range cannot equal an int version: clamp keeps comparison semantics.
      long bound = digits.length() > 10 ? Long.MAX_VALUE : Long.parseLong(digits);
      clauses.add(new Clause(op, bound));
    }
    return new ApiRange(text, clauses);
  }

  private static String stripLeadingZeros(String digits) {
    int i = 0;
    while (i < digits.length() - 1 && digits.charAt(i) == '0') {
      i++;
    }
    return digits.substring(i);
  }

  /** Returns whether every clause admits {@code version}. */
  public boolean admits(int version) {
    for (Clause c : clauses) {
      if (!c.admits(version)) {
        return false;
      }
    }
    return true;
  }

  /** Returns whether this range admits {@link #CURRENT_API_VERSION}. */
  public boolean admitsCurrent() {
    return admits(CURRENT_API_VERSION);
  }

  /** Returns the range text as given. */
  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ApiRange other && other.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  private record Clause(String op, long bound) {
    boolean admits(long v) {
      return switch (op) {
        case ">=" -> v >= bound;
        case "<=" -> v <= bound;
        case ">" -> v > bound;
        case "<" -> v < bound;
        default -> v == bound;
      };
    }
  }
}
