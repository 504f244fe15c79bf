package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.FULL;
import static io.loopx.runtime.internal.manifest.Manifests.edit;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import io.loopx.api.ErrorKind;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.internal.state.Reliability;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quicktheories.core.Gen;

/**
 * The id, the version and every descriptive text of a manifest refuse C0 and C1 control characters,
 * U+2028, U+2029 and the bidirectional controls with {@code manifest_invalid} naming the key, and
 * the message never carries the character itself; {@code args}, {@code doctor_args} and {@code
 * entrypoint} keep their own rules.
 */
class UnsafeCharacterTest {

  /** Every refused code point, U+0000 to U+2069. */
  static final List<Integer> UNSAFE =
      IntStream.rangeClosed(0, 0x2069).filter(ManifestValues::isUnsafeCharacter).boxed().toList();

  /** The refused code points the tests go through one by one: each class and its boundaries. */
  static final List<Integer> SAMPLE =
      List.of(
          0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9D, 0x9F, 0x2028, 0x2029,
          0x202A, 0x202C, 0x202E, 0x2066, 0x2068, 0x2069);

  /** Neighbours of the refused ranges that stay allowed. */
  static final List<Integer> ALLOWED =
      List.of(0x20, 0x7E, 0xA0, 0x2027, 0x202F, 0x2065, 0x206A, 0x200E, 0x200F, 0xFEFF);

  /**
   * A text field of the FULL fixture: the line to edit, the line with {@code %s} where the
   * character goes (as a TOML {@code \\uXXXX} escape), and the key the refusal names.
   */
  record Field(String name, String from, String to, String key) {
    String with(int codePoint) {
      return edit(FULL, from, to.formatted(tomlEscape(codePoint)));
    }
  }

  static final List<Field> FIELDS =
      List.of(
          new Field(
              "schema_version",
              "schema_version = \"loopx_extension_manifest_v0\"",
              "schema_version = \"loopx_extension%s_manifest_v0\"",
              "schema_version"),
          new Field("id", "id = \"demo-ext\"", "id = \"demo%s-ext\"", "id"),
          new Field("version", "version = \"1.2.3\"", "version = \"1.2%s.3\"", "version"),
          new Field(
              "requires_loopx_api",
              "requires_loopx_api = \">=1,<2\"",
              "requires_loopx_api = \">=1,%s<2\"",
              "requires_loopx_api"),
          new Field(
              "permissions",
              "permissions = [\"demo.read\", \"demo.write\"]",
              "permissions = [\"demo.read\", \"demo%s.write\"]",
              "permissions[1]"),
          new Field(
              "runtime.protocol",
              "protocol = \"demo_provider_v0\"\nentrypoint",
              "protocol = \"demo_pro%svider_v0\"\nentrypoint",
              "runtime.protocol"),
          new Field(
              "runtime.java_main",
              "entrypoint = \"bin/demo\"",
              "java_main = \"io.example.Ma%sin\"",
              "runtime.java_main"),
          new Field(
              "runtime.required_permissions",
              "required_permissions = [\"demo.read\"]",
              "required_permissions = [\"demo.re%sad\"]",
              "runtime.required_permissions[0]"),
          new Field(
              "presentation_surfaces.id",
              "id = \"demo-board\"",
              "id = \"demo-%sboard\"",
              "presentation_surfaces[0].id"),
          new Field(
              "presentation_surfaces.kind",
              "kind = \"dashboard\"",
              "kind = \"dash%sboard\"",
              "presentation_surfaces[0].kind"),
          new Field(
              "presentation_surfaces.title",
              "title = \"Demo board\"",
              "title = \"Demo %sboard\"",
              "presentation_surfaces[0].title"),
          new Field(
              "presentation_surfaces.view_schema",
              "view_schema = \"demo_view_v0\"",
              "view_schema = \"demo_%sview_v0\"",
              "presentation_surfaces[0].view_schema"),
          new Field(
              "presentation_surfaces.view_validator",
              "view_validator = \"io.example.DemoView#validate\"",
              "view_validator = \"io.example.DemoView#val%sidate\"",
              "presentation_surfaces[0].view_validator"),
          new Field(
              "presentation_surfaces.visibility",
              "visibility = \"public-safe\"",
              "visibility = \"public%s-safe\"",
              "presentation_surfaces[0].visibility"),
          new Field(
              "presentation_surfaces.empty_state_title",
              "empty_state_title = \"Nothing yet\"",
              "empty_state_title = \"Nothing%s yet\"",
              "presentation_surfaces[0].empty_state_title"),
          new Field(
              "presentation_surfaces.empty_state_detail",
              "empty_state_detail = \"Run the demo first.\"",
              "empty_state_detail = \"Run the %sdemo first.\"",
              "presentation_surfaces[0].empty_state_detail"),
          new Field("provides.id", "id = \"demo-cap\"", "id = \"demo%s-cap\"", "provides[0].id"),
          new Field(
              "provides.kind",
              "kind = \"projection_sink\"",
              "kind = \"projection%s_sink\"",
              "provides[0].kind"),
          new Field(
              "provides.title",
              "title = \"Demo capability\"",
              "title = \"Demo %scapability\"",
              "provides[0].title"),
          new Field(
              "provides.status",
              "status = \"active\"",
              "status = \"act%sive\"",
              "provides[0].status"),
          new Field(
              "provides.visibility",
              "visibility = \"public\"",
              "visibility = \"pub%slic\"",
              "provides[0].visibility"),
          new Field(
              "provides.real_world_anchor",
              "real_world_anchor = \"a real thing\"",
              "real_world_anchor = \"a real%s thing\"",
              "provides[0].real_world_anchor"),
          new Field(
              "provides.user_value",
              "user_value = \"value\"",
              "user_value = \"val%sue\"",
              "provides[0].user_value"),
          new Field(
              "provides.entry_command",
              "entry_command = \"loopx demo run\"",
              "entry_command = \"loopx demo %srun\"",
              "provides[0].entry_command"),
          new Field(
              "provides.next_real_step",
              "next_real_step = \"ship it\"",
              "next_real_step = \"ship%s it\"",
              "provides[0].next_real_step"),
          new Field(
              "provides metadata string",
              "tags = [\"a\", \"b\"]",
              "tags = [\"a\", \"b%sc\"]",
              "provides[0].tags[1]"),
          new Field(
              "provides metadata key",
              "tags = [\"a\", \"b\"]",
              "\"ta%sgs\" = [\"a\", \"b\"]",
              "provides[0].ta<escaped>gs"),
          new Field(
              "provides nested metadata",
              "tags = [\"a\", \"b\"]",
              "links = { docs = { label = \"see %sthis\" } }",
              "provides[0].links.docs.label"),
          new Field(
              "implements.capability_id",
              "capability_id = \"semantic-preference\"",
              "capability_id = \"semantic%s-preference\"",
              "implements[0].capability_id"),
          new Field(
              "implements.protocol",
              "capability_id = \"semantic-preference\"\nprotocol = \"demo_provider_v0\"",
              "capability_id = \"semantic-preference\"\nprotocol = \"demo_%sprovider_v0\"",
              "implements[0].protocol"));

