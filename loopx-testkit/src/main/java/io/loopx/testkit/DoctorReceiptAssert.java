package io.loopx.testkit;

import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.util.Optional;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed assertions on a {@link DoctorReceipt} (docs/contract/doctor.md): each checks the accessor
 * and the JSON key of the packet. Obtained from {@link ReceiptAssert#doctor()}.
 *
 * <pre>{@code
 * assertThatReceipt(install).doctor().hasStatus(DoctorStatus.READY).isVerified().hasNoFailure();
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class DoctorReceiptAssert extends AbstractAssert<DoctorReceiptAssert, DoctorReceipt> {
  private final ObjectNode json;

  DoctorReceiptAssert(DoctorReceipt actual) {
    super(actual, DoctorReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Verifies the status ({@code status}). */
  public DoctorReceiptAssert hasStatus(DoctorStatus expected) {
    return expect("status", actual.status() == expected, actual.status(), expected.wireName());
  }

  /** Verifies that the packet is {@code verified}. */
  public DoctorReceiptAssert isVerified() {
    return expect("verified", actual.verified(), actual.verified(), true);
  }

  /** Verifies that the packet is not {@code verified}. */
  public DoctorReceiptAssert isNotVerified() {
    return expect("verified", !actual.verified(), actual.verified(), false);
  }

  /** Verifies that the provider is {@code available}. */
  public DoctorReceiptAssert isAvailable() {
    return expect("available", actual.available(), actual.available(), true);
  }

  /** Verifies that the provider is not {@code available}. */
  public DoctorReceiptAssert isNotAvailable() {
    return expect("available", !actual.available(), actual.available(), false);
  }

  /** Verifies the failure ({@code failure_kind}). */
  public DoctorReceiptAssert hasFailure(DoctorFailure expected) {
    return expect(
        "failure_kind",
        actual.failure().equals(Optional.of(expected)),
        actual.failure(),
        expected.wireName());
  }

  /** Verifies that there is no failure ({@code failure_kind} is {@code null}). */
  public DoctorReceiptAssert hasNoFailure() {
    return expect("failure_kind", actual.failure().isEmpty(), actual.failure(), null);
  }

  /** Verifies the version the packet is about ({@code version}). */
  public DoctorReceiptAssert hasVersion(String expected) {
    return expect("version", actual.version().equals(expected), actual.version(), expected);
  }

  private DoctorReceiptAssert expect(
      String key, boolean typedMatches, @Nullable Object typedActual, @Nullable Object expected) {
    isNotNull();
    WireCheck.mismatch(json, key, typedMatches, typedActual, expected)
        .ifPresent(m -> failWithMessage("%s", m));
    return this;
  }
}
