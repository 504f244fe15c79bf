package io.loopx.samples.cli;

import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loopx semantic-preference recall --input-json (PATH | -) [--extension-id ID]}: the sample
 * host's capability command (docs/contract/dispatch.md, §10). It resolves the one ready
 * implementation of ({@code semantic-preference}, {@code semantic_preference_provider_v0}) or the
 * named extension, requires the permission {@code semantic_preference.read}, asks {@link
 * SampleHostPolicy}, binds the execution envelope with action {@code semantic_preference.recall}
 * and scope {@code {"capability_id":"semantic-preference","operation":"recall"}}, and sends the
 * caller's object plus {@code execution_envelope}. Prints the {@code loopx_capability_dispatch_v0}
 * receipt.
 */
@Command(
    name = "recall",
    mixinStandardHelpOptions = true,
    description = {
      "Recall the owner's preferences matching a query through the installed provider"
          + " (preview unless --execute).",
      "Exit 0 when the provider succeeded (or the preview is ready), 1 when it failed, 2 on errors"
          + " (also when no single ready provider resolves)."
    })
final class SemanticPreferenceRecallCommand extends SessionCommand {
  /** The protocol every implementation must speak. */
  static final ProtocolId PROTOCOL = ProtocolId.of("semantic_preference_provider_v0");

  /** The permission a recall needs: declared by the manifest and required by its runtime. */
  static final Permission READ = Permission.of("semantic_preference.read");

  @Mixin InputOption input = new InputOption();

  @Option(
      names = "--extension-id",
      paramLabel = "ID",
      description = "Use this installed provider (needed when several are ready).")
  @Nullable String extensionId;

  SemanticPreferenceRecallCommand(CliSession session) {
    super(session);
  }

  /** The dispatch of a recall: capability, protocol, action, scope and permission, no arguments. */
  static DispatchRequest.Builder request(Optional<ProviderId> provider) {
    DispatchRequest.Builder b =
        DispatchRequest.builder(
                SampleCatalog.SEMANTIC_PREFERENCE, PROTOCOL, SampleHostPolicy.RECALL)
            .scope(SampleHostPolicy.recallScope())
            .permission(READ);
    provider.ifPresent(b::providerId);
    return b;
  }

  @Override
  CommandOutput run(Settings settings) {
    String named = extensionId;
    Optional<ProviderId> provider =
        named == null ? Optional.empty() : Optional.of(ProviderId.of(Arguments.extensionId(named)));
    DispatchRequest.Builder request = request(provider);
    Loopx loopx = session.loopx(settings);
    try (InputStream body = input.open(session)) {
      return Views.invocation(loopx.dispatch(request.input(body).build(), settings.mode()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the request input", e);
    }
  }
}
