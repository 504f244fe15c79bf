package io.loopx.micrometer;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.events.ObservedCall;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A hand-made {@link ObservedCall} with the vocabulary of docs/observing.md#call-observers. */
record FakeCall(
    String name,
    Map<String, String> lowCardinalityTags,
    Map<String, String> highCardinalityTags,
    boolean ended,
    boolean failed,
    Optional<ErrorKind> error)
    implements ObservedCall {

  /** A dispatch of {@code capability} as it begins: nothing resolved yet. */
  static FakeCall dispatchBegins(String capability) {
    return new FakeCall(
        "loopx.dispatch",
        tags(
            "capability",
            capability,
            "protocol",
            "demo_recall_v0",
            "action",
            "demo.recall",
            "extension",
            "none",
            "mode",
            "execute",
            "path",
            "none",
            "containment",
            "none",
            "outcome",
            "none",
            "failure",
            "none"),
        Map.of(),
        false,
        false,
        Optional.empty());
  }

  /** The same dispatch ended by a worker of {@code extension}, revision {@code revision}. */
  static FakeCall dispatchServed(String capability, String extension, String revision) {
    return new FakeCall(
        "loopx.dispatch",
        tags(
            "capability",
            capability,
            "protocol",
            "demo_recall_v0",
            "action",
            "demo.recall",
            "extension",
            extension,
            "mode",
            "execute",
            "path",
            "worker",
            "containment",
            "process_group",
            "outcome",
            "succeeded",
            "failure",
            "none"),
        tags("revision", revision, "provider", extension),
        true,
        false,
        Optional.empty());
  }

  /** The same dispatch refused with {@code kind} before anything ran. */
  static FakeCall dispatchRefused(String capability, String extension, ErrorKind kind) {
    return new FakeCall(
        "loopx.dispatch",
        tags(
            "capability",
            capability,
            "protocol",
            "demo_recall_v0",
            "action",
            "demo.recall",
            "extension",
            extension,
            "mode",
            "execute",
            "path",
            "none",
            "containment",
            "none",
            "outcome",
            kind.wireName(),
            "failure",
            "none"),
        Map.of(),
        true,
        true,
        Optional.of(kind));
  }

  /** A run of {@code extension}, begun or ended (refused with {@code kind} when not null). */
  static FakeCall run(String extension, boolean ended, ErrorKind kind) {
    return new FakeCall(
        "loopx.run",
        tags(
            "extension",
            extension,
            "mode",
            "execute",
            "path",
            "none",
            "containment",
            "none",
            "outcome",
            ended ? kind.wireName() : "none",
            "failure",
            "none"),
        Map.of(),
        ended,
        ended,
        ended ? Optional.of(kind) : Optional.empty());
  }

  static Map<String, String> tags(String... keysAndValues) {
    Map<String, String> tags = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      tags.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return tags;
  }
}
