package io.loopx.api.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExtensionManifestTest {

  @Test
  void goldenVectorOfSpec21ReproducesByteForByte() {
    ExtensionManifest manifest =
        new ExtensionManifest(
            ExtensionId.of("golden-example"),
            "1.0.0",
            ApiRange.parse(">=1,<2"),
            List.of(),
            Optional.of(
                new RuntimeSpec(
                    ProtocolId.of("golden_example_v0"),
                    new LaunchTarget.Executable("golden-provider"),
                    List.of(),
                    List.of("--doctor"),
                    List.of(),
                    RuntimeSpec.DEFAULT_TIMEOUT_SECONDS)),
            List.of(),
            List.of(),
            List.of());

    assertThat(manifest.toCanonicalJson())
        .isEqualTo(
            "{\"id\":\"golden-example\",\"implements\":[],\"permissions\":[],"
                + "\"presentation_surfaces\":[],\"provides\":[],\"requires_loopx_api\":\">=1,<2\","
                + "\"runtime\":{\"args\":[],\"doctor_args\":[\"--doctor\"],"
                + "\"entrypoint\":\"golden-provider\",\"protocol\":\"golden_example_v0\","
                + "\"required_permissions\":[],\"timeout_seconds\":30},"
                + "\"schema_version\":\"loopx_extension_manifest_v0\",\"version\":\"1.0.0\"}");
    assertThat(manifest.revision().value()).isEqualTo("1566783bb5842048");
  }
}
