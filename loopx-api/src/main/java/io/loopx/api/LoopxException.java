package io.loopx.api;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The single exception type family of LoopX. Every failure that LoopX reports to a caller is a
 * {@code LoopxException} carrying a stable {@link ErrorKind}; the message names the offending
 * value.
 *
 * <p>Unchecked, like Jackson 3's exceptions: most callers translate it once at their boundary.
 * Instances are immutable and safe to share between threads.
 */
@API(status = API.Status.STABLE, since = "1.0")
public class LoopxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final String problem;
  private final @Nullable NextAction nextAction;

  /** Creates an exception of the given kind. */
  public LoopxException(ErrorKind kind, String message) {
    this(kind, message, (Throwable) null);
  }

  /** Creates an exception of the given kind with a cause. */
  public LoopxException(ErrorKind kind, String message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.problem = message;
    this.nextAction = null;
  }

  /**
   * Creates an exception of the given kind that names what the caller should do next; the message
   * is {@code problem + "; " + nextAction.describe()}.
   */
  public LoopxException(ErrorKind kind, String problem, NextAction nextAction) {
    super(Objects.requireNonNull(problem, "problem") + "; " + nextAction.describe());
    this.kind = Objects.requireNonNull(kind, "kind");
    this.problem = problem;
    this.nextAction = nextAction;
  }

  /**
   * Returns the full message: the problem, followed by the next action when there is one. Never
   * null: every constructor requires it.
   */
  @Override
  public String getMessage() {
    return Objects.requireNonNull(super.getMessage(), "message");
  }

  /** Returns the stable kind of this failure. */
  public final ErrorKind kind() {
    return kind;
  }

  /** Returns what went wrong: the message without the {@linkplain #nextAction() next action}. */
  public final String problem() {
    return problem;
  }

  /** Returns what the caller should do next, when LoopX knows it. */
  public final Optional<NextAction> nextAction() {
    return Optional.ofNullable(nextAction);
  }
}
