package io.loopx.runtime.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.LaunchRequestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchRequestTest {

  @Test
  void builderDefaultsFollowTheSpec() {
    LaunchRequest request = LaunchRequestBuilder.of(List.of("provider")).build();

    assertThat(request.argv()).containsExactly("provider");
    assertThat(request.environment()).isEmpty();
    assertThat(request.workingDirectory()).isEmpty();
    assertThat(request.stdin()).isEmpty();
    assertThat(request.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(request.stdoutLimit()).isEqualTo(1_000_000);
    assertThat(request.stderrLimit()).isEqualTo(1_000_000);
  }

  @Test
  void everyComponentIsCopiedOnTheWayInAndOut() {
    List<String> argv = new ArrayList<>(List.of("provider", "--flag"));
    Map<String, String> env = new HashMap<>(Map.of("A", "1"));
    byte[] stdin = {1, 2, 3};
    LaunchRequest request =
        LaunchRequestBuilder.of(argv)
            .environment(env)
            .stdin(stdin)
            .workingDirectory(Path.of("/tmp"))
            .build();

    argv.add("--more");
    env.put("B", "2");
    stdin[0] = 9;
    request.stdin()[1] = 9;

    assertThat(request.argv()).containsExactly("provider", "--flag");
    assertThat(request.environment()).containsExactly(Map.entry("A", "1"));
    assertThat(request.stdin()).containsExactly(1, 2, 3);
    assertThat(request.stdinLength()).isEqualTo(3);
    assertThat(request.workingDirectory()).contains(Path.of("/tmp"));
    assertThatThrownBy(() -> request.argv().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void equalityComparesStdinByContent() {
    LaunchRequest a = LaunchRequestBuilder.of(List.of("p")).stdin(new byte[] {1, 2}).build();
    LaunchRequest b = LaunchRequestBuilder.of(List.of("p")).stdin(new byte[] {1, 2}).build();
    LaunchRequest c = LaunchRequestBuilder.of(List.of("p")).stdin(new byte[] {1, 3}).build();

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(c);
    assertThat(a.toString()).contains("stdin=2 bytes").doesNotContain("[1, 2]");
  }

  @Test
  void toStringNamesVariablesButNotTheirValues() {
    LaunchRequest request =
        LaunchRequestBuilder.of(List.of("p")).environment(Map.of("TOKEN", "secret")).build();

    assertThat(request.toString()).contains("TOKEN").doesNotContain("secret");
  }

  @Test
  void emptyArgvIsRefused() {
    assertInvalid(() -> LaunchRequestBuilder.of(List.of()).build(), "process argv");
  }

  @Test
  void anEmptyProgramIsRefused() {
    assertInvalid(() -> LaunchRequestBuilder.of(List.of("")).build(), "process program");
  }

  @Test
  void nulInAnArgumentIsRefusedAndNamed() {
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p", "a\0b")).build(), "process argument `a\\0b`");
  }

  @Test
  void badVariableNamesAndValuesAreRefused() {
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).environment(Map.of("A=B", "x")).build(),
        "environment variable name `A=B`");
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).environment(Map.of("", "x")).build(),
        "environment variable name ``");
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).environment(Map.of("A", "x\0")).build(),
        "value of environment variable `A`");
  }

  @Test
  void theTimeoutMustBePositive() {
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).timeout(Duration.ZERO).build(),
        "process timeout `PT0S`");
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).timeout(Duration.ofSeconds(-1)).build(),
        "process timeout");
  }

  @Test
  void limitsMustFitAnArray() {
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).stdoutLimit(-1).build(), "stdout limit `-1`");
    assertInvalid(
        () -> LaunchRequestBuilder.of(List.of("p")).stderrLimit(Integer.MAX_VALUE).build(),
        "stderr limit");
    assertThat(
            LaunchRequestBuilder.of(List.of("p"))
                .stdoutLimit(0)
                .stderrLimit(LaunchRequestRecord.MAX_OUTPUT_LIMIT)
                .build()
                .stderrLimit())
        .isEqualTo(LaunchRequestRecord.MAX_OUTPUT_LIMIT);
  }

  @Test
  void theCanonicalConstructorValidatesToo() {
    assertInvalid(
        () ->
            new LaunchRequestRecord(
                List.of("p"), Map.of(), Optional.empty(), new byte[0], Duration.ZERO, 1, 1),
        "process timeout");
  }

  private static void assertInvalid(Runnable action, String fragment) {
    assertThatThrownBy(action::run)
        .isInstanceOf(LoopxException.class)
        .hasMessageContaining(fragment)
        .satisfies(e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.INVALID_VALUE));
  }
}
