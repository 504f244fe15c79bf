package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every documentation link of the project resolves; the check itself on a small tree. */
class DocLinksTest {

  @TempDir Path dir;

  @Test
  void everyLinkOfTheProjectResolves() {
    assertThat(DocLinks.problems(Path.of("..").toAbsolutePath().normalize())).isEmpty();
  }

  @Test
  void aMissingPageAndAMissingAnchorAreReported() throws IOException {
    write("docs/a.md", "# A page\n\n## Rule order\n\n<a id=\"kept\"></a>text\n");
    write(
        "README.md",
        "[ok](docs/a.md#rule-order) [ok](docs/a.md#kept) [ok](#title)\n"
            + "# Title\n"
            + "[gone](docs/b.md) [bad](docs/a.md#no-such) [web](https://example.org/x.md)\n"
            + "`[code](docs/c.md)`\n"
            + "```\n[fenced](docs/d.md)\n```\n");
    write("pom.xml", "<!-- docs/a.md and docs/BUILDING.md -->\n");
    write("Main.java", "/** See docs/a.md#a-page and docs/a.md#nothing. */\n");

    assertThat(DocLinks.problems(dir))
        .containsExactly(
            "Main.java:1: docs/a.md#nothing: no heading with that anchor",
            "README.md:3: docs/b.md: no such file",
            "README.md:3: docs/a.md#no-such: no heading with that anchor",
            "README.md:4: docs/c.md: no such file",
            "README.md:6: docs/d.md: no such file",
            "pom.xml:1: docs/BUILDING.md: no such file");
  }

  @Test
  void anchorsFollowGitHubsRule() {
    assertThat(DocLinks.slug("Java class path (`java_class_path`)"))
        .isEqualTo("java-class-path-java_class_path");
    assertThat(DocLinks.slug("Enable, disable & rollback")).isEqualTo("enable-disable--rollback");
  }

  private void write(String relative, String text) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
