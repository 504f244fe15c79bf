package io.loopx.runtime.internal.identity;

import static io.loopx.runtime.internal.identity.TestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExecutableResolutionTest {
  /** The file identity of an executable file holding {@code "echo hi\n"}. */
  private static final String GOLDEN_NO_SHEBANG_IDENTITY =
      "96ef8ea90556ad3780f8505820ff697332a4181411140d0eb4a842e69d9778fc";

  private final FileSystem fs = TestFiles.unixFs();
  private final Path manifestDir = fs.getPath("/ext/demo");

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  private RuntimeResolver resolver(String searchPath) {
    return RuntimeResolver.of(
        new RuntimeEnvironment(searchPath, fs.getPath("/jdk/bin/java"), List.of()));
  }

  private static RuntimeResolution.Resolved resolved(RuntimeResolution resolution) {
    assertThat(resolution).isInstanceOf(RuntimeResolution.Resolved.class);
    return (RuntimeResolution.Resolved) resolution;
  }

  private static String missingReason(RuntimeResolution resolution) {
    assertThat(resolution).isInstanceOf(RuntimeResolution.Missing.class);
    return ((RuntimeResolution.Missing) resolution).reason();
  }

  private RuntimeResolution resolve(String searchPath, String entrypoint) {
    return resolver(searchPath).resolve(new LaunchTarget.Executable(entrypoint), manifestDir);
  }

  @Test
  void nameIsFoundOnPathAndTheFirstEntryWins() {
    write(fs.getPath("/first/tool"), "one", true);
    write(fs.getPath("/second/tool"), "two", true);

    RuntimeResolution.Resolved r = resolved(resolve("/first:/second", "tool"));

    assertThat(r.savedPath()).contains(fs.getPath("/first/tool"));
    assertThat(r.commandPrefix()).containsExactly("/first/tool");
    assertThat(r.resolvedIdentity()).contains(r.identity());
  }

  @Test
  void pathSearchSkipsEmptyRelativeNonExecutableAndDirectoryEntries() throws IOException {
    write(fs.getPath("/plain/tool"), "not executable", false);
    Files.createDirectories(fs.getPath("/dirs/tool"));
    write(fs.getPath("/work/rel/tool"), "relative entry", true); // Jimfs working dir is /work
    write(fs.getPath("/good/tool"), "good", true);

    RuntimeResolution.Resolved r = resolved(resolve(":rel:/plain::/dirs:/missing:/good:", "tool"));

    assertThat(r.savedPath()).contains(fs.getPath("/good/tool"));
  }

  @Test
  void nameNotOnPathIsMissing() {
    write(fs.getPath("/bin/other"), "x", true);

    assertThat(missingReason(resolve("/bin", "tool"))).contains("`tool`", "PATH");
    assertThat(missingReason(resolve("", "tool"))).contains("`tool`");
  }

  @Test
  void relativePathIsResolvedAgainstTheManifestDirectory() {
    write(fs.getPath("/ext/demo/bin/provider"), "provider", true);
    write(fs.getPath("/bin/provider"), "decoy on PATH", true);

    RuntimeResolution.Resolved r = resolved(resolve("/bin", "./bin/provider"));

    assertThat(r.savedPath()).contains(fs.getPath("/ext/demo/bin/provider"));
    assertThat(r.commandPrefix()).containsExactly("/ext/demo/bin/provider");
  }

  @Test
  void parentSegmentsAreKeptAndAbsolutePathsUsedAsIs() throws IOException {
    Files.createDirectories(manifestDir);
    write(fs.getPath("/ext/shared/provider"), "provider", true);
    write(fs.getPath("/abs/provider"), "abs", true);

    assertThat(resolved(resolve("", "../shared/provider")).savedPath())
        .contains(fs.getPath("/ext/demo/../shared/provider"));
    assertThat(resolved(resolve("", "/abs/provider")).savedPath())
        .contains(fs.getPath("/abs/provider"));
  }

  @Test
  void pathEntrypointThatIsMissingOrADirectoryIsMissing() throws IOException {
    Files.createDirectories(fs.getPath("/ext/demo/bin/dir"));

    assertThat(missingReason(resolve("", "bin/none"))).contains("bin/none");
    assertThat(missingReason(resolve("", "bin/dir"))).contains("bin/dir");
  }

  @Test
  void symlinkIsKeptAsFoundButItsContentIsFollowed() throws IOException {
    Path target = write(fs.getPath("/opt/real/provider-1.2"), "real provider", true);
    Files.createDirectories(fs.getPath("/bin"));
    Path link = Files.createSymbolicLink(fs.getPath("/bin/provider"), target);

    RuntimeResolution.Resolved r = resolved(resolve("/bin", "provider"));

    assertThat(r.savedPath()).contains(link);
    Path copy = write(fs.getPath("/copy/provider"), "real provider", true);
    assertThat(r.identity()).isEqualTo(resolved(resolve("", copy.toString())).identity());

    write(target, "retargeted content", true);
    assertThat(resolved(resolve("/bin", "provider")).identity()).isNotEqualTo(r.identity());
  }

  @Test
  void identityIsContentAddressedAndRecordIsDocumentedShape() {
    write(fs.getPath("/a/tool"), "\u007fELF binary", true);
    write(fs.getPath("/b/tool"), "\u007fELF binary", true);

    RuntimeResolution.Resolved a = resolved(resolve("/a", "tool"));
    RuntimeResolution.Resolved b = resolved(resolve("/b", "tool"));

    assertThat(a.identity()).isEqualTo(b.identity());
    FileIdentity launcher = FileIdentity.of(fs.getPath("/a/tool"));
    assertThat(a.identityRecord())
        .isEqualTo(
            "{\"content_sha256\":\""
                + launcher.contentSha256()
                + "\",\"executable\":true,\"kind\":\"file_artifact\","
                + "\"schema_version\":\"loopx_runtime_entrypoint_identity_v1\",\"size\":11}");
    assertThat(a.identity().value()).isEqualTo(TestFiles.sha256Hex(a.identityRecord()));
  }

  @Test
  void launcherWithoutShebangHasItsFileIdentityAsRuntimeIdentity() {
    // docs/contract/doctor.md: the file identity itself, not a record wrapping it.
    Path tool = write(fs.getPath("/bin/tool"), "\u007fELF binary", true);

    RuntimeResolution.Resolved r = resolved(resolve("/bin", "tool"));

    assertThat(r.identity().value()).isEqualTo(FileIdentity.of(tool).digest());
    assertThat(r.identityRecord()).doesNotContain("interpreter", "loopx_runtime_identity_v1");
  }

  @Test
  void launcherWithoutShebangMatchesTheGoldenFileIdentity() {
    // The file of FileIdentityTest's golden vector, without its #! line: pinned from an
    // independent computation (Python hashlib over the hand-written file identity record).
    write(fs.getPath("/bin/tool"), "echo hi\n", true);

    assertThat(resolved(resolve("/bin", "tool")).identity().value())
        .isEqualTo(GOLDEN_NO_SHEBANG_IDENTITY);
  }

  @Test
  void launcherWithShebangKeepsTheCombinedRecord() {
    Path sh = write(fs.getPath("/bin/sh"), "sh", true);
    Path tool = write(fs.getPath("/opt/tool"), "#!/bin/sh\necho hi\n", true);

    RuntimeResolution.Resolved r = resolved(resolve("", "/opt/tool"));

    assertThat(r.identityRecord())
        .isEqualTo(
            "{\"interpreter\":\""
                + FileIdentity.of(sh).digest()
                + "\",\"kind\":\"executable\",\"launcher\":\""
                + FileIdentity.of(tool).digest()
                + "\",\"schema_version\":\"loopx_runtime_identity_v1\"}");
    assertThat(r.identity().value()).isNotEqualTo(FileIdentity.of(tool).digest());
  }

  @Test
  void savedPathIsUsedInsteadOfPath() {
    Path saved = write(fs.getPath("/installed/tool"), "installed", true);
    write(fs.getPath("/bin/tool"), "a newer one on PATH", true);
    RuntimeResolver resolver = resolver("/bin");
    LaunchTarget target = new LaunchTarget.Executable("tool");

    RuntimeResolution.Resolved r = resolved(resolver.resolveSaved(target, Optional.of(saved)));

    assertThat(r.savedPath()).contains(saved);
    assertThat(r.identity())
        .isNotEqualTo(resolved(resolver.resolve(target, manifestDir)).identity());
  }

  @Test
  void missingSavedFileOrNoSavedPathIsMissing() {
    RuntimeResolver resolver = resolver("/bin");
    LaunchTarget target = new LaunchTarget.Executable("tool");
    write(fs.getPath("/bin/tool"), "on PATH", true);

    assertThat(missingReason(resolver.resolveSaved(target, Optional.of(fs.getPath("/gone/tool")))))
        .contains("/gone/tool");
    assertThat(missingReason(resolver.resolveSaved(target, Optional.empty()))).contains("tool");
    assertThat(missingReason(resolver.resolveSaved(target, Optional.of(fs.getPath("rel/tool")))))
        .contains("rel/tool");
  }

  @Test
  void executableBitChangeChangesTheLauncherIdentity() {
    Path saved = write(fs.getPath("/installed/tool"), "same bytes", true);
    RuntimeResolver resolver = resolver("");
    LaunchTarget target = new LaunchTarget.Executable("tool");
    RuntimeIdentity before = resolved(resolver.resolveSaved(target, Optional.of(saved))).identity();

    write(saved, "same bytes", false);

    assertThat(resolved(resolver.resolveSaved(target, Optional.of(saved))).identity())
        .isNotEqualTo(before);
  }

  @Test
  void directShebangInterpreterJoinsTheIdentity() {
    Path interpreter = write(fs.getPath("/usr/bin/python3"), "python v1", true);
    write(fs.getPath("/bin/tool"), "#!/usr/bin/python3 -u\nprint('hi')\n", true);

    RuntimeResolution.Resolved r = resolved(resolve("/bin", "tool"));

    assertThat(r.identityRecord())
        .contains("\"interpreter\":\"" + FileIdentity.of(interpreter).digest() + "\"");
    assertThat(r.commandPrefix()).containsExactly("/bin/tool");
  }

  @Test
  void retargetingTheInterpreterChangesTheIdentity() {
    Path interpreter = write(fs.getPath("/usr/bin/python3"), "python v1", true);
    write(fs.getPath("/bin/tool"), "#!/usr/bin/python3\n", true);
    RuntimeIdentity before = resolved(resolve("/bin", "tool")).identity();

    write(interpreter, "python v2", true);

    assertThat(resolved(resolve("/bin", "tool")).identity()).isNotEqualTo(before);
  }

  @Test
  void envShebangLooksInTheLauncherDirectoryFirstThenOnPath() {
    write(fs.getPath("/usr/bin/env"), "env", true);
    Path onPath = write(fs.getPath("/usr/bin/python3"), "system python", true);
    Path beside = write(fs.getPath("/venv/bin/python3"), "venv python", true);
    write(fs.getPath("/venv/bin/tool"), "#!/usr/bin/env python3\n", true);
    write(fs.getPath("/other/tool"), "#!/usr/bin/env python3\n", true);

    RuntimeResolution.Resolved inVenv = resolved(resolve("/usr/bin", "/venv/bin/tool"));
    RuntimeResolution.Resolved other = resolved(resolve("/usr/bin", "/other/tool"));

    assertThat(inVenv.identityRecord()).contains(FileIdentity.of(beside).digest());
    assertThat(other.identityRecord()).contains(FileIdentity.of(onPath).digest());
    assertThat(inVenv.identityRecord())
        .doesNotContain(FileIdentity.of(fs.getPath("/usr/bin/env")).digest());
  }

  @Test
  void envShebangSkipsNonExecutableCandidates() {
    write(fs.getPath("/usr/bin/env"), "env", true);
    write(fs.getPath("/tools/node"), "not executable", false);
    Path node = write(fs.getPath("/usr/local/bin/node"), "node", true);
    write(fs.getPath("/tools/tool"), "#!/usr/bin/env node\n", true);

    RuntimeResolution.Resolved r = resolved(resolve("/usr/local/bin", "/tools/tool"));

    assertThat(r.identityRecord()).contains(FileIdentity.of(node).digest());
  }

  @Test
  void unresolvableInterpretersAreMissing() {
    write(fs.getPath("/usr/bin/env"), "env", true);
    write(fs.getPath("/t/direct"), "#!/usr/bin/nothing\n", true);
    write(fs.getPath("/t/env"), "#!/usr/bin/env nothing\n", true);
    write(fs.getPath("/t/env-only"), "#!/usr/bin/env\n", true);
    write(fs.getPath("/t/empty"), "#!\n", true);
    write(fs.getPath("/t/relative"), "#!python3\n", true);
    write(fs.getPath("/t/crlf"), "#!/usr/bin/env\r\n", true);
    write(fs.getPath("/t/no-env"), "#!/opt/bin/env python3\n", true);

    for (String name :
        List.of("direct", "env", "env-only", "empty", "relative", "crlf", "no-env")) {
      assertThat(missingReason(resolve("/usr/bin", "/t/" + name))).as(name).contains("/t/" + name);
    }
  }

  @Test
  void crlfShebangKeepsTheCarriageReturnLikeTheKernel() {
    write(fs.getPath("/bin/sh"), "sh", true);
    write(fs.getPath("/t/crlf"), "#!/bin/sh\r\necho hi\r\n", true);

    assertThat(missingReason(resolve("", "/t/crlf"))).contains("/t/crlf");
  }

  @Test
  void shortFileWithWholeShebangLineWithoutNewlineResolves() {
    Path sh = write(fs.getPath("/bin/sh"), "sh", true);
    write(fs.getPath("/t/tool"), "#!/bin/sh", true);

    assertThat(resolved(resolve("", "/t/tool")).identityRecord())
        .contains(FileIdentity.of(sh).digest());
  }
}
