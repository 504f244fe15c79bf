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
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaMainResolutionTest {
  private static final String CLASS = "com.example.provider.Main";
  private static final LaunchTarget MAIN = new LaunchTarget.JavaMain(CLASS);

  private final FileSystem fs = TestFiles.unixFs();
  private final Path java = write(fs.getPath("/jdk/bin/java"), "java launcher", true);

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  private static Path writeJar(Path jar, Map<String, String> entries) throws IOException {
    Files.createDirectories(jar.getParent());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out)) {
      for (Map.Entry<String, String> e : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(e.getKey()));
        zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return jar;
  }

  private RuntimeResolution resolve(List<Path> codePath) {
    return RuntimeResolver.of(new RuntimeEnvironment("", java, codePath))
        .resolve(MAIN, fs.getPath("/ignored"));
  }

  private static RuntimeResolution.Resolved resolved(RuntimeResolution resolution) {
    assertThat(resolution).isInstanceOf(RuntimeResolution.Resolved.class);
    return (RuntimeResolution.Resolved) resolution;
  }

  @Test
  void classInAClassDirectoryIsIdentifiedByTheDirectoryDigest() {
    Path classes = fs.getPath("/app/classes");
    Path mainClass = write(classes.resolve("com/example/provider/Main.class"), "cafebabe", false);
    Path other = write(classes.resolve("com/example/provider/Helper.class"), "helper", false);
    Path empty = fs.getPath("/app/empty");

    RuntimeResolution.Resolved r = resolved(resolve(List.of(empty, classes)));

    assertThat(r.savedPath()).isEmpty();
    assertThat(r.commandPrefix())
        .containsExactly(
            "/jdk/bin/java", "-cp", "/app/empty" + File.pathSeparator + "/app/classes", CLASS);
    String directoryDigest =
        TestFiles.sha256Hex(
            "{\"files\":{\"com/example/provider/Helper.class\":\""
                + FileIdentity.of(other).digest()
                + "\",\"com/example/provider/Main.class\":\""
                + FileIdentity.of(mainClass).digest()
                + "\"},\"kind\":\"class_directory\","
                + "\"schema_version\":\"loopx_runtime_class_directory_identity_v1\"}");
    assertThat(r.identityRecord())
        .isEqualTo(
            "{\"class_name\":\""
                + CLASS
                + "\",\"code_source\":\""
                + directoryDigest
                + "\",\"code_source_kind\":\"class_directory\",\"java\":\""
                + FileIdentity.of(java).digest()
                + "\",\"kind\":\"java_main\",\"schema_version\":\"loopx_runtime_identity_v1\"}");
    assertThat(r.identity().value()).isEqualTo(TestFiles.sha256Hex(r.identityRecord()));
  }

  @Test
  void changingAddingOrRemovingAnotherFileInTheDirectoryChangesTheIdentity() throws IOException {
    Path classes = fs.getPath("/app/classes");
    write(classes.resolve("com/example/provider/Main.class"), "main", false);
    Path helper = write(classes.resolve("com/example/util/Helper.class"), "helper v1", false);
    RuntimeIdentity original = resolved(resolve(List.of(classes))).identity();

    write(helper, "helper v2", false);
    RuntimeIdentity changed = resolved(resolve(List.of(classes))).identity();
    write(classes.resolve("META-INF/extra.txt"), "extra", false);
    RuntimeIdentity added = resolved(resolve(List.of(classes))).identity();
    Files.delete(classes.resolve("META-INF/extra.txt"));
    write(helper, "helper v1", false);

    assertThat(changed).isNotEqualTo(original);
    assertThat(added).isNotEqualTo(changed).isNotEqualTo(original);
    assertThat(resolved(resolve(List.of(classes))).identity()).isEqualTo(original);
  }

  @Test
  void classInAJarIsIdentifiedByTheJarFileIdentity() throws IOException {
    Path noise = writeJar(fs.getPath("/lib/noise.jar"), Map.of("com/example/Other.class", "x"));
    Path jar =
        writeJar(
            fs.getPath("/lib/provider.jar"),
            Map.of("com/example/provider/Main.class", "any bytes, never loaded"));

    RuntimeResolution.Resolved r = resolved(resolve(List.of(noise, jar)));

    assertThat(r.identityRecord())
        .contains("\"code_source_kind\":\"jar\"")
        .contains("\"code_source\":\"" + FileIdentity.of(jar).digest() + "\"");

    Path sameJarElsewhere = fs.getPath("/copy/provider.jar");
    Files.createDirectories(sameJarElsewhere.getParent());
    Files.copy(jar, sameJarElsewhere);
    assertThat(resolved(resolve(List.of(sameJarElsewhere))).identity()).isEqualTo(r.identity());
  }

  @Test
  void theFirstCodePathEntryHoldingTheClassWins() throws IOException {
    Path first = writeJar(fs.getPath("/lib/a.jar"), Map.of("com/example/provider/Main.class", "a"));
    Path second = fs.getPath("/classes");
    write(second.resolve("com/example/provider/Main.class"), "b", false);

    assertThat(resolved(resolve(List.of(first, second))).identityRecord()).contains("\"jar\"");
    assertThat(resolved(resolve(List.of(second, first))).identityRecord())
        .contains("\"class_directory\"");
  }

  @Test
  void classNotOnTheCodePathIsMissing() throws IOException {
    Path jar = writeJar(fs.getPath("/lib/x.jar"), Map.of("com/example/provider/Other.class", "x"));
    Path notAZip = write(fs.getPath("/lib/broken.jar"), "not a zip", false);
    Path dirEntry = fs.getPath("/lib/com/example/provider/Main.class");
    Files.createDirectories(dirEntry); // a directory named like the class file is not the class

    RuntimeResolution r =
        resolve(List.of(jar, notAZip, fs.getPath("/lib"), fs.getPath("/does/not/exist")));

    assertThat(r).isInstanceOf(RuntimeResolution.Missing.class);
    assertThat(((RuntimeResolution.Missing) r).reason()).contains(CLASS);
    assertThat(r.resolvedIdentity()).isEmpty();
  }

  @Test
  void missingJavaExecutableIsMissing() {
    Path classes = fs.getPath("/app/classes");
    write(classes.resolve("com/example/provider/Main.class"), "main", false);

    RuntimeResolution r =
        RuntimeResolver.of(new RuntimeEnvironment("", fs.getPath("/no/java"), List.of(classes)))
            .resolveSaved(MAIN, Optional.empty());

    assertThat(r).isInstanceOf(RuntimeResolution.Missing.class);
    assertThat(((RuntimeResolution.Missing) r).reason()).contains("/no/java");
  }

  @Test
  void changingTheJavaExecutableChangesTheIdentity() {
    Path classes = fs.getPath("/app/classes");
    write(classes.resolve("com/example/provider/Main.class"), "main", false);
    RuntimeIdentity before = resolved(resolve(List.of(classes))).identity();

    write(java, "another java", true);

    assertThat(resolved(resolve(List.of(classes))).identity()).isNotEqualTo(before);
  }

  @Test
  void codePathPutsModulePathFirstExpandsModuleDirectoriesAndMakesEntriesAbsolute()
      throws IOException {
    Path work = Files.createDirectories(fs.getPath("/work"));
    Path mods = fs.getPath("/work/mods");
    writeJar(mods.resolve("b.jar"), Map.of("b/B.class", "b"));
    writeJar(mods.resolve("a.jar"), Map.of("a/A.class", "a"));
    write(mods.resolve("notes.txt"), "ignored", false);
    write(mods.resolve("exploded/x/X.class"), "x", false);
    Path exploded = fs.getPath("/work/app-classes");
    write(exploded.resolve("module-info.class"), "module", false);

    List<Path> codePath =
        HostCodePath.of(
            "lib/c.jar"
                + File.pathSeparator
                + File.pathSeparator
                + "/abs/d.jar"
                + File.pathSeparator
                + "lib/c.jar",
            "app-classes" + File.pathSeparator + "mods",
            work);

    assertThat(codePath)
        .containsExactly(
            exploded,
            mods.resolve("a.jar"),
            mods.resolve("b.jar"),
            mods.resolve("exploded"),
            fs.getPath("/work/lib/c.jar"),
            fs.getPath("/abs/d.jar"));
  }

  @Test
  void classInAJarOfAModuleDirectoryResolves() throws IOException {
    Path mods = fs.getPath("/host/mods");
    Path jar =
        writeJar(mods.resolve("provider.jar"), Map.of("com/example/provider/Main.class", "m"));

    List<Path> codePath = HostCodePath.of("", mods.toString(), fs.getPath("/"));

    RuntimeResolution.Resolved r = resolved(resolve(codePath));
    assertThat(r.identityRecord()).contains(FileIdentity.of(jar).digest());
    assertThat(r.commandPrefix().get(2)).isEqualTo(jar.toString());
  }

  @Test
  void classDirectoryAndJarOnTheRealFileSystem(@TempDir Path tmp) throws IOException {
    Path realJava = write(tmp.resolve("jdk/bin/java"), "fake java", true);
    Path classes = tmp.resolve("classes");
    write(classes.resolve("com/example/provider/Main.class"), "main", false);
    Path jar = writeJar(tmp.resolve("lib/p.jar"), Map.of("com/example/provider/Main.class", "m"));

    RuntimeResolver fromDirectory =
        RuntimeResolver.of(new RuntimeEnvironment("", realJava, List.of(classes)));
    RuntimeResolver fromJar =
        RuntimeResolver.of(new RuntimeEnvironment("", realJava, List.of(jar)));

    assertThat(resolved(fromDirectory.resolve(MAIN, tmp)).identityRecord())
        .contains("class_directory");
    assertThat(resolved(fromJar.resolve(MAIN, tmp)).identityRecord())
        .contains(FileIdentity.of(jar).digest());
  }

  @Test
  void thisJvmResolvesItsOwnJavaAndClassesFromDirectoriesAndJars() {
    RuntimeEnvironment current = RuntimeEnvironment.current();
    RuntimeResolver resolver = RuntimeResolver.of(current);
    Path javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java");

    RuntimeResolution.Resolved own =
        resolved(
            resolver.resolve(
                new LaunchTarget.JavaMain(RuntimeResolver.class.getName()), Path.of("")));
    RuntimeResolution.Resolved guava =
        resolved(
            resolver.resolve(
                new LaunchTarget.JavaMain("com.google.common.base.Preconditions"), Path.of("")));

    assertThat(current.javaExecutable()).isEqualTo(javaExecutable);
    assertThat(own.identityRecord())
        .contains("\"java\":\"" + FileIdentity.of(javaExecutable).digest() + "\"")
        .contains("\"code_source_kind\":\"class_directory\"");
    assertThat(guava.identityRecord()).contains("\"code_source_kind\":\"jar\"");
    assertThat(own.commandPrefix().get(0)).isEqualTo(javaExecutable.toString());
    assertThat(current.codePath()).allMatch(Path::isAbsolute);
  }
}
