package io.loopx.micrometer;

import io.loopx.runtime.events.ObservedCall;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link LoopxObservationConvention} (docs/observing.md#micrometer): the observation
 * keeps its call's name ({@code loopx.dispatch}, {@code loopx.run}, {@code loopx.doctor}, {@code
 * loopx.lifecycle}); the call's low-cardinality tags become its low-cardinality key values (the
 * tags of its timers), its high-cardinality tags (the revision, the provider, the version) its
 * high-cardinality key values (span attributes, never metric tags); its contextual name (the span
 * name) is {@code loopx dispatch <capability>}, {@code loopx run <extension>}, {@code loopx doctor
 * <extension>} or {@code loopx <operation>[ <extension>]}. Extend it to change one part.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public class DefaultLoopxObservationConvention implements LoopxObservationConvention {

  private static final String NONE = "none";

  /** How many distinct low-cardinality tag sets the key-value cache keeps. */
  private static final int CACHED_TAG_SETS = 1024;

  private final @Nullable String name;
  private final Map<Map<String, String>, KeyValues> lowCardinality = new ConcurrentHashMap<>();

  /** Creates the default convention: each observation keeps its call's name. */
  public DefaultLoopxObservationConvention() {
    this(null);
  }

  /** Creates the default convention of the calls named {@code name} (the one LoopX uses). */
  DefaultLoopxObservationConvention(@Nullable String name) {
    this.name = name;
  }

  /**
   * Returns {@code null} (the observation keeps its call's name), or the call's name in the
   * instances {@link LoopxMicrometer} uses, one per call name, so that an {@code
   * ObservationPredicate} sees the name.
   */
  @Override
  public @Nullable String getName() {
    return name;
  }

  /**
   * Returns the span name: {@code loopx dispatch <capability>}, {@code loopx run <extension>}...
   */
  @Override
  public String getContextualName(LoopxObservationContext context) {
    ObservedCall call = context.call();
    Map<String, String> tags = call.lowCardinalityTags();
    String extension = tags.getOrDefault("extension", NONE);
    return switch (call.name()) {
      case "loopx.dispatch" -> "loopx dispatch " + tags.getOrDefault("capability", NONE);
      case "loopx.run" -> "loopx run " + extension;
      case "loopx.doctor" -> "loopx doctor " + extension;
      case "loopx.lifecycle" ->
          "loopx "
              + tags.getOrDefault("operation", NONE)
              + (extension.equals(NONE) ? "" : " " + extension);
      default -> call.name().replace('.', ' ');
    };
  }

  /**
   * Returns the call's low-cardinality tags, as they are at this moment. The key values of up to
   * 1,024 distinct tag sets are kept and reused (building them costs more than the rest of a
   * built-in dispatch's observation).
   */
  @Override
  public KeyValues getLowCardinalityKeyValues(LoopxObservationContext context) {
    Map<String, String> tags = context.call().lowCardinalityTags();
    KeyValues cached = lowCardinality.get(tags);
    if (cached != null) {
      return cached;
    }
    KeyValues built = keyValues(tags);
    if (lowCardinality.size() < CACHED_TAG_SETS) {
      lowCardinality.putIfAbsent(Map.copyOf(tags), built);
    }
    return built;
  }

  /** Returns the call's high-cardinality tags known at this moment. */
  @Override
  public KeyValues getHighCardinalityKeyValues(LoopxObservationContext context) {
    return keyValues(context.call().highCardinalityTags());
  }

  private static KeyValues keyValues(Map<String, String> tags) {
    if (tags.isEmpty()) {
      return KeyValues.empty();
    }
    KeyValue[] values = new KeyValue[tags.size()];
    int i = 0;
    for (Map.Entry<String, String> tag : tags.entrySet()) {
      values[i++] = KeyValue.of(tag.getKey(), tag.getValue());
    }
    return KeyValues.of(values);
  }
}
