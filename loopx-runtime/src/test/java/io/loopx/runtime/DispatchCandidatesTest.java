package io.loopx.runtime;

import static io.loopx.runtime.DispatchTest.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dispatch checks the freshness of its capability's candidates only
 * (docs/contract/doctor.md#freshness), with real providers: a broken extension of another
 * capability does not stop it (while {@code registry()} shows that extension not ready), and a
 * change of a candidate is seen by the very next dispatch.
 */
class DispatchCandidatesTest {
  @TempDir Path tmp;

  static final class Contracts implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-contracts";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(DispatchTest.capability("demo-recall"));
      context.addCapability(DispatchTest.capability("demo-other"));
    }
  }

  private Path provider(String id, String capability, String protocol) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    Files.writeString(
        script,
        "#!/bin/sh\n[ \"$1\" = \"--doctor\" ] && exit 0\ncat > /dev/null\necho '{\"ok\":true}'\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "permissions = [\"demo.read\"]\n[runtime]\nprotocol = \""
            + protocol
            + "\"\nentrypoint = \"bin/provider\"\ndoctor_args = [\"--doctor\"]\n"
            + "required_permissions = [\"demo.read\"]\n[[implements]]\ncapability_id = \""
            + capability
            + "\"\nprotocol = \""
            + protocol
            + "\"\n",
        StandardCharsets.UTF_8);
    return dir;
  }

  @Test
  void onlyTheCandidatesOfTheDispatchedCapabilityMatter() throws IOException {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new Contracts())
            .domainPolicy(DomainPolicy.allowAll())
            .build();
    Path recall = provider("demo-provider", "demo-recall", "demo_recall_v0");
    Path other = provider("other-provider", "demo-other", "demo_other_v0");
    loopx.install(LoadedManifest.load(recall.resolve("extension.toml")), Mode.EXECUTE);
    loopx.install(LoadedManifest.load(other.resolve("extension.toml")), Mode.EXECUTE);
    assertThat(
            loopx
                .dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE)
                .ok())
        .isTrue();

    // Another capability's extension breaks: the dispatch is unaffected, the full read sees it.
    Files.writeString(other.resolve("bin/provider"), "#!/bin/sh\nexit 3\n");
    assertThat(
            loopx
                .dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE)
                .ok())
        .isTrue();
    assertThat(
            loopx
                .registry()
                .provider(ProviderId.of("other-provider"))
                .orElseThrow()
                .state()
                .ready())
        .isFalse();
    assertThat(
            loopx.registry().provider(ProviderId.of("demo-provider")).orElseThrow().state().ready())
        .isTrue();

    // The candidate changes: the very next dispatch sees it (named or not).
    Files.writeString(
        recall.resolve("bin/provider"),
        "#!/bin/sh\necho '{\"ok\":false}'\n",
        StandardCharsets.UTF_8);
    assertFails(
        () ->
            loopx.dispatch(
                DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE),
        ErrorKind.RESOLUTION_FAILED,
        "demo-recall");
    assertFails(
        () ->
            loopx.dispatch(
                DispatchTest.request(
                        Optional.of(ProviderId.of("demo-provider")), java.util.List.of())
                    .input(DispatchTest.REQUEST)
                    .build(),
                Mode.EXECUTE),
        ErrorKind.DOCTOR_STALE,
        "demo-provider");
    assertThat(loopx.registry().capability(CapabilityId.of("demo-recall"))).isPresent();
  }
}