  static String tomlEscape(int codePoint) {
    return String.format(Locale.ROOT, "\\u%04X", codePoint);
  }

  static String javaEscape(int codePoint) {
    return String.format(Locale.ROOT, "\\u%04X", codePoint);
  }

  /** The key of {@code field} with {@code codePoint} where the character goes (metadata keys). */
  static String keyOf(Field field, int codePoint) {
    return field.name().equals("provides metadata key")
        ? "provides[0].ta" + javaEscape(codePoint) + "gs"
        : field.key();
  }

  static String detailFor(int codePoint) {
    String what =
        codePoint == 0x2028 || codePoint == 0x2029
            ? "a line or paragraph separator"
            : codePoint >= 0x202A ? "a bidirectional control character" : "a control character";
    return "contains " + what + " U+" + String.format(Locale.ROOT, "%04X", codePoint);
  }

  static Stream<Arguments> fieldsAndCharacters() {
    List<Arguments> cases = new ArrayList<>();
    for (Field field : FIELDS) {
      for (int cp : SAMPLE) {
        cases.add(Arguments.of(Named.of(field.name() + " U+%04X".formatted(cp), field), cp));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fieldsAndCharacters")
  void everyTextFieldRefusesTheCharacterNamingTheKey(Field field, int codePoint) {
    ManifestException e = rejection(field.with(codePoint));

    assertThat(e.kind()).as(e.getMessage()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    assertThat(e.key()).as(e.getMessage()).isEqualTo(keyOf(field, codePoint));
    assertThat(e.detail()).isEqualTo(detailFor(codePoint));
    assertThat(e.getMessage())
        .isEqualTo(Manifests.SOURCE + ": " + keyOf(field, codePoint) + ": " + detailFor(codePoint));
    assertNoUnsafeCharacter(e.getMessage());
  }

  static Stream<Arguments> descriptiveFieldsAndAllowedCharacters() {
    List<Arguments> cases = new ArrayList<>();
    for (String name :
        List.of(
            "version", "provides.title", "provides.entry_command", "provides metadata string")) {
      Field field = FIELDS.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
      for (int cp : ALLOWED) {
        cases.add(Arguments.of(Named.of(name + " U+%04X".formatted(cp), field), cp));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("descriptiveFieldsAndAllowedCharacters")
  void theNeighboursOfTheRefusedRangesStayAllowed(Field field, int codePoint) {
    assertThat(parse(field.with(codePoint)).manifest().toCanonicalJson())
        .contains(Character.toString(codePoint));
  }

  @Test
  void theRefusedSetIsExactlyTheDocumentedOne() {
    assertThat(UNSAFE).hasSize(32 + 1 + 32 + 2 + 5 + 4);
    assertThat(UNSAFE).containsAll(SAMPLE).doesNotContainAnyElementsOf(ALLOWED);
    assertThat(ManifestValues.isUnsafeCharacter(0x1F600)).isFalse();
  }

  @Test
  void launchStringsKeepTheirOwnRules() {
    String toml =
        edit(
            edit(
                edit(FULL, "entrypoint = \"bin/demo\"", "entrypoint = \"bin/de\\u001Bmo\""),
                "args = [\"--serve\"]",
                "args = [\"--ser\\u202Eve\", \"a\\tb\"]"),
            "doctor_args = [\"--doctor\"]",
            "doctor_args = [\"--doc\\u0085tor\"]");

    RuntimeSpec runtime = parse(toml).manifest().runtime().orElseThrow();

    assertThat(runtime.launchTarget().value()).isEqualTo("bin/de\u001Bmo");
    assertThat(runtime.args()).containsExactly("--ser\u202Eve", "a\tb");
    assertThat(runtime.doctorArgs()).containsExactly("--doc\u0085tor");
    assertThat(rejection(edit(FULL, "args = [\"--serve\"]", "args = [\"a\\u0000b\"]")).detail())
        .isEqualTo("must not contain NUL");
  }

  @Test
  void whitespaceControlsAroundAValueAreTrimmedAndInsideItRefused() {
    // the trimmed value is what the manifest holds: U+0009..U+000D, U+001C..U+001F, U+2028 and
    // U+2029 are whitespace to trimming (docs/contract/grammars.md), so only inside they remain
    assertThat(
            parse(edit(FULL, "version = \"1.2.3\"", "version = \"\\u2028 1.2.3\\u001F\\t\""))
                .manifest()
                .version())
        .isEqualTo("1.2.3");
    assertThat(rejection(edit(FULL, "version = \"1.2.3\"", "version = \"1.2\\u001F.3\"")).key())
        .isEqualTo("version");
    assertThat(
            rejection(
                    edit(
                        FULL,
                        "title = \"Demo capability\"",
                        "title = \"\"\"\nDemo\ncapability\n\"\"\""))
                .detail())
        .isEqualTo("contains a control character U+000A");
  }

  @Test
  void rawCharactersInTheFileAreRefusedLikeEscapedOnes() {
    // TOML allows a raw U+202E, C1 controls and U+2028 inside a basic string
    for (int cp : List.of(0x202E, 0x85, 0x2028, 0x2066)) {
      ManifestException e =
          rejection(
              edit(
                  FULL,
                  "title = \"Demo capability\"",
                  "title = \"Demo " + Character.toString(cp) + "capability\""));
      assertThat(e.key()).isEqualTo("provides[0].title");
      assertThat(e.detail()).isEqualTo(detailFor(cp));
      assertNoUnsafeCharacter(e.getMessage());
    }
  }

  /** Strings of printable text with at least one refused code point somewhere. */
  static Gen<String> hostileText() {
    Gen<String> printable = strings().basicLatinAlphabet().ofLengthBetween(0, 8);
    Gen<Integer> unsafe = integers().between(0, UNSAFE.size() - 1).map(UNSAFE::get);
    return lists()
        .of(printable.zip(unsafe, (p, c) -> p + Character.toString(c)))
        .ofSizeBetween(1, 3)
        .zip(printable, (parts, tail) -> String.join("", parts) + tail);
  }

  /**
   * Generated hostile text in a random field: {@code -Dloopx.reliability.unsafeManifests} examples
   * (default 600; the reliability profile raises it and reports the count).
   */
  @Test
  void generatedHostileTextIsRefusedInEveryField() {
    int examples = Reliability.count("unsafeManifests", 600);
    AtomicInteger refused = new AtomicInteger();
    qt().withExamples(examples)
        .forAll(hostileText(), integers().between(0, FIELDS.size() - 1))
        .checkAssert(
            (text, pick) -> {
              refused.incrementAndGet();
              Field field = FIELDS.get(pick);
              String escaped = tomlBasicString(text);
              String toml = edit(FULL, field.from(), field.to().replace("%s", escaped));
              ManifestException e = rejection(toml);
              int first =
                  text.codePoints()
                      .filter(ManifestValues::isUnsafeCharacter)
                      .findFirst()
                      .orElseThrow();
              assertThat(e.kind()).as(toml).isEqualTo(ErrorKind.MANIFEST_INVALID);
              assertThat(e.key())
                  .as(toml)
                  .isEqualTo(field.key().replace("<escaped>", ManifestValues.escaped(text)));
              assertThat(e.detail()).as(toml).isEqualTo(detailFor(first));
              assertNoUnsafeCharacter(e.getMessage());
            });
    Reliability.report(
        "unsafe-manifests.txt",
        List.of(
            "unsafe-manifests: "
                + refused.get()
                + " manifests with control, separator or bidi characters in one of "
                + FIELDS.size()
                + " text fields, all refused with manifest_invalid naming the key"));
  }

  /** The body of a TOML basic string holding {@code text}: unsafe characters and quotes escaped. */
  static String tomlBasicString(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            cp -> {
              if (cp == '"' || cp == '\\' || ManifestValues.isUnsafeCharacter(cp)) {
                out.append(tomlEscape(cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }

  static void assertNoUnsafeCharacter(String message) {
    assertThat(message.codePoints().filter(ManifestValues::isUnsafeCharacter).toArray())
        .as("message without raw unsafe characters: %s", message)
        .isEmpty();
  }
}
