package io.loopx.micrometer;

import io.loopx.runtime.events.ObservedCall;
import io.micrometer.common.KeyValues;
import java.util.Map;
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

  private final @Nullable String name;

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
    switch (call.name()) {
      case "loopx.dispatch":
        return "loopx dispatch " + tags.getOrDefault("capability", NONE);
      case "loopx.run":
        return "loopx run " + tags.getOrDefault("extension", NONE);
      case "loopx.doctor":
        return "loopx doctor " + tags.getOrDefault("extension", NONE);
      case "loopx.lifecycle":
        String extension = tags.getOrDefault("extension", NONE);
        return "loopx "
            + tags.getOrDefault("operation", NONE)
            + (extension.equals(NONE) ? "" : " " + extension);
      default:
        return call.name().replace('.', ' ');
    }
  }

  /** Returns the call's low-cardinality tags, as they are at this moment. */
  @Override
  public KeyValues getLowCardinalityKeyValues(LoopxObservationContext context) {
    return KeyValues.of(
        context.call().lowCardinalityTags().entrySet(), Map.Entry::getKey, Map.Entry::getValue);
  }

  /** Returns the call's high-cardinality tags known at this moment. */
  @Override
  public KeyValues getHighCardinalityKeyValues(LoopxObservationContext context) {
    Map<String, String> tags = context.call().highCardinalityTags();
    return tags.isEmpty()
        ? KeyValues.empty()
        : KeyValues.of(tags.entrySet(), Map.Entry::getKey, Map.Entry::getValue);
  }
}
