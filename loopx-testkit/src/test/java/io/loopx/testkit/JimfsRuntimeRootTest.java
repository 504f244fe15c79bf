package io.loopx.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JimfsRuntimeRootTest {
  final JimfsRuntimeRoot root = JimfsRuntimeRoot.create();

  @AfterEach
  void close() {
    root.close();
  }

  @Test
  void laysOutAFakeHostWithoutTheRuntimeRoot() throws Exception {
    assertThat(root.fileSystem()).isNotSameAs(FileSystems.getDefault());
    assertThat(root.fileSystem().supportedFileAttributeViews()).contains("posix");
    assertThat(root.runtimeRoot().getFileSystem()).isSameAs(root.fileSystem());
    assertThat(Files.exists(root.runtimeRoot())).isFalse();
    assertThat(root.stateFile()).isEqualTo(root.runtimeRoot().resolve("extensions/state.json"));
    assertThat(root.lockFile().getFileName()).hasToString("state.json.lock");
    assertThat(Files.isDirectory(root.binDirectory())).isTrue();
    assertThat(Files.isExecutable(root.javaExecutable())).isTrue();
    assertThat(root.stateBytes()).isEmpty();

    var env = root.runtimeEnvironment();
    assertThat(env.searchPath()).isEqualTo("/loopx/bin");
    assertThat(env.javaExecutable()).isEqualTo(root.javaExecutable());
    assertThat(env.codePath()).containsExactly(root.classesDirectory());
    assertThat(root.hostEnvironment()).containsOnlyKeys("PATH");
  }

  @Test
  void writesAPackageWithAnExecutableLauncher() throws Exception {
    var pkg = root.writePackage(Manifests.standalone("demo-ext").version("2.0.0"));

    assertThat(pkg.directory()).isEqualTo(root.packagesDirectory().resolve("demo-ext-2.0.0"));
    assertThat(pkg.manifestFile()).isEqualTo(pkg.directory().resolve("extension.toml"));
    assertThat(pkg.launcher()).contains(pkg.directory().resolve("bin/provider"));
    Path launcher = pkg.launcher().orElseThrow();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(launcher)))
        .isEqualTo("rwxr-xr-x");
    assertThat(Files.readString(launcher))
        .isEqualTo(JimfsRuntimeRoot.launcherContent("demo-ext", "2.0.0", 0));
    assertThat(Manifests.load(pkg.manifestFile()).manifest().version()).isEqualTo("2.0.0");
  }

  @Test
  void theRealResolverFindsWrittenRuntimes() {
    RuntimeResolver resolver = RuntimeResolver.of(root.runtimeEnvironment());
    var relative =
        root.writePackage(Manifests.standalone("rel-ext").entrypoint("./bin/../bin/run"));
    var onPath = root.writePackage(Manifests.standalone("path-ext").entrypoint("path-provider"));
    var java = root.writePackage(Manifests.standalone("java-ext").javaMain("com.example.Main"));

    RuntimeResolution r =
        resolver.resolve(new LaunchTarget.Executable("./bin/../bin/run"), relative.directory());
    RuntimeResolution p =
        resolver.resolve(new LaunchTarget.Executable("path-provider"), onPath.directory());
    RuntimeResolution j =
        resolver.resolve(new LaunchTarget.JavaMain("com.example.Main"), java.directory());

    assertThat(r)
        .isInstanceOfSatisfying(
            RuntimeResolution.Resolved.class,
            res -> assertThat(res.savedPath()).isEqualTo(relative.launcher()));
    assertThat(onPath.launcher()).contains(root.binDirectory().resolve("path-provider"));
    assertThat(p)
        .isInstanceOfSatisfying(
            RuntimeResolution.Resolved.class,
            res -> assertThat(res.savedPath()).isEqualTo(onPath.launcher()));
    assertThat(java.launcher()).isEmpty();
    assertThat(j)
        .isInstanceOfSatisfying(
            RuntimeResolution.Resolved.class,
            res ->
                assertThat(res.commandPrefix())
                    .containsExactly(
                        root.javaExecutable().toString(),
                        "-cp",
                        "/loopx/classes",
                        "com.example.Main"));
  }

  @Test
  void replacingALauncherChangesItsIdentity() {
    RuntimeResolver resolver = RuntimeResolver.of(root.runtimeEnvironment());
    Path launcher = root.writePackage(Manifests.standalone("demo-ext")).launcher().orElseThrow();
    LaunchTarget target = new LaunchTarget.Executable("bin/provider");

    var before = resolver.resolveSaved(target, Optional.of(launcher)).resolvedIdentity();
    root.writeExecutable(launcher, JimfsRuntimeRoot.launcherContent("demo-ext", "1.0.0", 1));
    var after = resolver.resolveSaved(target, Optional.of(launcher)).resolvedIdentity();
    root.delete(launcher);
    var gone = resolver.resolveSaved(target, Optional.of(launcher));

    assertThat(before).isPresent();
    assertThat(after).isPresent().isNotEqualTo(before);
    assertThat(gone).isInstanceOf(RuntimeResolution.Missing.class);
    assertThat(root.delete(launcher)).isFalse();
  }

  @Test
  void closingClosesTheFileSystem() {
    JimfsRuntimeRoot other = JimfsRuntimeRoot.create();
    Path file = other.writeFile(other.packagesDirectory().resolve("x"), "x");
    other.close();

    assertThat(other.fileSystem().isOpen()).isFalse();
    assertThatThrownBy(() -> Files.readAllBytes(file))
        .isInstanceOf(ClosedFileSystemException.class);
    assertThat(List.of(root.fileSystem().isOpen())).containsExactly(true);
  }
}
