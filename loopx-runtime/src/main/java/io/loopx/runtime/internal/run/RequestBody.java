package io.loopx.runtime.internal.run;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.call.CallInput;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The caller's request to a standalone extension, validated before any activation state is read
 * (docs/contract/run.md): at most {@link #MAX_BYTES} bytes (checked while reading), strict UTF-8,
 * exactly one I-JSON object, and no top-level {@value #RESERVED_FIELD} (only a capability command
 * binds one).
 *
 * <p>Every rejection is a {@link LoopxException} of kind {@link ErrorKind#REQUEST_INVALID} whose
 * message starts with {@code request exceeds the 1000000-byte limit}, {@code request must be a
 * readable JSON object}, {@code request must be a JSON object} or {@code request contains reserved
 * field `execution_envelope`}.
 *
 * <p>Immutable: {@link #body()} and {@link #providerInput()} return copies ({@link
 * #bodyForReading()} is for readers that never modify it).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RequestBody {
  /** The largest accepted request: 1,000,000 bytes. */
  public static final int MAX_BYTES = 1_000_000;

  /** The top-level key a caller may never supply. */
  public static final String RESERVED_FIELD = "execution_envelope";

  private final ObjectNode body;
  private final Optional<String> schemaVersion;

  private RequestBody(ObjectNode body) {
    this.body = body;
    JsonNode version = body.get("schema_version");
    this.schemaVersion =
        version != null && version.isString() ? Optional.of(version.asString()) : Optional.empty();
  }

  /** Reads a caller's input as it was given: bytes are validated, a stream read (bounded). */
  public static RequestBody read(CallInput input) {
    Optional<byte[]> bytes = input.bytes();
    return bytes.isPresent() ? parse(bytes.get()) : read(input.stream().orElseThrow());
  }

  /**
   * Reads and validates a request from {@code input}, consuming at most {@link #MAX_BYTES} + 1
   * bytes (never buffering more) and leaving the stream open.
   *
   * @throws LoopxException {@code REQUEST_INVALID} for an oversized, unreadable or invalid request
   *     (an {@link IOException} while reading is {@code request must be a readable JSON object})
   */
  public static RequestBody read(InputStream input) {
    Objects.requireNonNull(input, "input");
    byte[] bytes;
    try {
      bytes = input.readNBytes(MAX_BYTES + 1);
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "request must be a readable JSON object: reading it failed: " + e.getMessage(),
          e);
    }
    return parse(bytes);
  }

  /**
   * Validates a request given as bytes.
   *
   * @throws LoopxException {@code REQUEST_INVALID} for an oversized or invalid request
   */
  public static RequestBody parse(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length > MAX_BYTES) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, "request exceeds the " + MAX_BYTES + "-byte limit");
    }
    ObjectNode body;
    try {
      body = StrictJson.parseObject(bytes);
    } catch (InvalidJsonException e) {
      if (e.reason() == InvalidJsonException.Reason.NOT_AN_OBJECT) {
        throw new LoopxException(
            ErrorKind.REQUEST_INVALID, "request must be a JSON object: " + e.getMessage(), e);
      }
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "request must be a readable JSON object: " + e.getMessage(),
          e);
    }
    if (body.has(RESERVED_FIELD)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, "request contains reserved field `" + RESERVED_FIELD + "`");
    }
    return new RequestBody(body);
  }

  /** Returns a copy of the request object, keys in their original order. */
  public ObjectNode body() {
    return body.deepCopy();
  }

  /**
   * Returns the request object itself, not copied, for a reader that never modifies it (the
   * envelope binder, which copies it while digesting): saves a deep copy per dispatch.
   */
  public ObjectNode bodyForReading() {
    return body;
  }

  /**
   * Returns what the provider receives on stdin: the request re-serialised compactly as UTF-8, keys
   * in their original order (a new array; serialised on each call, since a dispatch never needs
   * it).
   */
  public byte[] providerInput() {
    return StrictJson.toCompactBytes(body);
  }

  /** Returns the request's top-level {@code schema_version} when it is a string. */
  public Optional<String> schemaVersion() {
    return schemaVersion;
  }

  /** Compares the request objects. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof RequestBody that && that.body.equals(body);
  }

  @Override
  public int hashCode() {
    return body.hashCode();
  }

  /** Describes the request by its size, not its content. */
  @Override
  public String toString() {
    return "RequestBody[" + providerInput().length + " bytes, schemaVersion=" + schemaVersion + "]";
  }
}
