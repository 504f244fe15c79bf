package io.loopx.opentelemetry;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.events.ObservedCall;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A hand-made {@link ObservedCall}: the runtime implements it; the unit tests need fixed ones. */
record FakeCall(
    String name,
    Map<String, String> lowCardinalityTags,
    Map<String, String> highCardinalityTags,
    boolean ended,
    boolean failed,
    Optional<ErrorKind> error)
    implements ObservedCall {

  /** A call that has begun, with the given low-cardinality tags (key, value, key, value...). */
  static FakeCall begun(String name, String... low) {
    return new FakeCall(name, tags(low), Map.of(), false, false, Optional.empty());
  }

  /** This call ended with the given low-cardinality tags replacing its own. */
  FakeCall endedWith(String... low) {
    Map<String, String> merged = new LinkedHashMap<>(lowCardinalityTags);
    merged.putAll(tags(low));
    return new FakeCall(name, merged, highCardinalityTags, true, failed, error);
  }

  FakeCall high(String... high) {
    return new FakeCall(name, lowCardinalityTags, tags(high), ended, failed, error);
  }

  FakeCall failing(Optional<ErrorKind> kind) {
    return new FakeCall(name, lowCardinalityTags, highCardinalityTags, ended, true, kind);
  }

  private static Map<String, String> tags(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
