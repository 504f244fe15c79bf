package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.fail;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fails when the public API of a library module differs from its checked-in signature file {@code
 * <module>/api/<module>.txt}. Run with {@code -Dloopx.updateApiSignatures=true} to rewrite the
 * files instead, then review and commit the change.
 */
class ApiSignatureTest {

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
  void apiSignatureFileMatchesTheCompiledModule(String artifactId) {
    LibraryModule module = LibraryModule.named(artifactId);
    Optional<String> failure =
        SignatureFiles.verifyOrUpdate(
            module.signatureFile(),
            ApiSignatures.render(module),
            Boolean.getBoolean(ApiSignatures.UPDATE_PROPERTY),
            module.moduleName());
    failure.ifPresent(message -> fail(message));
  }
}
