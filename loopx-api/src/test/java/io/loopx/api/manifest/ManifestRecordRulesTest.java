package io.loopx.api.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.KindToken;
import io.loopx.api.ProtocolId;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The records refuse what the manifest rules refuse, naming the field and the loader's rule. */
class ManifestRecordRulesTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static PresentationSurface surface(String id, String title, Optional<String> empty) {
    return new PresentationSurface(
        id,
        KindToken.of("dashboard"),
        title,
        ProtocolId.of("demo_view_v0"),
        "io.example.DemoView#validate",
        SurfaceVisibility.PUBLIC_SAFE,
        empty,
        Optional.empty());
  }

  private static ProvidedCapability capability(Map<String, JsonNode> metadata) {
    return new ProvidedCapability(
        CapabilityId.of("demo-cap"),
        KindToken.of("projection_sink"),
        "Demo",
        "active",
        Visibility.INTERNAL,
        "value",
        "ship it",
        Optional.empty(),
        Optional.empty(),
        metadata);
  }

  private static InvalidValueException refusal(Runnable build) {
    InvalidValueException e = catchThrowableOfType(InvalidValueException.class, build::run);
    assertThat(e).as("expected a refusal").isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
    return e;
  }

  @Test
  void surfaceTextsAndIdsFollowThePlainTextAndIdRules() {
    assertThat(refusal(() -> surface("demo", "a\nb", Optional.empty())).getMessage())
        .isEqualTo(
            "invalid presentation_surfaces.title `a\\u000Ab`: contains a control character"
                + " U+000A");
    assertThat(refusal(() -> surface("Bad_Id", "Demo", Optional.empty())).getMessage())
        .isEqualTo(
            "invalid presentation_surfaces.id `Bad_Id`: `Bad_Id` must be 1..48 characters of"
                + " lower-kebab-case");
    assertThat(refusal(() -> surface("demo", "Demo", Optional.of(""))).what())
        .isEqualTo("presentation_surfaces.empty_state_title");
    assertThat(surface("demo", "Demo board", Optional.of("Nothing yet")).title())
        .isEqualTo("Demo board");
  }

  @Test
  void metadataHoldsOnlyValuesAStateReadKeepsAsTheyAre() {
    assertThat(refusal(() -> capability(Map.of("score", NODES.numberNode(0.5)))).getMessage())
        .endsWith(
            "extra [[provides]] keys must be strings, integers, booleans, or arrays or tables of"
                + " those; got a non-integral number");
    assertThat(refusal(() -> capability(Map.of("tags", NODES.arrayNode().add(" a")))).what())
        .isEqualTo("provides.tags[0]");
    assertThat(refusal(() -> capability(Map.of("big", NODES.numberNode(1L << 60)))).getMessage())
        .endsWith("integer 1152921504606846976 is outside the interoperable range ±(2^53 - 1)");
    assertThat(capability(Map.of("n", NODES.numberNode((1L << 53) - 1))).metadata()).hasSize(1);
  }
}
