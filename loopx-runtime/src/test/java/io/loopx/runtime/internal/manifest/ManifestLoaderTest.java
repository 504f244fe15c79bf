package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.FULL;
import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.edit;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ErrorKind;
import io.loopx.api.Permission;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.SurfaceVisibility;
import io.loopx.api.manifest.Visibility;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** File handling, the golden vector, normalisation details and the sample manifests. */
class ManifestLoaderTest {
  private static final String GOLDEN_CANONICAL =
      "{\"id\":\"golden-example\",\"implements\":[],\"permissions\":[],"
          + "\"presentation_surfaces\":[],\"provides\":[],\"requires_loopx_api\":\">=1,<2\","
          + "\"runtime\":{\"args\":[],\"doctor_args\":[\"--doctor\"],"
          + "\"entrypoint\":\"golden-provider\",\"protocol\":\"golden_example_v0\","
          + "\"required_permissions\":[],\"timeout_seconds\":30},"
          + "\"schema_version\":\"loopx_extension_manifest_v0\",\"version\":\"1.0.0\"}";

  private FileSystem fs;
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    fs =
        Jimfs.newFileSystem(
            Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
    dir = Files.createDirectories(fs.getPath("/work/ext"));
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  // ------------------------------------------------------------------ golden vector

  @Test
  void goldenVectorFromTomlIsByteForByte() throws IOException {
    Path file = Files.writeString(dir.resolve("extension.toml"), GOLDEN);
    LoadedManifest loaded = LoadedManifest.load(file);

    assertThat(loaded.manifest().toCanonicalJson()).isEqualTo(GOLDEN_CANONICAL);
    assertThat(loaded.revision().value()).isEqualTo("1566783bb5842048");
    assertThat(loaded.manifest().revision()).isEqualTo(loaded.revision());
    assertThat(loaded.source()).isEqualTo("/work/ext/extension.toml");
    assertThat(loaded.directory()).isEqualTo(dir);
  }

  @Test
  void relativePathsKeepTheirSourceAndResolveTheirDirectory() throws IOException {
    Files.writeString(dir.resolve("extension.toml"), GOLDEN);
    Path relative = fs.getPath("/work").relativize(dir.resolve("extension.toml"));
    Path viaWorkingDir = fs.getPath("/work").resolve(relative);

    LoadedManifest loaded = LoadedManifest.load(viaWorkingDir);

    assertThat(loaded.directory()).isEqualTo(dir);
    assertThat(loaded.revision().value()).isEqualTo("1566783bb5842048");
  }

  // ------------------------------------------------------------------ file-level problems

  @Test
  void missingFileIsManifestInvalid() {
    ManifestException e = loadFailure(dir.resolve("absent.toml"));
    assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
    assertThat(e.getMessage()).contains("/work/ext/absent.toml").contains("does not exist");
  }

  @Test
  void directoryIsNotARegularFile() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("extension.toml"));
    ManifestException e = loadFailure(sub);
    assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
    assertThat(e.getMessage()).contains("is not a regular file");
  }

  @Test
  void symlinkToARegularFileIsFollowed() throws IOException {
    Path target = Files.writeString(dir.resolve("real.toml"), GOLDEN);
    Path link = Files.createSymbolicLink(dir.resolve("extension.toml"), target);
    assertThat(LoadedManifest.load(link).revision().value()).isEqualTo("1566783bb5842048");
  }

  @Test
  void exactlyTheCapIsReadAndOneByteMoreIsRejected() throws IOException {
    byte[] atCap = padTo(GOLDEN, ManifestLoader.MAX_MANIFEST_BYTES);
    Path ok = Files.write(dir.resolve("cap.toml"), atCap);
    assertThat(LoadedManifest.load(ok).revision().value()).isEqualTo("1566783bb5842048");
    assertThat(LoadedManifest.parse(atCap, "cap", dir).revision().value())
        .isEqualTo("1566783bb5842048");

    byte[] overCap = padTo(GOLDEN, ManifestLoader.MAX_MANIFEST_BYTES + 1);
    Path big = Files.write(dir.resolve("big.toml"), overCap);
    ManifestException fromFile = loadFailure(big);
    assertThat(fromFile.key()).isEqualTo(ManifestException.FILE_KEY);
    assertThat(fromFile.getMessage()).contains("262144-byte limit");
    ManifestException fromBytes =
        catchThrowableOfType(
            ManifestException.class, () -> LoadedManifest.parse(overCap, "mem", dir));
    assertThat(fromBytes.getMessage()).contains("262145 bytes").contains("262144-byte limit");
  }

  @Test
  void aHugeFileIsRejectedBySizeNotByParsing() throws IOException {
    byte[] huge = new byte[4 * ManifestLoader.MAX_MANIFEST_BYTES];
    Arrays.fill(huge, (byte) 0xFF); // also invalid UTF-8: the size check must come first
    Path file = Files.write(dir.resolve("huge.toml"), huge);
    assertThat(loadFailure(file).getMessage()).contains("larger than the 262144-byte limit");
  }

  @Test
  void invalidUtf8IsRejectedNamingTheFileAndOffset() throws IOException {
    byte[] good = GOLDEN.getBytes(StandardCharsets.UTF_8);
    for (byte[] bad :
        List.of(
            new byte[] {(byte) 0xC3, 0x28}, // truncated two-byte sequence
            new byte[] {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // encoded surrogate
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // beyond U+10FFFF
            new byte[] {(byte) 0xE2, (byte) 0x82})) { // truncated at end of file
      byte[] content = new byte[good.length + 7 + bad.length];
      System.arraycopy(good, 0, content, 0, good.length);
      byte[] prefix = "x = \"a".getBytes(StandardCharsets.UTF_8);
      System.arraycopy(prefix, 0, content, good.length, prefix.length);
      System.arraycopy(bad, 0, content, good.length + prefix.length, bad.length);
      content[content.length - 1] = '"';
      Path file = Files.write(dir.resolve("utf8.toml"), content);

      ManifestException e = loadFailure(file);
      assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
      assertThat(e.getMessage())
          .startsWith("/work/ext/utf8.toml: (file): ")
          .contains("not valid UTF-8")
          .contains("offset " + (good.length + prefix.length));
    }
  }

  @Test
  void aLeadingByteOrderMarkIsAllowedAndOnlyThere() {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] body = GOLDEN.getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[bom.length + body.length];
    System.arraycopy(bom, 0, content, 0, bom.length);
    System.arraycopy(body, 0, content, bom.length, body.length);
    assertThat(LoadedManifest.parse(content, "bom", dir).manifest())
        .isEqualTo(LoadedManifest.parse(body, "plain", dir).manifest());
    byte[] twice = new byte[bom.length + content.length];
    System.arraycopy(bom, 0, twice, 0, bom.length);
    System.arraycopy(content, 0, twice, bom.length, content.length);
    assertThatThrownBy(() -> LoadedManifest.parse(twice, "bom", dir))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("line 1, column 1")
        .extracting(t -> ((ManifestException) t).key())
        .isEqualTo(ManifestException.FILE_KEY);
  }

  @Test
  void duplicateKeysAreRejected() {
    for (String toml :
        List.of(
            GOLDEN + "doctor_args = [\"--again\"]\n",
            GOLDEN.replace("id = \"golden-example\"", "id = \"golden-example\"\nid = \"other\""),
            GOLDEN + "[runtime]\nargs = []\n",
            GOLDEN.replace(
                "[runtime]", "runtime = {protocol = \"golden_example_v0\"}\n[runtime]"))) {
      ManifestException e = Manifests.rejection(toml);
      assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
      assertThat(e.detail()).startsWith("is not valid TOML");
    }
  }

  @Test
  void integersOutsideTheSigned64BitRangeAreRejectedNotWrapped() {
    for (String literal :
        List.of(
            "9223372036854775808",
            "-9223372036854775809",
            "18446744073709551646",
            "0xFFFFFFFFFFFFFFFF",
            "0o1777777777777777777777",
            "1" + "0".repeat(100))) {
      ManifestException e =
          Manifests.rejection(GOLDEN.replace("[runtime]", "ignored = " + literal + "\n[runtime]"));
      assertThat(e.key()).as(literal).isEqualTo(ManifestException.FILE_KEY);
      assertThat(e.detail()).as(literal).contains("outside the 64-bit range");
    }
    String largest =
        GOLDEN.replace("[runtime]", "a = 9223372036854775807\nb = -9223372036854775808\n[runtime]");
    assertThat(parse(largest).revision().value()).isEqualTo("1566783bb5842048");
  }

  // ------------------------------------------------------------------ normalisation

  @Test
  void fullManifestNormalisesEveryTable() {
    ExtensionManifest m = parse(FULL).manifest();
    RuntimeSpec rt = m.runtime().orElseThrow();
    assertThat(rt.launchTarget()).isEqualTo(new LaunchTarget.Executable("bin/demo"));
    assertThat(rt.args()).containsExactly("--serve");
    assertThat(rt.requiredPermissions()).containsExactly(Permission.of("demo.read"));
    assertThat(rt.timeoutSeconds()).isEqualTo(45);
    ProvidedCapability cap = m.provides().get(0);
    assertThat(cap.visibility()).isEqualTo(Visibility.PUBLIC);
    assertThat(cap.metadata()).containsOnlyKeys("tags");
    assertThat(cap.metadata().get("tags").toString()).isEqualTo("[\"a\",\"b\"]");
    PresentationSurface surface = m.presentationSurfaces().get(0);
    assertThat(surface.visibility()).isEqualTo(SurfaceVisibility.PUBLIC_SAFE);
    assertThat(surface.emptyStateDetail()).contains("Run the demo first.");
    assertThat(m.implementations()).hasSize(1);
  }

  @Test
  void defaultsAreFilledAndStringsTrimmed() {
    String toml =
        """
        schema_version = " loopx_extension_manifest_v0 "
        id = "\\tpadded "
        version = " 2.0 "
        requires_loopx_api = " >=1, <2 "
        permissions = [" a.read "]
        [runtime]
        protocol = " padded_v1 "
        java_main = " io.example.Main "
        entrypoint = "   "
        args = [" --x "]
        """;
    ExtensionManifest m = parse(toml).manifest();
    assertThat(m.id().value()).isEqualTo("padded");
    assertThat(m.version()).isEqualTo("2.0");
    assertThat(m.requiresLoopxApi().toString()).isEqualTo(">=1, <2");
    assertThat(m.permissions()).containsExactly(Permission.of("a.read"));
    RuntimeSpec rt = m.runtime().orElseThrow();
    assertThat(rt.launchTarget()).isEqualTo(new LaunchTarget.JavaMain("io.example.Main"));
    assertThat(rt.args()).containsExactly("--x");
    assertThat(rt.doctorArgs()).isEmpty();
    assertThat(rt.requiredPermissions()).isEmpty();
    assertThat(rt.timeoutSeconds()).isEqualTo(RuntimeSpec.DEFAULT_TIMEOUT_SECONDS);
  }

  @Test
  void unknownTopLevelKeysOfAnyTypeAreIgnoredAndDropped() {
    String toml =
        GOLDEN.replace(
            "[runtime]",
            "homepage = \"https://example.test\"\nreleased = 1979-05-27T07:32:00Z\n"
                + "ratio = 0.5\n[build]\nflags = [1.5]\n[runtime]");
    LoadedManifest loaded = parse(toml);
    assertThat(loaded.revision().value()).isEqualTo("1566783bb5842048");
    assertThat(loaded.manifest().toNormalizedJson().has("homepage")).isFalse();
  }

  @Test
  void internalCapabilitiesNeedNoAnchorOrEntryCommandAndKeepMetadataInOrder() {
    String toml =
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "meta"
        version = "1"
        requires_loopx_api = "1"
        [[provides]]
        id = "inner"
        kind = "helper"
        title = "Inner"
        status = "experimental"
        visibility = "internal"
        user_value = "v"
        next_real_step = "n"
        zeta = " trimmed "
        alpha = 9007199254740991
        nested = { b = [true, -3, "x"], a = { deep = "y" } }
        """;
    ProvidedCapability cap = parse(toml).manifest().provides().get(0);
    assertThat(cap.visibility()).isEqualTo(Visibility.INTERNAL);
    assertThat(cap.realWorldAnchor()).isEmpty();
    assertThat(cap.entryCommand()).isEmpty();
    assertThat(cap.metadata()).containsOnlyKeys("zeta", "alpha", "nested");
    assertThat(List.copyOf(cap.metadata().keySet())).containsExactly("zeta", "alpha", "nested");
    assertThat(cap.metadata().get("zeta").stringValue()).isEqualTo("trimmed");
    assertThat(cap.metadata().get("alpha").longValue()).isEqualTo(9007199254740991L);
    assertThat(cap.metadata().get("nested").toString())
        .isEqualTo("{\"b\":[true,-3,\"x\"],\"a\":{\"deep\":\"y\"}}");
  }

  @Test
  void readingNeverLoadsTheJavaMainClass() {
    String toml =
        GOLDEN.replace("entrypoint = \"golden-provider\"", "java_main = \"does.not.Exist\"");
    assertThat(parse(toml).manifest().runtime().orElseThrow().launchTarget().value())
        .isEqualTo("does.not.Exist");
  }

  @Test
  void aManifestWithOnlyProvidesNeedsNoRuntime() {
    String toml =
        edit(
            edit(
                edit(FULL, ManifestRulesTest.runtimeSection(), ""),
                ManifestRulesTest.surfaceSection(),
                ""),
            "[[implements]]\ncapability_id = \"semantic-preference\"\nprotocol = \"demo_provider_v0\"\n",
            "");
    ExtensionManifest m = parse(toml).manifest();
    assertThat(m.runtime()).isEmpty();
    assertThat(m.toNormalizedJson().get("runtime").isNull()).isTrue();
  }

  // ------------------------------------------------------------------ samples

  @Test
  void sampleManifestsLoad() {
    Path samples = Path.of("..", "samples");
    LoadedManifest textStats = LoadedManifest.load(samples.resolve("text-stats/extension.toml"));
    LoadedManifest upgrade =
        LoadedManifest.load(samples.resolve("text-stats/upgrade/extension.toml"));
    LoadedManifest semantic =
        LoadedManifest.load(samples.resolve("semantic-preference/extension.toml"));

    ExtensionManifest ts = textStats.manifest();
    assertThat(ts.id().value()).isEqualTo("loopx-text-stats");
    assertThat(ts.version()).isEqualTo("1.0.0");
    assertThat(ts.permissions()).isEmpty();
    assertThat(ts.isStandalone()).isTrue();
    RuntimeSpec tsRt = ts.runtime().orElseThrow();
    assertThat(tsRt.protocol().value()).isEqualTo("loopx_text_stats_extension_v0");
    assertThat(tsRt.launchTarget())
        .isEqualTo(new LaunchTarget.JavaMain("io.loopx.samples.textstats.TextStatsProvider"));
    assertThat(tsRt.doctorArgs()).containsExactly("--doctor");
    assertThat(tsRt.timeoutSeconds()).isEqualTo(30);

    assertThat(upgrade.manifest().id()).isEqualTo(ts.id());
    assertThat(upgrade.manifest().version()).isEqualTo("1.1.0");
    assertThat(upgrade.revision()).isNotEqualTo(textStats.revision());

    ExtensionManifest sp = semantic.manifest();
    assertThat(sp.id().value()).isEqualTo("semantic-preference-local");
    assertThat(sp.permissions()).containsExactly(Permission.of("semantic_preference.read"));
    RuntimeSpec spRt = sp.runtime().orElseThrow();
    assertThat(spRt.protocol().value()).isEqualTo("semantic_preference_provider_v0");
    assertThat(spRt.launchTarget().value())
        .isEqualTo("io.loopx.samples.semanticpreference.SemanticPreferenceProvider");
    assertThat(spRt.requiredPermissions())
        .containsExactly(Permission.of("semantic_preference.read"));
    assertThat(sp.implementations()).hasSize(1);
    assertThat(sp.implementations().get(0).capabilityId().value()).isEqualTo("semantic-preference");
    assertThat(sp.implementations().get(0).protocol()).isEqualTo(spRt.protocol());
    assertThat(sp.isStandalone()).isFalse();
  }

  @Test
  void fuzzSeedsAreWhatTheirNamesSay() throws IOException {
    Path seeds =
        Path.of(
            "src/test/resources/io/loopx/runtime/internal/manifest/ManifestLoaderFuzzTestInputs",
            "parseYieldsAManifestOrAManifestException");
    List<Path> files;
    try (Stream<Path> listing = Files.list(seeds)) {
      files = listing.sorted().toList();
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      String name = file.getFileName().toString();
      if (name.startsWith("valid-")) {
        assertThat(LoadedManifest.load(file).manifest()).as(name).isNotNull();
      } else if (name.startsWith("near-miss-")) {
        assertThatThrownBy(() -> LoadedManifest.load(file))
            .as(name)
            .isInstanceOf(ManifestException.class);
      }
    }
  }

  // ------------------------------------------------------------------ helpers

  private static ManifestException loadFailure(Path file) {
    ManifestException e =
        catchThrowableOfType(ManifestException.class, () -> LoadedManifest.load(file));
    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    assertThat(e.source()).isEqualTo(file.toString());
    return e;
  }

  /** Returns {@code toml} padded with a trailing comment to exactly {@code size} bytes. */
  private static byte[] padTo(String toml, int size) {
    byte[] body = (toml + "#").getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[size];
    System.arraycopy(body, 0, out, 0, body.length);
    Arrays.fill(out, body.length, size, (byte) 'x');
    return out;
  }
}
