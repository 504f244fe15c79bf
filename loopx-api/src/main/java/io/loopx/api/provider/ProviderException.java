package io.loopx.api.provider;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a {@link ProviderHandler} to refuse a request: a request that does not match the
 * provider's schema, or one it cannot serve. {@link ProviderMain} writes the message as the {@code
 * error} of an {@code ok:false} response, without a stack trace, and exits 1. The kind is always
 * {@link ErrorKind#REQUEST_INVALID}.
 *
 * <p>Immutable and safe to share between threads.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ProviderException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} names the problem and the offending value. */
  public ProviderException(String message) {
    this(message, null);
  }

  /** Creates the exception with a cause. */
  public ProviderException(String message, @Nullable Throwable cause) {
    super(ErrorKind.REQUEST_INVALID, message, cause);
  }
}
