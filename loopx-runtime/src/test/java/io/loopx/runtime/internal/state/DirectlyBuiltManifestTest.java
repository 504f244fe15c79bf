package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ApiRange;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.SurfaceVisibility;
import io.loopx.api.manifest.Visibility;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.RevisionSnapshot;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A manifest built through the public record constructors, not the loader, is written to a state
 * through the public record types; the next state read (a new store, as a new process would open
 * it) must accept it. So the constructors must refuse every value that read refuses.
 */
class DirectlyBuiltManifestTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String LONE = "\uD800";

  private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
  private final Path root = fs.getPath("/home/user/.loopx");

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  /** The fields a case changes; everything else is the valid default. */
  private record Parts(
      String version,
      String range,
      String surfaceId,
      String surfaceTitle,
      String viewValidator,
      Optional<String> emptyStateTitle,
      Optional<String> emptyStateDetail,
      String capabilityTitle,
      String entrypoint,
      Map<String, JsonNode> metadata) {

    static Parts valid() {
      return new Parts(
          "1.2.3",
          ">=1,<2",
          "demo-board",
          "Demo board",
          "io.example.DemoView#validate",
          Optional.of("Nothing yet"),
          Optional.of("Run the demo first."),
          "Demo capability",
          "bin/demo",
          Map.of("tags", NODES.arrayNode().add("a").add("b")));
    }

    ExtensionManifest build() {
      ProtocolId protocol = ProtocolId.of("demo_provider_v0");
      return new ExtensionManifest(
          ExtensionId.of("demo-ext"),
          version,
          ApiRange.parse(range),
          List.of(Permission.of("demo.read")),
          Optional.of(
              new RuntimeSpec(
                  protocol,
                  new LaunchTarget.Executable(entrypoint),
                  List.of("--serve"),
                  List.of("--doctor"),
                  List.of(Permission.of("demo.read")),
                  45)),
          List.of(
              new ProvidedCapability(
                  CapabilityId.of("demo-cap"),
                  KindToken.of("projection_sink"),
                  capabilityTitle,
                  "active",
                  Visibility.PUBLIC,
                  "value",
                  "ship it",
                  Optional.of("a real thing"),
                  Optional.of("loopx demo run"),
                  metadata)),
          List.of(),
          List.of(
              new PresentationSurface(
                  surfaceId,
                  KindToken.of("dashboard"),
                  surfaceTitle,
                  ProtocolId.of("demo_view_v0"),
                  viewValidator,
                  SurfaceVisibility.PUBLIC_SAFE,
                  emptyStateTitle,
                  emptyStateDetail)));
    }

    Parts version(String v) {
      return new Parts(
          v,
          range,
          surfaceId,
          surfaceTitle,
          viewValidator,
          emptyStateTitle,
          emptyStateDetail,
          capabilityTitle,
          entrypoint,
          metadata);
    }

    Parts range(String r) {
      return new Parts(
          version,
          r,
          surfaceId,
          surfaceTitle,
          viewValidator,
          emptyStateTitle,
          emptyStateDetail,
          capabilityTitle,
          entrypoint,
          metadata);
    }

    Parts surface(String id, String title, String validator) {
      return new Parts(
          version,
          range,
          id,
          title,
          validator,
          emptyStateTitle,
          emptyStateDetail,
          capabilityTitle,
          entrypoint,
          metadata);
    }

    Parts emptyState(Optional<String> title, Optional<String> detail) {
      return new Parts(
          version,
          range,
          surfaceId,
          surfaceTitle,
          viewValidator,
          title,
          detail,
          capabilityTitle,
          entrypoint,
          metadata);
    }

    Parts capability(String title, String entry) {
      return new Parts(
          version,
          range,
          surfaceId,
          surfaceTitle,
          viewValidator,
          emptyStateTitle,
          emptyStateDetail,
          title,
          entry,
          metadata);
    }

    Parts metadata(String key, JsonNode value) {
      Map<String, JsonNode> m = new LinkedHashMap<>();
      m.put(key, value);
      return new Parts(
          version,
          range,
          surfaceId,
          surfaceTitle,
          viewValidator,
          emptyStateTitle,
          emptyStateDetail,
          capabilityTitle,
          entrypoint,
          m);
    }
  }

  private static final Parts OK = Parts.valid();
  private static final String V = OK.viewValidator();

  static Stream<Arguments> valuesAStateReadRefuses() {
    return Stream.of(
        refused("surface title with \\n", OK.surface("demo-board", "Demo\nboard", V)),
        refused("surface title with \\r", OK.surface("demo-board", "Demo\rboard", V)),
        refused("surface title with www.", OK.surface("demo-board", "See www.example.org", V)),
        refused("surface title with a tag", OK.surface("demo-board", "Demo <b>board</b>", V)),
        refused("surface title with a path", OK.surface("demo-board", "Demo /etc/passwd", V)),
        refused("surface title of 81 characters", OK.surface("demo-board", "a".repeat(81), V)),
        refused("surface title with a lone surrogate", OK.surface("demo-board", "Demo" + LONE, V)),
        refused("surface id Bad_Id", OK.surface("Bad_Id", "Demo board", V)),
        refused("surface id of 49 characters", OK.surface("a".repeat(49), "Demo board", V)),
        refused("view validator without #", OK.surface("demo-board", "Demo board", "validate")),
        refused("empty empty_state_title", OK.emptyState(Optional.of(""), OK.emptyStateDetail())),
        refused(
            "untrimmed empty_state_title",
            OK.emptyState(Optional.of(" Nothing yet"), OK.emptyStateDetail())),
        refused(
            "empty_state_detail with a URL",
            OK.emptyState(OK.emptyStateTitle(), Optional.of("see https://x.example"))),
        refused("version with a lone surrogate", OK.version("1.2" + LONE)),
        refused("untrimmed API range", OK.range(" >=1,<2")),
        refused("capability title with a lone surrogate", OK.capability("Demo" + LONE, "bin/demo")),
        refused("entrypoint with a lone surrogate", OK.capability("Demo", "bin/demo" + LONE)),
        refused(
            "metadata key with a lone surrogate", OK.metadata("tag" + LONE, NODES.textNode("a"))),
        refused("metadata float", OK.metadata("score", NODES.numberNode(0.5))),
        refused("metadata null", OK.metadata("gone", NODES.nullNode())),
        refused("metadata untrimmed string", OK.metadata("note", NODES.textNode(" a"))),
        refused("metadata integer 2^60", OK.metadata("big", NODES.numberNode(1L << 60))),
        refused(
            "metadata float inside an array",
            OK.metadata("scores", NODES.arrayNode().add(1).add(0.5))),
        refused(
            "metadata nested key with a lone surrogate",
            OK.metadata("nested", NODES.objectNode().put("k" + LONE, true))));
  }

  @Test
  void aValidDirectlyBuiltManifestWritesAndReadsBack() {
    ExtensionManifest manifest = OK.build();
    assertThat(writeThenRead(manifest).installed(manifest.id()).revisions().get(0).manifest())
        .isEqualTo(manifest);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valuesAStateReadRefuses")
  void theConstructorsRefuseWhatTheNextStateReadWouldReject(String name, Supplier<?> build) {
    Throwable refused = catchThrowable(build::get);
    if (refused == null) {
      ExtensionManifest built = (ExtensionManifest) build.get();
      Throwable read = catchThrowable(() -> writeThenRead(built));
      assertThat(read).as("the state read after writing a directly built manifest").isNull();
    }
    assertThat(refused).isInstanceOf(InvalidValueException.class);
    assertThat(((InvalidValueException) refused).kind()).isEqualTo(ErrorKind.INVALID_VALUE);
  }

  private ActivationState writeThenRead(ExtensionManifest manifest) {
    FileActivationStore.inRuntimeRoot(root)
        .update(
            "install",
            List.of(
                new EntryChange(
                    manifest.id(),
                    Optional.empty(),
                    Optional.of(
                        ExtensionRecords.installed(
                            RevisionSnapshot.of(manifest, Optional.of("/opt/demo/bin/demo")),
                            Optional.of(identity(1)))))));
    return FileActivationStore.inRuntimeRoot(root).read();
  }

  private static Arguments refused(String name, Parts parts) {
    Supplier<ExtensionManifest> build = parts::build;
    return Arguments.of(name, build);
  }
}
