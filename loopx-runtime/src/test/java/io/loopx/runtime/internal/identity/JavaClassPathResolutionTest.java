package io.loopx.runtime.internal.identity;

import static io.loopx.runtime.internal.identity.TestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code runtime.java_class_path} (docs/contract/doctor.md#java-main-resolution): exactly the
 * declared entries, made absolute against the manifest's directory, form the child's class path;
 * every one of them, in order, is part of the identity; the host's code path plays no part.
 */
class JavaClassPathResolutionTest {
  private static final String CLASS = "com.example.provider.Main";

  private final FileSystem fs = TestFiles.unixFs();
  private final Path java = write(fs.getPath("/jdk/bin/java"), "java launcher", true);
  private final Path hostJar = fs.getPath("/host/app.jar");
  private final Path packageDir = fs.getPath("/ext/demo");
  private final RuntimeResolver resolver =
      RuntimeResolver.of(new RuntimeEnvironment("", java, List.of(hostJar)));

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  private static Path writeJar(Path jar, Optional<String> classPathAttribute, String... classes)
      throws IOException {
    Files.createDirectories(jar.getParent());
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    classPathAttribute.ifPresent(
        v -> manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, v));
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out, manifest)) {
      for (String c : classes) {
        zip.putNextEntry(new ZipEntry(c.replace('.', '/') + ".class"));
        zip.write(c.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return jar;
  }

  private static LaunchTarget target(String... classPath) {
    return new LaunchTarget.JavaMain(CLASS, List.of(classPath));
  }

  private RuntimeResolution.Resolved resolved(LaunchTarget target) {
    RuntimeResolution r = resolver.resolve(target, packageDir);
    assertThat(r).isInstanceOf(RuntimeResolution.Resolved.class);
    return (RuntimeResolution.Resolved) r;
  }

  @Test
  void theChildClassPathIsExactlyTheDeclaredEntriesAndEveryOneIsIdentified() throws IOException {
    writeJar(hostJar, Optional.empty(), CLASS); // the host has the class too: never used
    Path provider = writeJar(packageDir.resolve("lib/provider.jar"), Optional.empty(), CLASS);
    Path dependency =
        writeJar(packageDir.resolve("lib/dep.jar"), Optional.empty(), "com.example.dep.Util");
    Path classes = packageDir.resolve("classes");
    Path resource = write(classes.resolve("messages.properties"), "greeting=hi", false);

    RuntimeResolution.Resolved r =
        resolved(target("./lib/provider.jar", "lib/dep.jar", "classes/"));

    assertThat(r.savedPath()).contains(packageDir);
    assertThat(r.commandPrefix())
        .containsExactly(
            "/jdk/bin/java",
            "-cp",
            String.join(
                File.pathSeparator,
                provider.toString(),
                dependency.toString(),
                "/ext/demo/classes"),
            CLASS);
    String directory =
        TestFiles.sha256Hex(
            "{\"files\":{\"messages.properties\":\""
                + FileIdentity.of(resource).digest()
                + "\"},\"kind\":\"class_directory\","
                + "\"schema_version\":\"loopx_runtime_class_directory_identity_v1\"}");
    assertThat(r.identityRecord())
        .isEqualTo(
            "{\"class_name\":\""
                + CLASS
                + "\",\"class_path\":[{\"code_source\":\""
                + FileIdentity.of(provider).digest()
                + "\",\"kind\":\"jar\"},{\"code_source\":\""
                + FileIdentity.of(dependency).digest()
                + "\",\"kind\":\"jar\"},{\"code_source\":\""
                + directory
                + "\",\"kind\":\"class_directory\"}],\"java\":\""
                + FileIdentity.of(java).digest()
                + "\",\"kind\":\"java_class_path\","
                + "\"schema_version\":\"loopx_runtime_identity_v1\"}");
    assertThat(r.identity().value()).isEqualTo(TestFiles.sha256Hex(r.identityRecord()));
    assertThat(r.stamps()).hasSize(4);
    assertThat(r.executed()).contains(r.stamps().get(0));
  }

  @Test
  void changingAnEntryThatDoesNotHoldTheClassChangesTheIdentity() throws IOException {
    writeJar(packageDir.resolve("lib/provider.jar"), Optional.empty(), CLASS);
    Path dependency =
        writeJar(packageDir.resolve("lib/dep.jar"), Optional.empty(), "com.example.dep.Util");
    RuntimeIdentity original = resolved(target("lib/provider.jar", "lib/dep.jar")).identity();

    writeJar(dependency, Optional.empty(), "com.example.dep.Util", "com.example.dep.Extra");

    assertThat(resolved(target("lib/provider.jar", "lib/dep.jar")).identity())
        .isNotEqualTo(original);
  }

  @Test
  void theOrderOfTheEntriesIsPartOfTheIdentity() throws IOException {
    writeJar(packageDir.resolve("a.jar"), Optional.empty(), CLASS);
    writeJar(packageDir.resolve("b.jar"), Optional.empty(), "com.example.B");

    assertThat(resolved(target("a.jar", "b.jar")).identity())
        .isNotEqualTo(resolved(target("b.jar", "a.jar")).identity());
  }

  @Test
  void theSavedManifestDirectoryResolvesToTheSameRuntime() throws IOException {
    writeJar(packageDir.resolve("lib/provider.jar"), Optional.empty(), CLASS);
    LaunchTarget target = target("lib/provider.jar");
    RuntimeResolution.Resolved installed = resolved(target);

    RuntimeResolution saved = resolver.resolveSaved(target, installed.savedPath());

    assertThat(installed.unchangedSince(saved)).isTrue();
    assertThat(resolver.resolveSaved(target, Optional.empty()))
        .isInstanceOfSatisfying(
            RuntimeResolution.Missing.class,
            m -> assertThat(m.reason()).contains("has no saved absolute manifest directory"));
  }

  @Test
  void aMissingEntryMakesTheRuntimeMissingEvenWhenAnotherHoldsTheClass() throws IOException {
    writeJar(packageDir.resolve("lib/provider.jar"), Optional.empty(), CLASS);

    assertThat(resolver.resolve(target("lib/provider.jar", "lib/gone.jar"), packageDir))
        .isInstanceOfSatisfying(
            RuntimeResolution.Missing.class,
            m ->
                assertThat(m.reason())
                    .isEqualTo(
                        "java_class_path entry `/ext/demo/lib/gone.jar` is not a jar or a class"
                            + " directory"));
  }

  @Test
  void aClassOnlyTheHostHasIsNotFound() throws IOException {
    writeJar(hostJar, Optional.empty(), CLASS);
    writeJar(packageDir.resolve("lib/dep.jar"), Optional.empty(), "com.example.dep.Util");

    assertThat(resolver.resolve(target("lib/dep.jar"), packageDir))
        .isInstanceOfSatisfying(
            RuntimeResolution.Missing.class,
            m -> {
              assertThat(m.reason())
                  .isEqualTo("class `" + CLASS + "` was not found on the java_class_path");
              assertThat(m.lookup().searchPath()).isEqualTo("/ext/demo/lib/dep.jar");
            });
  }

  @Test
  void aJarWhoseManifestNamesMoreJarsIsUnsupported() throws IOException {
    writeJar(packageDir.resolve("lib/provider.jar"), Optional.of("extra.jar"), CLASS);

    assertThat(resolver.resolve(target("lib/provider.jar"), packageDir))
        .isInstanceOfSatisfying(
            RuntimeResolution.Unsupported.class,
            u ->
                assertThat(u.reason())
                    .isEqualTo(
                        "java_class_path entry `/ext/demo/lib/provider.jar` is unsupported: its"
                            + " manifest names more jars in `Class-Path`"));
  }

  @Test
  void aClassDirectoryHoldingALinkToADirectoryIsUnsupported() throws IOException {
    Path classes = packageDir.resolve("classes");
    write(classes.resolve("com/example/provider/Main.class"), "main", false);
    Path elsewhere = write(fs.getPath("/tmp/evil/Impl.class"), "unproven", false).getParent();
    Files.createSymbolicLink(classes.resolve("com/example/impl"), elsewhere);

    assertThat(resolver.resolve(target("classes"), packageDir))
        .isInstanceOfSatisfying(
            RuntimeResolution.Unsupported.class,
            u ->
                assertThat(u.reason())
                    .isEqualTo(
                        "java_class_path entry `/ext/demo/classes` is unsupported: it holds a link"
                            + " to a directory (`/ext/demo/classes/com/example/impl`), whose files"
                            + " are not identified"));
  }

  @Test
  void parentSegmentsAreKeptAndResolvedAgainstTheManifestDirectory() throws IOException {
    Files.createDirectories(packageDir); // the kernel walks `..` through the directory itself
    Path shared = writeJar(fs.getPath("/ext/shared/provider.jar"), Optional.empty(), CLASS);

    RuntimeResolution.Resolved r = resolved(target("../shared/provider.jar"));

    assertThat(r.commandPrefix().get(2)).isEqualTo("/ext/demo/../shared/provider.jar");
    assertThat(r.identityRecord()).contains(FileIdentity.of(shared).digest());
  }
}
