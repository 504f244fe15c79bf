package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.buildchecks.fixtures.status.Marked;
import io.loopx.buildchecks.fixtures.status.MarkedInternal;
import io.loopx.buildchecks.fixtures.status.Unmarked;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every exported type of a library module carries {@code @API}; the check itself on fixtures. */
class ApiStatusTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "loopx-api",
        "loopx-registry",
        "loopx-runtime",
        "loopx-testkit",
        "loopx-scaffold",
        "loopx-store-postgresql",
        "loopx-micrometer",
        "loopx-opentelemetry"
      })
  void everyExportedTypeHasAnApiStatus(String artifactId) {
    assertThat(ApiStatus.problems(LibraryModule.named(artifactId))).isEmpty();
  }

  @Test
  void aTypeWithoutApiFails() {
    assertThat(ApiStatus.problems(List.of(Marked.class, Unmarked.class), false))
        .containsExactly(
            Unmarked.class.getCanonicalName() + ": no @API(status = ..., since = ...)");
  }

  @Test
  void nestedTypesInheritOrDeclareTheirOwn() {
    assertThat(ApiStatus.problems(List.of(Marked.Inner.class, Marked.Trial.class), false))
        .isEmpty();
    assertThat(ApiSignatures.apiOf(Marked.Inner.class).orElseThrow().status())
        .isEqualTo(org.apiguardian.api.API.Status.STABLE);
  }

  @Test
  void qualifiedExportsMustBeInternalAndUnqualifiedMustNot() {
    assertThat(ApiStatus.problems(List.of(Marked.class, MarkedInternal.class), true))
        .containsExactly(
            Marked.class.getCanonicalName()
                + ": in a package exported only to LoopX modules, but STABLE");
    assertThat(ApiStatus.problems(List.of(MarkedInternal.class), false))
        .containsExactly(
            MarkedInternal.class.getCanonicalName()
                + ": INTERNAL, but its package is exported to everyone");
  }

  @Test
  void signatureLinesRecordOwnAndInheritedStatus() {
    String api = "@org.apiguardian.api.API";
    assertThat(ApiSignatures.describe(Marked.class).get(0))
        .endsWith(": " + api + "(status=STABLE, since=\"0.1\") public final class Marked");
    assertThat(ApiSignatures.describe(Marked.Inner.class).get(0))
        .contains(": " + api + "(status=STABLE, since=\"0.1\") public static record Marked.Inner");
    assertThat(ApiSignatures.describe(Marked.Trial.class).get(0))
        .contains(": " + api + "(status=EXPERIMENTAL, since=\"0.2\") public static interface");
  }
}
