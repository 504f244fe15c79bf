package io.loopx.api;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The single exception type family of LoopX. Every failure that LoopX reports to a caller is a
 * {@code LoopxException} carrying a stable {@link ErrorKind}; the message names the offending
 * value.
 *
 * <p>Unchecked, like Jackson 3's exceptions: most callers translate it once at their boundary.
 * Instances are immutable and safe to share between threads.
 */
public class LoopxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;

  /** Creates an exception of the given kind. */
  public LoopxException(ErrorKind kind, String message) {
    this(kind, message, null);
  }

  /** Creates an exception of the given kind with a cause. */
  public LoopxException(ErrorKind kind, String message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Returns the stable kind of this failure. */
  public final ErrorKind kind() {
    return kind;
  }
}
