package io.loopx.runtime.internal.observe;

import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a dispatch or run learns about itself while it runs and its receipt does not say (or says
 * only when it returns): the provider it resolved, the revision and the path the provider took. The
 * {@link io.loopx.runtime.events.ObservedCall} of its end reads it, also when the call threw. One
 * per observed call, written and read on the calling thread; {@link #NONE} (no observers) records
 * nothing, so an unobserved call allocates nothing for it.
 */
public final class CallFacts {
  /** The facts of an unobserved call: every method does nothing. */
  public static final CallFacts NONE = new CallFacts(false);

  /** How a provider ran (the {@code path} tag of docs/observing.md#call-observers). */
  public enum Path {
    /** Nothing ran: a preview, or a call refused before its provider ran. */
    NONE("none"),
    /** A one-shot provider process. */
    ONE_SHOT("one_shot"),
    /** A request frame answered by a warm worker. */
    WORKER("worker"),
    /** A built-in provider, in process. */
    IN_PROCESS("in_process");

    private final String wireName;

    Path(String wireName) {
      this.wireName = wireName;
    }

    /** Returns the tag value. */
    public String wireName() {
      return wireName;
    }
  }

  private final boolean recording;
  private boolean extension;
  private @Nullable ProviderId provider;
  private @Nullable Revision revision;
  private Path path = Path.NONE;

  private CallFacts(boolean recording) {
    this.recording = recording;
  }

  /** Returns empty facts that record. */
  static CallFacts recording() {
    return new CallFacts(true);
  }

  /**
   * Notes the provider a dispatch resolved ({@code extension}: an extension's, not a built-in) and
   * the revision bound to the call; nothing is allocated for it.
   */
  public void resolved(ProviderId provider, boolean extension, Revision revision) {
    if (recording) {
      this.provider = provider;
      this.extension = extension;
      this.revision = revision;
    }
  }

  /** Notes the revision a run prepared. */
  public void revision(Revision revision) {
    if (recording) {
      this.revision = revision;
    }
  }

  /** Notes how the provider ran. */
  public void ran(Path path) {
    if (recording) {
      this.path = path;
    }
  }

  /** The resolved provider's extension id; {@code none} for a built-in or before resolution. */
  String extensionTag() {
    ProviderId p = provider;
    return p != null && extension ? p.value() : ObservedCallRecord.NONE;
  }

  Optional<ProviderId> provider() {
    return Optional.ofNullable(provider);
  }

  Optional<Revision> revision() {
    return Optional.ofNullable(revision);
  }

  Path path() {
    return path;
  }
}
