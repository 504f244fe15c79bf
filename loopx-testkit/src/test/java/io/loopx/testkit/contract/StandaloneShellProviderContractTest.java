package io.loopx.testkit.contract;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kit used as documented, on a standalone shell provider that answers exactly the valid request
 * and refuses everything else: the doctor, malformed-request and valid-request checks pass; the
 * envelope check is skipped.
 */
class StandaloneShellProviderContractTest extends ProviderContractTest {
  /** Answers the one valid request (compact, as LoopX re-serialises it); refuses anything else. */
  static final String STRICT =
      """
      if [ "$1" = "--doctor" ]; then exit 0; fi
      input=$(cat)
      if [ "$input" = '%s' ]; then
        echo '{"ok":true,"schema_version":"demo_response_v0"}'
        exit 0
      fi
      echo '{"ok":false,"schema_version":"demo_response_v0","error":"request refused"}'
      exit 1
      """
          .formatted(Fixtures.VALID);

  @TempDir static Path packages;
  static Path manifest;

  @BeforeAll
  static void writePackage() {
    manifest = Fixtures.standalone(packages.resolve("demo-strict"), "demo-strict", STRICT);
  }

  @Override
  protected Path manifest() {
    return manifest;
  }

  @Override
  protected ObjectNode validRequest() {
    return Fixtures.validRequest();
  }
}
