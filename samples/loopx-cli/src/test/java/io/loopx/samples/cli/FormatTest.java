package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** The {@code --format} value and the pre-scan used when the command line does not parse. */
class FormatTest {

  @Test
  void prescanFindsTheLastFormatBeforeTheEndOfOptions() {
    assertThat(Format.prescan(List.of())).isEqualTo(Format.TEXT);
    assertThat(Format.prescan(List.of("x", "--format", "json"))).isEqualTo(Format.JSON);
    assertThat(Format.prescan(List.of("--format=json", "y"))).isEqualTo(Format.JSON);
    assertThat(Format.prescan(List.of("--format", "json", "--format", "text")))
        .isEqualTo(Format.TEXT);
    assertThat(Format.prescan(List.of("--format", "xml"))).isEqualTo(Format.TEXT);
    assertThat(Format.prescan(List.of("--format"))).isEqualTo(Format.TEXT);
    assertThat(Format.prescan(List.of("--", "--format", "json"))).isEqualTo(Format.TEXT);
  }

  @Test
  void onlyTheExactWordsConvert() {
    Format.Converter converter = new Format.Converter();

    assertThat(converter.convert("json")).isEqualTo(Format.JSON);
    assertThat(converter.convert("text")).isEqualTo(Format.TEXT);
    for (String bad : List.of("JSON", "", " json", "yaml")) {
      assertThatThrownBy(() -> converter.convert(bad))
          .isInstanceOf(TypeConversionException.class)
          .hasMessageContaining("`" + bad + "`");
    }
  }
}
