package io.loopx.api;

import io.loopx.api.internal.ManifestValues;
import org.apiguardian.api.API;

/**
 * Thrown by the validating factories of LoopX value types (for example {@link ExtensionId#of}) when
 * a value breaks its grammar. The kind is always {@link ErrorKind#INVALID_VALUE}; {@link #value()}
 * returns the rejected text and {@link #what()} the name of the grammar ("extension id", ...).
 *
 * <p>The message writes every control, separator and bidirectional control character of the value
 * as <code>&#92;uXXXX</code>, so it can be shown on a terminal; {@link #value()} is the text as
 * given.
 *
 * <p>Components that read external input (manifests, state files, command lines) translate this
 * into their own kind, such as {@link ErrorKind#MANIFEST_INVALID}.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class InvalidValueException extends LoopxException {
  private static final long serialVersionUID = 1L;

  private final String what;
  private final String value;

  /** Creates the exception for {@code value}, which is not a valid {@code what}. */
  public InvalidValueException(String what, String value, String rule) {
    super(
        ErrorKind.INVALID_VALUE,
        "invalid "
            + ManifestValues.escaped(what)
            + " `"
            + ManifestValues.escaped(value)
            + "`: "
            + ManifestValues.escaped(rule));
    this.what = what;
    this.value = value;
  }

  /** Returns the name of the violated grammar, e.g. {@code extension id}. */
  public String what() {
    return what;
  }

  /** Returns the rejected value as given. */
  public String value() {
    return value;
  }
}
