package io.loopx.runtime.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramLookupTest {
  @TempDir Path dir;

  @Test
  void aNameWithASlashIsResolvedAgainstTheWorkingDirectory() throws IOException {
    Path tool = executable(Files.createDirectory(dir.resolve("bin")).resolve("tool"));

    ProgramLookup.Found found = ProgramLookup.resolve("bin/tool", "/nowhere", dir);

    assertThat(found.program()).contains(tool);
  }

  @Test
  void aBareNameIsSearchedOnPathInOrderAndAnEmptyEntryMeansTheWorkingDirectory()
      throws IOException {
    Path first = Files.createDirectory(dir.resolve("first"));
    Path second = Files.createDirectory(dir.resolve("second"));
    Path inSecond = executable(second.resolve("tool"));
    Files.writeString(first.resolve("tool"), "not executable");
    Path here = executable(dir.resolve("local"));

    assertThat(ProgramLookup.resolve("tool", first + ":" + second, dir).program())
        .contains(inSecond);
    assertThat(ProgramLookup.resolve("local", "/nowhere::", dir).program()).contains(here);
    assertThat(ProgramLookup.resolve("local", "/nowhere", dir).program()).isEmpty();
  }

  @Test
  void withoutPathTheGlibcDefaultIsSearched() {
    ProgramLookup.Found found = ProgramLookup.resolve("sh", null, dir);

    assertThat(found.program()).isPresent();
    assertThat(found.program().get().getParent().toString()).isIn("/bin", "/usr/bin");
  }

  @Test
  void problemsNameTheProgram() throws IOException {
    Files.createDirectory(dir.resolve("adir"));

    assertThat(ProgramLookup.resolve("./missing", null, dir).problem())
        .isEqualTo("executable `./missing` does not exist");
    assertThat(ProgramLookup.resolve("./adir", null, dir).problem())
        .isEqualTo("executable `./adir` is not a regular file");
    assertThat(ProgramLookup.resolve("missing", "/a:/b", dir).problem())
        .isEqualTo("executable `missing` is not on PATH `/a:/b`");
  }

  private static Path executable(Path path) throws IOException {
    Files.writeString(path, "#!/bin/sh\n");
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
    return path;
  }
}
