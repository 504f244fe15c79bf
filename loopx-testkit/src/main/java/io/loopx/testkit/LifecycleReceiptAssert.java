package io.loopx.testkit;

import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed assertions on a {@link LifecycleReceipt} of install, upgrade, enable, disable, rollback or
 * uninstall (docs/contract/lifecycle.md): each checks the accessor and the JSON key. Obtained from
 * {@link ReceiptAssert#lifecycle()}.
 *
 * <pre>{@code
 * assertThatReceipt(upgrade).lifecycle()
 *     .hasOperation("upgrade").isExecuted().isChanged().hasPreviousRevision(first)
 *     .doctor().hasStatus(DoctorStatus.READY);
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class LifecycleReceiptAssert
    extends AbstractAssert<LifecycleReceiptAssert, LifecycleReceipt> {
  private final ObjectNode json;

  LifecycleReceiptAssert(LifecycleReceipt actual) {
    super(actual, LifecycleReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Verifies the operation, e.g. {@code install} or {@code disable}. */
  public LifecycleReceiptAssert hasOperation(String expected) {
    return expect("operation", actual.operation().equals(expected), actual.operation(), expected);
  }

  /** Verifies that the receipt is a preview ({@code dry_run} true). */
  public LifecycleReceiptAssert isPreview() {
    return expect("dry_run", actual.mode() == Mode.PREVIEW, actual.mode(), true);
  }

  /** Verifies that the receipt is of an executed command ({@code dry_run} false). */
  public LifecycleReceiptAssert isExecuted() {
    return expect("dry_run", actual.mode() == Mode.EXECUTE, actual.mode(), false);
  }

  /** Verifies that the state was written ({@code changed} true). */
  public LifecycleReceiptAssert isChanged() {
    return expect("changed", actual.changed(), actual.changed(), true);
  }

  /** Verifies that nothing was written ({@code changed} false). */
  public LifecycleReceiptAssert isNotChanged() {
    return expect("changed", !actual.changed(), actual.changed(), false);
  }

  /**
   * Verifies that an enable or disable flips, or would flip, the enabled bit ({@code would_change},
   * a key of the JSON only).
   */
  public LifecycleReceiptAssert wouldChange() {
    return expect("would_change", true, json.get("would_change"), true);
  }

  /** Verifies that an enable or disable does not flip the enabled bit ({@code would_change}). */
  public LifecycleReceiptAssert wouldNotChange() {
    return expect("would_change", true, json.get("would_change"), false);
  }

  /** Verifies the target revision's version ({@code version}). */
  public LifecycleReceiptAssert hasVersion(String expected) {
    return expect(
        "version", actual.version().equals(Optional.of(expected)), actual.version(), expected);
  }

  /**
   * Verifies the revision active after the command: {@code revision}, or {@code active_revision} of
   * an enable or disable.
   */
  public LifecycleReceiptAssert hasRevision(Revision expected) {
    String key = json.has("active_revision") ? "active_revision" : "revision";
    return expect(
        key, actual.revision().equals(Optional.of(expected)), actual.revision(), expected);
  }

  /** Verifies the revision active before ({@code previous_revision}). */
  public LifecycleReceiptAssert hasPreviousRevision(Revision expected) {
    return expect(
        "previous_revision",
        actual.previousRevision().equals(Optional.of(expected)),
        actual.previousRevision(),
        expected);
  }

  /** Verifies that there was no revision before ({@code previous_revision} is {@code null}). */
  public LifecycleReceiptAssert hasNoPreviousRevision() {
    return expect(
        "previous_revision", actual.previousRevision().isEmpty(), actual.previousRevision(), null);
  }

  /** Verifies {@code enabled}: {@code true} or {@code false}, or {@code null} (install preview). */
  public LifecycleReceiptAssert hasEnabled(@Nullable Boolean expected) {
    return expect(
        "enabled",
        actual.enabled().equals(Optional.ofNullable(expected)),
        actual.enabled(),
        expected);
  }

  /** Verifies that the extension is {@code enabled} (after the command, or now for a preview). */
  public LifecycleReceiptAssert isEnabled() {
    return hasEnabled(true);
  }

  /** Verifies that the extension is not {@code enabled}. */
  public LifecycleReceiptAssert isDisabled() {
    return hasEnabled(false);
  }

  /** Verifies {@code rollback_available} of an install or upgrade. */
  public LifecycleReceiptAssert hasRollbackAvailable(boolean expected) {
    return expect(
        "rollback_available",
        actual.rollbackAvailable().equals(Optional.of(expected)),
        actual.rollbackAvailable(),
        expected);
  }

  /** Verifies the revisions an uninstall removed ({@code removed_revisions}), in order. */
  public LifecycleReceiptAssert hasRemovedRevisions(Revision... expected) {
    isNotNull();
    List<String> wire = new ArrayList<>();
    json.path("removed_revisions").values().forEach(r -> wire.add(r.asString()));
    List<String> values = Stream.of(expected).map(Revision::value).toList();
    if (!actual.removedRevisions().equals(List.of(expected)) || !wire.equals(values)) {
      failWithMessage(
          "Expected <removed_revisions> to be <%s> but the receipt holds <%s> and its JSON <%s> in%n"
              + "  %s",
          values, actual.removedRevisions(), json.get("removed_revisions"), json);
    }
    return this;
  }

  /** Verifies that the receipt has no doctor packet (disable, uninstall: no {@code doctor} key). */
  public LifecycleReceiptAssert hasNoDoctor() {
    isNotNull();
    if (actual.doctor().isPresent() || json.has("doctor")) {
      failWithMessage("Expected no doctor packet but found %s in%n  %s", actual.doctor(), json);
    }
    return this;
  }

  /** Returns assertions on the target revision's doctor packet; fails when there is none. */
  public DoctorReceiptAssert doctor() {
    isNotNull();
    if (actual.doctor().isEmpty()) {
      failWithMessage("Expected a doctor packet but the %s receipt has none", actual.operation());
    }
    return new DoctorReceiptAssert(actual.doctor().orElseThrow());
  }

  private LifecycleReceiptAssert expect(
      String key, boolean typedMatches, @Nullable Object typedActual, @Nullable Object expected) {
    isNotNull();
    WireCheck.mismatch(json, key, typedMatches, typedActual, expected)
        .ifPresent(m -> failWithMessage("%s", m));
    return this;
  }
}
