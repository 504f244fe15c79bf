package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The text building blocks: alignment, flattening, and colour only when enabled. */
class TextTest {
  static final Style PLAIN = new Style(false);
  static final Style COLOUR = new Style(true);

  static ObjectNode json(String text) {
    return (ObjectNode) JsonMapper.builder().build().readTree(text);
  }

  @Test
  void keyValuesFlattenAndAlign() {
    ObjectNode o =
        json(
            "{\"ok\":true,\"status\":\"ready\",\"doctor\":{\"status\":\"probe_required\","
                + "\"identity\":null},\"ids\":[\"a\",\"b\"],\"rows\":[{\"id\":\"x\"}]}");

    assertThat(Text.keyValues(o, PLAIN).lines())
        .containsExactly(
            "ok:              true",
            "status:          ready",
            "doctor.status:   probe_required",
            "doctor.identity: -",
            "ids:             [a, b]",
            "rows[0].id:      x");
  }

  @Test
  void statusValuesAreColouredOnlyWithColour() {
    ObjectNode o = json("{\"status\":\"blocked\",\"doctor\":{\"status\":\"ready\"},\"x\":\"y\"}");

    String coloured = Text.keyValues(o, COLOUR);

    assertThat(coloured)
        .contains("status:        \u001b[31mblocked\u001b[0m")
        .contains("doctor.status: \u001b[32mready\u001b[0m")
        .contains("x:             y\n");
    assertThat(Text.keyValues(o, PLAIN)).doesNotContain("\u001b");
    assertThat(COLOUR.status("probe_required")).isEqualTo("\u001b[33mprobe_required\u001b[0m");
  }

  @Test
  void tablesAlignByCodePoints() {
    Text.Table t = new Text.Table(List.of("ID", "TITLE", "STATUS"), c -> c == 2);
    t.row(List.of("ü-ext", "Grüße", "ready"));
    t.row(List.of("a", "😀", "blocked"));

    assertThat(t.render(PLAIN, "empty").lines())
        .containsExactly("ID     TITLE  STATUS", "ü-ext  Grüße  ready", "a      😀      blocked");
    assertThat(t.render(COLOUR, "empty"))
        .contains("\u001b[1mID   \u001b[0m  \u001b[1mTITLE\u001b[0m");
  }

  @Test
  void anEmptyTableRendersItsEmptyLine() {
    assertThat(new Text.Table(List.of("A"), c -> false).render(PLAIN, "Nothing."))
        .isEqualTo("Nothing.\n");
  }

  @Test
  void aRowOfTheWrongWidthIsRejected() {
    Text.Table t = new Text.Table(List.of("A", "B"), c -> false);

    assertThatThrownBy(() -> t.row(List.of("only one")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
