package io.loopx.testkit;

import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.ActivationReceipt;
import java.util.Optional;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed assertions on an install or upgrade receipt, {@link ActivationReceipt}
 * (docs/contract/lifecycle.md): each checks the accessor and the JSON key. Obtained from {@link
 * ReceiptAssert#activation()}.
 *
 * <pre>{@code
 * assertThatReceipt(upgrade).activation()
 *     .hasOperation("upgrade").isExecuted().isChanged().hasPreviousRevision(first)
 *     .doctor().hasStatus(DoctorStatus.READY);
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ActivationReceiptAssert
    extends AbstractAssert<ActivationReceiptAssert, ActivationReceipt> {
  private final ObjectNode json;

  ActivationReceiptAssert(ActivationReceipt actual) {
    super(actual, ActivationReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Verifies the operation ({@code install} or {@code upgrade}). */
  public ActivationReceiptAssert hasOperation(String expected) {
    return expect("operation", actual.operation().equals(expected), actual.operation(), expected);
  }

  /** Verifies that the receipt is a preview ({@code dry_run} true). */
  public ActivationReceiptAssert isPreview() {
    return expect("dry_run", actual.dryRun(), actual.dryRun(), true);
  }

  /** Verifies that the receipt is of an executed command ({@code dry_run} false). */
  public ActivationReceiptAssert isExecuted() {
    return expect("dry_run", !actual.dryRun(), actual.dryRun(), false);
  }

  /** Verifies that the state was written ({@code changed} true). */
  public ActivationReceiptAssert isChanged() {
    return expect("changed", actual.changed(), actual.changed(), true);
  }

  /** Verifies that nothing was written ({@code changed} false). */
  public ActivationReceiptAssert isNotChanged() {
    return expect("changed", !actual.changed(), actual.changed(), false);
  }

  /** Verifies the candidate's version. */
  public ActivationReceiptAssert hasVersion(String expected) {
    return expect("version", actual.version().equals(expected), actual.version(), expected);
  }

  /** Verifies the candidate's revision. */
  public ActivationReceiptAssert hasRevision(Revision expected) {
    return expect("revision", actual.revision().equals(expected), actual.revision(), expected);
  }

  /** Verifies the revision active before ({@code previous_revision}). */
  public ActivationReceiptAssert hasPreviousRevision(Revision expected) {
    return expect(
        "previous_revision",
        actual.previousRevision().equals(Optional.of(expected)),
        actual.previousRevision(),
        expected);
  }

  /** Verifies that there was no revision before ({@code previous_revision} is {@code null}). */
  public ActivationReceiptAssert hasNoPreviousRevision() {
    return expect(
        "previous_revision", actual.previousRevision().isEmpty(), actual.previousRevision(), null);
  }

  /** Verifies {@code enabled}: {@code true} or {@code false}, or {@code null} for a preview. */
  public ActivationReceiptAssert hasEnabled(@Nullable Boolean expected) {
    return expect(
        "enabled",
        actual.enabled().equals(Optional.ofNullable(expected)),
        actual.enabled(),
        expected);
  }

  /** Verifies {@code rollback_available}. */
  public ActivationReceiptAssert hasRollbackAvailable(boolean expected) {
    return expect(
        "rollback_available",
        actual.rollbackAvailable() == expected,
        actual.rollbackAvailable(),
        expected);
  }

  /** Returns assertions on the candidate's doctor packet. */
  public DoctorReceiptAssert doctor() {
    isNotNull();
    return new DoctorReceiptAssert(actual.doctor());
  }

  private ActivationReceiptAssert expect(
      String key, boolean typedMatches, @Nullable Object typedActual, @Nullable Object expected) {
    isNotNull();
    WireCheck.mismatch(json, key, typedMatches, typedActual, expected)
        .ifPresent(m -> failWithMessage("%s", m));
    return this;
  }
}
