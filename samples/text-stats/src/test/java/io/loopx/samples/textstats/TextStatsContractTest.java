package io.loopx.samples.textstats;

import io.loopx.api.json.StrictJson;
import io.loopx.testkit.contract.ProviderContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider contract kit on the sample: the real runtime installs {@code extension.toml} (the
 * {@code java_main} class resolved from this module's classes) and checks the doctor, the refusal
 * of every malformed request, and the answer to {@code examples/request.json}.
 */
class TextStatsContractTest extends ProviderContractTest {

  @Override
  protected Path manifest() {
    return Path.of("extension.toml").toAbsolutePath();
  }

  @Override
  protected ObjectNode validRequest() {
    try {
      return StrictJson.parseObject(Files.readAllBytes(Path.of("examples", "request.json")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
