package io.loopx.runtime.internal.call;

import io.loopx.api.internal.Durations;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a run or dispatch request carries besides its addressing: the caller's input (bytes or a
 * stream, read by {@code Loopx} exactly when and as it always was), the caller's deadline and the
 * one-shot option. The public request values ({@code RunRequest}, {@code DispatchRequest}) hold one
 * and {@linkplain #export export} their accessor, so that this package depends on no public package
 * and the public values expose no input accessor. Immutable (the stream aside).
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class CallInput {
  private static final Map<Class<?>, Function<Object, CallInput>> ACCESS =
      new ConcurrentHashMap<>();

  private final byte @Nullable [] bytes;
  private final @Nullable InputStream stream;
  private final Optional<Duration> deadline;
  private final boolean oneShot;

  private CallInput(
      byte @Nullable [] bytes,
      @Nullable InputStream stream,
      Optional<Duration> deadline,
      boolean oneShot) {
    this.bytes = bytes;
    this.stream = stream;
    this.deadline = deadline;
    this.oneShot = oneShot;
  }

  /** Input given as bytes (copied). */
  public static CallInput of(byte[] bytes) {
    return new CallInput(
        Objects.requireNonNull(bytes, "input").clone(), null, Optional.empty(), false);
  }

  /** Input read from {@code stream} when the call starts. */
  public static CallInput of(InputStream stream) {
    return new CallInput(null, Objects.requireNonNull(stream, "input"), Optional.empty(), false);
  }

  /**
   * Returns this input with {@code deadline}.
   *
   * @throws io.loopx.api.InvalidValueException {@code invalid deadline `<d>`: must be positive}
   */
  public CallInput withDeadline(Duration deadline) {
    Durations.requirePositive("deadline", Objects.requireNonNull(deadline, "deadline"));
    return new CallInput(bytes, stream, Optional.of(deadline), oneShot);
  }

  /** Returns this input with the one-shot option set. */
  public CallInput oneShot() {
    return new CallInput(bytes, stream, deadline, true);
  }

  /** Returns the bytes, when the input was given as bytes (not copied: read only). */
  public Optional<byte[]> bytes() {
    return Optional.ofNullable(bytes);
  }

  /** Returns the stream, when the input was given as a stream. */
  public Optional<InputStream> stream() {
    return Optional.ofNullable(stream);
  }

  /** Returns the caller's deadline, if any. */
  public Optional<Duration> deadline() {
    return deadline;
  }

  /** Returns whether the call must not use a warm worker. */
  public boolean isOneShot() {
    return oneShot;
  }

  /** Registers how to read the input of a request of {@code type} (called by the type itself). */
  public static <T> void export(Class<T> type, Function<T, CallInput> access) {
    ACCESS.putIfAbsent(type, request -> access.apply(type.cast(request)));
  }

  /** Returns the input of {@code request}, a value whose type {@linkplain #export exported} it. */
  public static CallInput from(Object request) {
    Function<Object, CallInput> access = ACCESS.get(request.getClass());
    if (access == null) {
      throw new IllegalStateException("no call input for " + request.getClass());
    }
    return access.apply(request);
  }
}
