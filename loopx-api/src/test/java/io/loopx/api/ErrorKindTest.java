package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorKindTest {

  @Test
  void wireNamesAreTheLowercaseSnakeCaseNames() {
    assertThat(ErrorKind.MANIFEST_INVALID.wireName()).isEqualTo("manifest_invalid");
    assertThat(ErrorKind.REVISION_ALREADY_ACTIVE.wireName()).isEqualTo("revision_already_active");
    assertThat(ErrorKind.INVALID_VALUE.wireName()).isEqualTo("invalid_value");
    assertThat(ErrorKind.PROVIDER_UNAVAILABLE.wireName()).isEqualTo("provider_unavailable");
    for (ErrorKind kind : ErrorKind.values()) {
      assertThat(kind.wireName()).matches("[a-z]+(_[a-z]+)*");
    }
    assertThat(Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName)).doesNotHaveDuplicates();
  }

  /** The kinds of docs/contract/errors.md's table, {@code usage} (the CLI's own) left out. */
  @Test
  void theKindsAreExactlyTheSpecTable() {
    List<String> spec =
        List.of(
            "manifest_invalid",
            "api_incompatible",
            "not_installed",
            "already_installed",
            "revision_already_active",
            "doctor_not_ready",
            "no_rollback_revision",
            "extension_disabled",
            "doctor_stale",
            "permission_denied",
            "resolution_failed",
            "catalog_conflict",
            "state_unreadable",
            "state_locked",
            "state_conflict",
            "request_invalid",
            "envelope_mismatch",
            "policy_denied",
            "scaffold_invalid",
            "entrypoint_unsupported",
            "registry_sealed",
            "contribution_failed",
            "invalid_value",
            "io_failed",
            "extension_enabled",
            "provider_busy",
            "provider_unavailable",
            "isolation_unavailable",
            "access_root_unknown");
    // Exactly: a new kind needs its row in errors.md and its word here.
    assertThat(Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName))
        .containsExactlyInAnyOrderElementsOf(spec);
    // `usage` is the sample CLI's own kind: a library has no command line.
    assertThat(Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName)).doesNotContain("usage");
  }

  @Test
  void invalidValueExceptionCarriesItsParts() {
    InvalidValueException e = new InvalidValueException("extension id", "Bad", "must be lower");

    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
    assertThat(e.what()).isEqualTo("extension id");
    assertThat(e.value()).isEqualTo("Bad");
    assertThat(e.getMessage()).isEqualTo("invalid extension id `Bad`: must be lower");
  }
}
