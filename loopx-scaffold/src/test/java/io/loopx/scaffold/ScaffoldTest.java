package io.loopx.scaffold;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Mode;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Scaffold} on an in-memory Unix file system: every validation rule in preview and execute,
 * the receipt, the generated package, and the removal of the destination on a write error.
 */
class ScaffoldTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String ID = "loopx-example";
  static final List<String> FILES =
      List.of(
          "extension.toml",
          "bin/loopx-example",
          "pom.xml",
          "src/main/java/com/example/loopx_example/LoopxExampleProvider.java",
          "schemas/request.schema.json",
          "schemas/response.schema.json",
          "examples/request.json",
          "README.md");
  static final List<String> RECEIPT_KEYS =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "extension_id",
          "version",
          "destination",
          "protocol",
          "permissions",
          "starter_kind",
          "language",
          "capability_id",
          "managed_entrypoint",
          "files",
          "next_commands");

  FileSystem fs;
  Path work;

  @BeforeEach
  void setUp() throws IOException {
    fs =
        Jimfs.newFileSystem(
            Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
    work = Files.createDirectories(fs.getPath("/home/dev/repo"));
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  ScaffoldReceipt init(String id, Mode mode) {
    return Scaffold.init(id, Optional.empty(), Optional.empty(), work, mode);
  }

  /** Every path under the file system root with its content (directories as "dir"). */
  Map<String, String> snapshot() throws IOException {
    Map<String, String> all = new LinkedHashMap<>();
    try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
      for (Path p : walk.sorted().toList()) {
        all.put(
            p.toString(),
            Files.isSymbolicLink(p)
                ? "link:" + Files.readSymbolicLink(p)
                : Files.isDirectory(p) ? "dir" : Files.readString(p, UTF_8));
      }
    }
    return all;
  }

  static List<String> keys(JsonNode node) {
    List<String> keys = new ArrayList<>();
    node.properties().forEach(e -> keys.add(e.getKey()));
    return keys;
  }

  static void assertScaffoldInvalid(ThrowingCallable call, String... messageParts) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.SCAFFOLD_INVALID);
              assertThat(e).hasMessageContainingAll(messageParts);
            });
  }

  // ------------------------------------------------------------------ preview

  @Test
  void previewReceiptHasEveryKeyAndPredictsTheExecute() {
    ScaffoldReceipt receipt = init(ID, Mode.PREVIEW);
    ObjectNode json = receipt.toJson();

    assertThat(keys(json)).containsExactlyElementsOf(RECEIPT_KEYS);
    assertThat(json.get("ok").booleanValue()).isTrue();
    assertThat(json.get("schema_version").stringValue()).isEqualTo("loopx_extension_scaffold_v0");
    assertThat(json.get("operation").stringValue()).isEqualTo("init");
    assertThat(json.get("dry_run").booleanValue()).isTrue();
    assertThat(json.get("changed").booleanValue()).isFalse();
    assertThat(json.get("extension_id").stringValue()).isEqualTo(ID);
    assertThat(json.get("version").stringValue()).isEqualTo("0.1.0");
    assertThat(json.get("destination").stringValue())
        .isEqualTo("/home/dev/repo/packages/loopx-example");
    assertThat(json.get("protocol").stringValue()).isEqualTo("loopx_example_extension_v0");
    assertThat(json.get("permissions").isArray()).isTrue();
    assertThat(json.get("permissions").isEmpty()).isTrue();
    assertThat(json.get("starter_kind").stringValue()).isEqualTo("standalone");
    assertThat(json.get("language").stringValue()).isEqualTo("java");
    assertThat(json.get("capability_id").isNull()).isTrue();
    assertThat(json.get("managed_entrypoint").stringValue()).isEqualTo("loopx extension run");
    List<String> paths = new ArrayList<>();
    for (JsonNode f : json.get("files").values()) {
      assertThat(keys(f)).containsExactly("path", "status");
      assertThat(f.get("status").stringValue()).isEqualTo("would_create");
      paths.add(f.get("path").stringValue());
    }
    assertThat(paths).containsExactlyElementsOf(FILES);
    JsonNode next = json.get("next_commands");
    assertThat(keys(next)).containsExactly("build", "install", "run");
    assertThat(next.get("build").stringValue())
        .isEqualTo("mvn -q -f /home/dev/repo/packages/loopx-example/pom.xml package");
    assertThat(next.get("install").stringValue())
        .isEqualTo(
            "java -jar samples/loopx-cli/target/loopx.jar extension install --manifest"
                + " /home/dev/repo/packages/loopx-example/extension.toml --execute");
    assertThat(next.get("run").stringValue())
        .isEqualTo(
            "java -jar samples/loopx-cli/target/loopx.jar extension run loopx-example"
                + " --input-json /home/dev/repo/packages/loopx-example/examples/request.json"
                + " --execute");
  }

  @Test
  void previewWritesNothingAnywhere() throws IOException {
    Map<String, String> before = snapshot();

    init(ID, Mode.PREVIEW);
    Scaffold.init(
        ID,
        Optional.of(fs.getPath("/elsewhere/deep/pkg")),
        Optional.of("2.0.0"),
        work,
        Mode.PREVIEW);

    assertThat(snapshot()).isEqualTo(before);
  }

  // ------------------------------------------------------------------ execute

  @Test
  void executeWritesThePackageAndItsReceiptSaysCreated() throws IOException {
    ScaffoldReceipt receipt = init(ID, Mode.EXECUTE);
    ObjectNode json = receipt.toJson();
    Path dest = work.resolve("packages/loopx-example");

    assertThat(keys(json)).containsExactlyElementsOf(RECEIPT_KEYS);
    assertThat(json.get("dry_run").booleanValue()).isFalse();
    assertThat(json.get("changed").booleanValue()).isTrue();
    assertThat(receipt.destination()).isEqualTo(dest);
    for (JsonNode f : json.get("files").values()) {
      assertThat(f.get("status").stringValue()).isEqualTo("created");
    }
    List<String> written;
    try (Stream<Path> walk = Files.walk(dest)) {
      written = walk.filter(Files::isRegularFile).map(p -> dest.relativize(p).toString()).toList();
    }
    assertThat(written).containsExactlyInAnyOrderElementsOf(FILES);
    for (String file : FILES) {
      assertThat(Files.readString(dest.resolve(file), UTF_8))
          .as("%s has no placeholder left", file)
          .doesNotContain("{{")
          .isNotBlank();
    }
  }

  @Test
  void manifestIsStandaloneWithoutPermissionsAndLoads() throws IOException {
    init(ID, Mode.EXECUTE);
    Path dest = work.resolve("packages/loopx-example");

    LoadedManifest loaded = LoadedManifest.load(dest.resolve("extension.toml"));

    ExtensionManifest m = loaded.manifest();
    assertThat(m.id().value()).isEqualTo(ID);
    assertThat(m.version()).isEqualTo("0.1.0");
    assertThat(m.permissions()).isEmpty();
    assertThat(m.provides()).isEmpty();
    assertThat(m.implementations()).isEmpty();
    assertThat(m.presentationSurfaces()).isEmpty();
    RuntimeSpec runtime = m.runtime().orElseThrow();
    assertThat(runtime.protocol().value()).isEqualTo("loopx_example_extension_v0");
    assertThat(runtime.launchTarget()).isEqualTo(new LaunchTarget.Executable("bin/loopx-example"));
    assertThat(runtime.doctorArgs()).containsExactly("--doctor");
    assertThat(runtime.args()).isEmpty();
    assertThat(runtime.requiredPermissions()).isEmpty();
  }

  @Test
  void launcherIsAnExecutablePosixScriptThatRunsTheBuiltJar() throws IOException {
    init(ID, Mode.EXECUTE);
    Path dest = work.resolve("packages/loopx-example");
    Path launcher = dest.resolve("bin/loopx-example");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(launcher)))
        .isEqualTo("rwxr-xr-x");
    assertThat(Files.readString(launcher, UTF_8))
        .startsWith("#!/bin/sh\n")
        .contains("-jar \"$(dirname \"$0\")/../target/loopx-example.jar\" \"$@\"");
    for (String file : FILES) {
      if (!file.startsWith("bin/")) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dest.resolve(file))))
            .as(file)
            .doesNotContain("x");
      }
    }
  }

  @Test
  void schemasExampleAndBuildDescribeTheSameContract() throws IOException {
    init(ID, Mode.EXECUTE);
    Path dest = work.resolve("packages/loopx-example");

    JsonNode request = JSON.readTree(Files.readString(dest.resolve("schemas/request.schema.json")));
    JsonNode response =
        JSON.readTree(Files.readString(dest.resolve("schemas/response.schema.json")));
    JsonNode example = JSON.readTree(Files.readString(dest.resolve("examples/request.json")));
    assertThat(request.get("properties").get("schema_version").get("const").stringValue())
        .isEqualTo("loopx_example_request_v0")
        .isEqualTo(example.get("schema_version").stringValue());
    assertThat(request.get("additionalProperties").booleanValue()).isFalse();
    assertThat(keys(example)).containsExactly("schema_version", "name");
    JsonNode success = response.get("$defs").get("success").get("properties");
    assertThat(success.get("schema_version").get("const").stringValue())
        .isEqualTo("loopx_example_response_v0");
    assertThat(success.get("extension_id").get("const").stringValue()).isEqualTo(ID);

    String pom = Files.readString(dest.resolve("pom.xml"));
    assertThat(pom)
        .contains("<artifactId>loopx-example</artifactId>")
        .contains("<version>0.1.0</version>")
        .contains("<finalName>loopx-example</finalName>")
        .contains("<mainClass>com.example.loopx_example.LoopxExampleProvider</mainClass>")
        .contains("<artifactId>jackson-databind</artifactId>")
        .contains("<artifactId>json-schema-validator</artifactId>")
        .contains("<artifactId>slf4j-nop</artifactId>")
        .doesNotContain("io.loopx")
        .doesNotContain("SNAPSHOT");
    String source =
        Files.readString(
            dest.resolve("src/main/java/com/example/loopx_example/LoopxExampleProvider.java"));
    assertThat(source)
        .startsWith("package com.example.loopx_example;\n")
        .contains("public final class LoopxExampleProvider {")
        .contains("\"loopx_example_request_v0\"")
        .contains("MAX_REQUEST_BYTES = 1_000_000");
  }

  @Test
  void givenVersionGoesIntoManifestAndPom() throws IOException {
    Scaffold.init(ID, Optional.empty(), Optional.of("12.0.345"), work, Mode.EXECUTE);
    Path dest = work.resolve("packages/loopx-example");

    assertThat(LoadedManifest.load(dest.resolve("extension.toml")).manifest().version())
        .isEqualTo("12.0.345");
    assertThat(Files.readString(dest.resolve("pom.xml"))).contains("<version>12.0.345</version>");
  }

  // ------------------------------------------------------------------ destination

  @Test
  void relativeDestinationIsResolvedAgainstTheWorkingDirectoryAndNormalised() {
    ScaffoldReceipt receipt =
        Scaffold.init(
            ID,
            Optional.of(fs.getPath("tools/../ext/./mine")),
            Optional.empty(),
            work,
            Mode.EXECUTE);

    assertThat(receipt.destination()).isEqualTo(fs.getPath("/home/dev/repo/ext/mine"));
    assertThat(Files.isRegularFile(fs.getPath("/home/dev/repo/ext/mine/extension.toml"))).isTrue();
  }

  @Test
  void absoluteDestinationIsUsedAsGiven() {
    ScaffoldReceipt receipt =
        Scaffold.init(
            ID, Optional.of(fs.getPath("/opt/pkg")), Optional.empty(), work, Mode.EXECUTE);

    assertThat(receipt.destination()).isEqualTo(fs.getPath("/opt/pkg"));
    assertThat(Files.isRegularFile(fs.getPath("/opt/pkg/bin/loopx-example"))).isTrue();
  }

  enum Existing {
    EMPTY_DIRECTORY,
    NON_EMPTY_DIRECTORY,
    REGULAR_FILE,
    DANGLING_SYMLINK,
    SYMLINK_TO_DIRECTORY
  }

  void create(Path dest, Existing kind) throws IOException {
    Files.createDirectories(dest.getParent());
    switch (kind) {
      case EMPTY_DIRECTORY -> Files.createDirectory(dest);
      case NON_EMPTY_DIRECTORY -> {
        Files.createDirectory(dest);
        Files.writeString(dest.resolve("keep.txt"), "mine");
      }
      case REGULAR_FILE -> Files.writeString(dest, "mine");
      case DANGLING_SYMLINK -> Files.createSymbolicLink(dest, fs.getPath("/nowhere"));
      case SYMLINK_TO_DIRECTORY ->
          Files.createSymbolicLink(dest, Files.createDirectories(fs.getPath("/target-dir")));
    }
  }

  @ParameterizedTest
  @EnumSource(Existing.class)
  void anExistingDestinationIsRefusedInPreviewAndExecute(Existing kind) throws IOException {
    Path dest = work.resolve("packages/loopx-example");
    create(dest, kind);
    Map<String, String> before = snapshot();

    for (Mode mode : Mode.values()) {
      assertScaffoldInvalid(
          () -> init(ID, mode),
          "extension starter destination already exists",
          "/home/dev/repo/packages/loopx-example");
    }
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void aDestinationUnderARegularFileIsRefusedInPreview() throws IOException {
    Files.writeString(work.resolve("packages"), "not a directory");
    Map<String, String> before = snapshot();

    for (Mode mode : Mode.values()) {
      assertScaffoldInvalid(
          () -> init(ID, mode), "/home/dev/repo/packages", "which is not a directory");
    }
    assertThat(snapshot()).isEqualTo(before);
  }

  // ------------------------------------------------------------------ id and version

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Loopx",
        "loopx_example",
        "1loopx",
        "loopx--example",
        "loopx-",
        "-loopx",
        "loopx/example",
        "..",
        "loopx example",
        "lööpx",
        "abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcde" // 49 characters
      })
  void anInvalidIdIsRefusedInPreviewAndExecute(String id) throws IOException {
    Map<String, String> before = snapshot();

    for (Mode mode : Mode.values()) {
      assertScaffoldInvalid(() -> init(id, mode), "invalid extension starter id", "`" + id + "`");
    }
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void theLongestValidIdIsAccepted() {
    String id = "abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcd"; // 48 characters

    ScaffoldReceipt receipt = init(id, Mode.EXECUTE);

    assertThat(receipt.protocol().value())
        .isEqualTo("abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcd_extension_v0");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1",
        "1.0",
        "v1.0.0",
        "1.0.0-SNAPSHOT",
        "1.0.0.0",
        " 1.0.0",
        "1.0.0\n",
        "1..0",
        "1.0.x",
        "١.٠.٠" // Arabic-Indic digits are not [0-9]
      })
  void anInvalidVersionIsRefusedInPreviewAndExecute(String version) throws IOException {
    Map<String, String> before = snapshot();

    for (Mode mode : Mode.values()) {
      assertScaffoldInvalid(
          () -> Scaffold.init(ID, Optional.empty(), Optional.of(version), work, mode),
          "invalid extension starter version",
          "`" + version + "`",
          "^[0-9]+\\.[0-9]+\\.[0-9]+$");
    }
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void theIdIsCheckedBeforeTheVersionAndTheVersionBeforeTheDestination() throws IOException {
    create(work.resolve("packages/loopx-example"), Existing.EMPTY_DIRECTORY);

    assertScaffoldInvalid(
        () -> Scaffold.init("Bad", Optional.empty(), Optional.of("x"), work, Mode.PREVIEW),
        "invalid extension starter id");
    assertScaffoldInvalid(
        () -> Scaffold.init(ID, Optional.empty(), Optional.of("x"), work, Mode.PREVIEW),
        "invalid extension starter version");
  }

  // ------------------------------------------------------------------ write errors

  /** A sink that fails on the {@code failAt}-th write (0-based), after writing the earlier ones. */
  static FileSink failingAt(int failAt, boolean unchecked) {
    AtomicInteger writes = new AtomicInteger();
    return (file, content, executable) -> {
      if (writes.getAndIncrement() == failAt) {
        IOException e = new IOException("disk full (injected)");
        if (unchecked) {
          throw new UncheckedIOException(e);
        }
        throw e;
      }
      FileSink.FILES.write(file, content, executable);
    };
  }

  @Test
  void aWriteErrorAtAnyFileRemovesTheDestinationAndTheParentsItCreated() throws IOException {
    Files.createDirectories(fs.getPath("/srv"));
    Map<String, String> before = snapshot();

    for (int i = 0; i < FILES.size(); i++) {
      for (boolean unchecked : new boolean[] {false, true}) {
        Scaffold scaffold = new Scaffold(failingAt(i, unchecked));
        String failing = "/srv/new/deeper/pkg/" + FILES.get(i);

        assertScaffoldInvalid(
            () ->
                scaffold.create(
                    ID,
                    Optional.of(fs.getPath("/srv/new/deeper/pkg")),
                    Optional.empty(),
                    work,
                    Mode.EXECUTE),
            "extension starter file `" + failing + "` could not be written",
            "disk full (injected)",
            "the destination was removed");
        assertThat(snapshot()).as("after a failure at %s", failing).isEqualTo(before);
      }
    }
  }

  @Test
  void aWriteErrorKeepsParentsThatExistedBefore() throws IOException {
    Path packages = Files.createDirectories(work.resolve("packages"));
    Files.writeString(packages.resolve("other.txt"), "mine");
    Map<String, String> before = snapshot();

    assertScaffoldInvalid(
        () ->
            new Scaffold(failingAt(3, false))
                .create(ID, Optional.empty(), Optional.empty(), work, Mode.EXECUTE),
        "could not be written");

    assertThat(snapshot()).isEqualTo(before);
  }

  // ------------------------------------------------------------------ receipt and quoting

  @Test
  void nextCommandsQuotePathsForTheShell() {
    ScaffoldReceipt receipt =
        Scaffold.init(
            ID, Optional.of(fs.getPath("/tmp/it's my pkg")), Optional.empty(), work, Mode.PREVIEW);

    assertThat(receipt.nextCommands().build())
        .isEqualTo("mvn -q -f '/tmp/it'\"'\"'s my pkg/pom.xml' package");
    assertThat(Scaffold.quote("/a/b-c_d.e/f+g@h%i=j:k,l")).isEqualTo("/a/b-c_d.e/f+g@h%i=j:k,l");
    assertThat(Scaffold.quote("$HOME")).isEqualTo("'$HOME'");
    assertThat(Scaffold.quote("a\nb")).isEqualTo("'a\nb'");
  }

  @Test
  void receiptRejectsAStatusThatContradictsDryRun() {
    ScaffoldReceipt preview = init(ID, Mode.PREVIEW);

    assertThatThrownBy(
            () ->
                new ScaffoldReceipt(
                    Mode.EXECUTE,
                    preview.extensionId(),
                    preview.version(),
                    preview.destination(),
                    preview.protocol(),
                    preview.files(),
                    preview.nextCommands(),
                    preview.language()))
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining("would_create");
    assertThatThrownBy(
            () ->
                new ScaffoldReceipt(
                    Mode.PREVIEW,
                    preview.extensionId(),
                    preview.version(),
                    fs.getPath("relative"),
                    preview.protocol(),
                    preview.files(),
                    preview.nextCommands(),
                    preview.language()))
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining("must be absolute");
    assertThatThrownBy(() -> new ScaffoldFile("../x", ScaffoldFile.Status.CREATED))
        .isInstanceOf(LoopxException.class);
    assertThatThrownBy(() -> new ScaffoldFile("/x", ScaffoldFile.Status.CREATED))
        .isInstanceOf(LoopxException.class);
  }

  @Test
  void receiptFilesAreImmutable() {
    ScaffoldReceipt receipt = init(ID, Mode.PREVIEW);

    assertThatThrownBy(() -> receipt.files().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
