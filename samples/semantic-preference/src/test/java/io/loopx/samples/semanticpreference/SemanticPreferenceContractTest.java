package io.loopx.samples.semanticpreference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.json.StrictJson;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.testkit.contract.EnvelopeBinding;
import io.loopx.testkit.contract.ProviderContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider contract kit on the sample, with execution-envelope binding: the real runtime
 * installs {@code extension.toml} (the {@code java_main} class resolved from this module's classes)
 * next to the host's built-in {@code semantic-preference} contract, dispatches through that
 * capability with the binding {@code loopx semantic-preference recall} uses ({@link
 * Fixtures#BINDING}: action, scope and permission; the kit adds the extension, its revision and the
 * request digest), and checks the doctor, the refusal of every malformed request, the answer to
 * {@code examples/request.json}, the refusal of every single-field mutation of the envelope, which
 * the provider re-verifies, and, since the manifest declares {@code [runtime.worker]}, the worker
 * protocol of {@code ProviderMain}'s worker mode on a real process (handshake, one response frame
 * per request, each request's own envelope verified, exit 0 at the end of stdin).
 *
 * <p>Every inherited check must run: the watcher below records each skipped one and {@link
 * #noCheckOfTheKitWasSkipped()} fails the class if there was any.
 */
class SemanticPreferenceContractTest extends ProviderContractTest {
  private static final List<String> SKIPPED = new ArrayList<>();

  @RegisterExtension
  static final TestWatcher SKIPS =
      new TestWatcher() {
        @Override
        public void testAborted(ExtensionContext context, Throwable cause) {
          SKIPPED.add(context.getDisplayName() + ": " + cause.getMessage());
        }

        @Override
        public void testDisabled(ExtensionContext context, Optional<String> reason) {
          SKIPPED.add(context.getDisplayName() + ": " + reason.orElse("disabled"));
        }
      };

  @AfterAll
  static void noCheckOfTheKitWasSkipped() {
    assertThat(SKIPPED).as("checks of the contract kit that were skipped").isEmpty();
  }

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

  @Override
  protected Optional<EnvelopeBinding> envelopeBinding() {
    return Optional.of(Fixtures.BINDING);
  }

  @Override
  protected List<BuiltinContribution> builtins() {
    return List.of(new SemanticPreferenceContract());
  }

  /**
   * The negative case: the kit bound with a deliberately broken binding (another action than the
   * provider verifies) gets its correctly bound request refused by the provider, so the envelope
   * check fails at its baseline; the provider really re-verifies what the host binds.
   */
  @Test
  void aBrokenEnvelopeIsRefusedByTheProvider(@TempDir Path sandbox) {
    EnvelopeBinding broken =
        EnvelopeBinding.of(
            ActionToken.of("semantic_preference.forget"),
            SemanticPreferenceProvider.scope(),
            Fixtures.BINDING.permission());
    ProviderContractTest kit =
        new SemanticPreferenceContractTest() {
          @Override
          protected Optional<EnvelopeBinding> envelopeBinding() {
            return Optional.of(broken);
          }
        };

    assertThatThrownBy(() -> kit.everySingleFieldEnvelopeMutationIsRejected(sandbox))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the correctly bound request, launched directly, succeeds")
        .hasMessageContaining("\"ok\":false")
        .hasMessageContaining("execution envelope");
  }
}
