package io.loopx.testkit;

import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.ToggleReceipt;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed assertions on an enable or disable receipt, {@link ToggleReceipt}
 * (docs/contract/lifecycle.md): each checks the accessor and the JSON key. Obtained from {@link
 * ReceiptAssert#toggle()}.
 *
 * <pre>{@code
 * assertThatReceipt(disable).toggle().hasOperation("disable").isPreview().wouldChange().isEnabled();
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ToggleReceiptAssert extends AbstractAssert<ToggleReceiptAssert, ToggleReceipt> {
  private final ObjectNode json;

  ToggleReceiptAssert(ToggleReceipt actual) {
    super(actual, ToggleReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Verifies the operation ({@code enable} or {@code disable}). */
  public ToggleReceiptAssert hasOperation(String expected) {
    return expect("operation", actual.operation().equals(expected), actual.operation(), expected);
  }

  /** Verifies that the receipt is a preview ({@code dry_run} true). */
  public ToggleReceiptAssert isPreview() {
    return expect("dry_run", actual.dryRun(), actual.dryRun(), true);
  }

  /** Verifies that the receipt is of an executed command ({@code dry_run} false). */
  public ToggleReceiptAssert isExecuted() {
    return expect("dry_run", !actual.dryRun(), actual.dryRun(), false);
  }

  /** Verifies that the enabled bit flipped ({@code changed} true). */
  public ToggleReceiptAssert isChanged() {
    return expect("changed", actual.changed(), actual.changed(), true);
  }

  /** Verifies that the enabled bit did not flip ({@code changed} false). */
  public ToggleReceiptAssert isNotChanged() {
    return expect("changed", !actual.changed(), actual.changed(), false);
  }

  /** Verifies that the command flips, or would flip, the enabled bit ({@code would_change}). */
  public ToggleReceiptAssert wouldChange() {
    return expect("would_change", actual.wouldChange(), actual.wouldChange(), true);
  }

  /** Verifies that the command does not flip the enabled bit ({@code would_change} false). */
  public ToggleReceiptAssert wouldNotChange() {
    return expect("would_change", !actual.wouldChange(), actual.wouldChange(), false);
  }

  /** Verifies that the extension is {@code enabled} (after the command, or now for a preview). */
  public ToggleReceiptAssert isEnabled() {
    return expect("enabled", actual.enabled(), actual.enabled(), true);
  }

  /** Verifies that the extension is not {@code enabled}. */
  public ToggleReceiptAssert isDisabled() {
    return expect("enabled", !actual.enabled(), actual.enabled(), false);
  }

  /** Verifies the active revision ({@code active_revision}). */
  public ToggleReceiptAssert hasActiveRevision(Revision expected) {
    return expect(
        "active_revision",
        actual.activeRevision().equals(expected),
        actual.activeRevision(),
        expected);
  }

  /** Verifies that the receipt has no doctor packet (a disable: no {@code doctor} key). */
  public ToggleReceiptAssert hasNoDoctor() {
    isNotNull();
    if (actual.doctor().isPresent() || json.has("doctor")) {
      failWithMessage("Expected no doctor packet but found %s in%n  %s", actual.doctor(), json);
    }
    return this;
  }

  /** Returns assertions on the doctor packet of the active revision (an enable receipt). */
  public DoctorReceiptAssert doctor() {
    isNotNull();
    if (actual.doctor().isEmpty()) {
      failWithMessage("Expected a doctor packet but the %s receipt has none", actual.operation());
    }
    return new DoctorReceiptAssert(actual.doctor().orElseThrow());
  }

  private ToggleReceiptAssert expect(
      String key, boolean typedMatches, @Nullable Object typedActual, @Nullable Object expected) {
    isNotNull();
    WireCheck.mismatch(json, key, typedMatches, typedActual, expected)
        .ifPresent(m -> failWithMessage("%s", m));
    return this;
  }
}
