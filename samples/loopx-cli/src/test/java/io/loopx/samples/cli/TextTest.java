package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
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

  @Test
  void keysValuesAndCellsOfDataAreEscaped() {
    ObjectNode o = hostileObject();
    String lines = Text.keyValues(o, COLOUR);

    assertThat(lines)
        .contains("k\\u001B[2J.n\\u202E: ")
        .contains("\\u001B]0;title\\u0007 \\u009B \\u2028 x\\u007F")
        .contains("[a\\u2066, b]");
    assertThat(lines.replaceAll("\u001b\\[[0-9;]*m", "").replace("\n", ""))
        .doesNotContain("\u001b", "\u0007", "\u009b", "\u2028", "\u007f", "\u202e", "\u2066");
    Text.Table t = new Text.Table(List.of("ID", "TITLE"), c -> false);
    t.row(List.of("a\u202Eb", "\u001b[31mred"));
    assertThat(t.render(PLAIN, "empty").lines())
        .containsExactly("ID        TITLE", "a\\u202Eb  \\u001B[31mred");
  }

  /** A hostile object: keys and values with ESC, OSC, BEL, C1, LS, DEL and bidi controls. */
  private static ObjectNode hostileObject() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.putObject("k\u001b[2J").put("n\u202E", "\u001b]0;title\u0007 \u009b \u2028 x\u007f");
    o.putArray("list").add("a\u2066").add("b");
    return o;
  }

  @Test
  void escapingIsUpperCaseHexAndIdempotent() {
    String hostile = "\u0000\u001f\u007f\u0080\u009f\u2028\u2029\u202a\u202e\u2066\u2069";
    String once = SafeText.escaped(hostile);

    assertThat(once)
        .isEqualTo("\\u0000\\u001F\\u007F\\u0080\\u009F\\u2028\\u2029\\u202A\\u202E\\u2066\\u2069");
    assertThat(SafeText.escaped(once)).isEqualTo(once);
    assertThat(SafeText.escaped("grüß 😀 \u00A0\u200E\u2027\u202F\u206A"))
        .isEqualTo("grüß 😀 \u00A0\u200E\u2027\u202F\u206A");
  }

  @Test
  void theJsonWriterEscapesEveryUnsafeCharacterInKeysAndValues() {
    StringBuilder all = new StringBuilder();
    for (int cp = 0; cp <= 0x206A; cp++) {
      if (SafeText.isUnsafe(cp)) {
        all.appendCodePoint(cp);
      }
    }
    assertThat(all.length()).isEqualTo(32 + 1 + 32 + 2 + 5 + 4);
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("key" + all, "value" + all + "ü😀");

    String written = SafeText.JSON.writeValueAsString(o);

    assertThat(written.codePoints().filter(SafeText::isUnsafe).toArray()).isEmpty();
    assertThat(written)
        .contains("\\u0085\\u0086")
        .contains("\\u2028\\u2029\\u202A")
        .contains("ü😀");
    assertThat(json(written)).isEqualTo(o);
  }
}
