package io.loopx.runtime.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.internal.Arguments;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A consistent snapshot of the durable activation state ({@code loopx_extension_state_v0}): the
 * installed extensions by id. Immutable; iteration is sorted by extension id.
 *
 * @param extensions the installed extensions, keyed by id
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ActivationState(SortedMap<ExtensionId, ExtensionRecord> extensions) {
  /** The schema version of the state file. */
  public static final String SCHEMA_VERSION = "loopx_extension_state_v0";

  /** The state with no installed extension (also what a missing state file reads as). */
  public static final ActivationState EMPTY = new ActivationState(new TreeMap<>());

  /** Copies the map and checks that every key is its record's id. */
  public ActivationState {
    TreeMap<ExtensionId, ExtensionRecord> copy =
        new TreeMap<>(Arguments.required("state extensions", extensions));
    copy.forEach(
        (id, record) -> {
          if (!id.equals(record.id())) {
            throw new InvalidValueException(
                "state key", id.value(), "holds the record of `" + record.id() + "`");
          }
        });
    extensions = Collections.unmodifiableSortedMap(copy);
  }

  /** Returns the record of {@code id}, if installed. */
  public Optional<ExtensionRecord> get(ExtensionId id) {
    return Optional.ofNullable(extensions.get(id));
  }

  /**
   * Returns the record of {@code id}, or throws {@code NOT_INSTALLED} (message {@code extension
   * `<id>` is not installed}).
   */
  public ExtensionRecord installed(ExtensionId id) {
    ExtensionRecord record = extensions.get(id);
    if (record == null) {
      throw new LoopxException(ErrorKind.NOT_INSTALLED, "extension `" + id + "` is not installed");
    }
    return record;
  }

  /** Returns a copy with {@code id} set to {@code record}, or removed when empty. */
  public ActivationState with(ExtensionId id, Optional<ExtensionRecord> record) {
    TreeMap<ExtensionId, ExtensionRecord> copy = new TreeMap<>(extensions);
    if (record.isPresent()) {
      copy.put(id, record.get());
    } else {
      copy.remove(id);
    }
    return new ActivationState(copy);
  }

  /** Returns whether no extension is installed. */
  public boolean isEmpty() {
    return extensions.isEmpty();
  }

  /** Returns an unmodifiable view (the record's map is already unmodifiable). */
  @Override
  public SortedMap<ExtensionId, ExtensionRecord> extensions() {
    return extensions;
  }
}
