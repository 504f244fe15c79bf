package io.loopx.api.json;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by {@link StrictJson} when bytes are not a strict I-JSON text. The kind is always {@link
 * ErrorKind#INVALID_VALUE}; {@link #reason()} says which rule failed, so that callers can map the
 * failure to their own kind ({@code request_invalid}, {@code state_unreadable}, ...).
 *
 * <p>Immutable and safe to share between threads.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class InvalidJsonException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** The strict-JSON rule that the input broke. */
  public enum Reason {
    /** No bytes, or only JSON whitespace. */
    EMPTY,
    /** The bytes are not well-formed UTF-8. */
    INVALID_UTF8,
    /** The text is not JSON (syntax error, unsupported token, parser limit exceeded). */
    MALFORMED,
    /** A complete JSON value is followed by something other than whitespace. */
    TRAILING_DATA,
    /** An object holds the same key twice. */
    DUPLICATE_KEY,
    /**
     * A string or key holds an unpaired UTF-16 surrogate, for example from the escape <code>
     * &#92;ud800</code> with no low surrogate after it.
     */
    LONE_SURROGATE,
    /** An integer literal lies beyond ±2<sup>53</sup>. */
    INTEGER_OUT_OF_RANGE,
    /** The top-level value is not an object where an object is required. */
    NOT_AN_OBJECT
  }

  private final Reason reason;

  /** Creates the exception for {@code reason} with a message that names the offending input. */
  public InvalidJsonException(Reason reason, String message) {
    this(reason, message, null);
  }

  /** Creates the exception for {@code reason} with a cause. */
  public InvalidJsonException(Reason reason, String message, @Nullable Throwable cause) {
    super(ErrorKind.INVALID_VALUE, message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** Returns which strict-JSON rule the input broke. */
  public Reason reason() {
    return reason;
  }
}
