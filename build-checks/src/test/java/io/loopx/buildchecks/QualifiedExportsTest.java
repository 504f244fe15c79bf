package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each qualified export of a library module is justified in docs/ARCHITECTURE.md. */
class QualifiedExportsTest {

  @Test
  void everyQualifiedExportIsJustified() throws IOException {
    String architecture = Files.readString(Path.of("..", "docs", "ARCHITECTURE.md"));
    for (LibraryModule m : LibraryModule.ALL) {
      assertThat(QualifiedExports.problems(List.copyOf(m.descriptor().exports()), architecture))
          .as(m.artifactId())
          .isEmpty();
    }
  }

  @Test
  void anUndocumentedOrUnreasonedExportFails() {
    ModuleDescriptor d =
        ModuleDescriptor.newModule("m")
            .exports(Set.of(), "a.internal", Set.of("x", "y"))
            .exports(Set.of(), "b.internal", Set.of("x"))
            .exports(Set.of(), "c.internal", Set.of("x"))
            .exports("d.api")
            .build();
    String page =
        "# t\n\n"
            + QualifiedExports.HEADING
            + "\n| export | to | why |\n|---|---|---|\n"
            + "| `a.internal` | `x` | shared |\n"
            + "| `c.internal` | `x` | |\n"
            + "\n## Next\n| `b.internal` | `x` | not in the section |\n";

    assertThat(
            QualifiedExports.problems(
                d.exports().stream().sorted((p, q) -> p.source().compareTo(q.source())).toList(),
                page))
        .containsExactly(
            "a.internal: the row does not name the target y",
            "b.internal: no row in the qualified exports of docs/ARCHITECTURE.md",
            "c.internal: the row gives no reason");
  }
}
