package io.loopx.api.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The {@code runtime.access} value type: normal form, immutability and its rules. */
class RuntimeAccessTest {

  @Test
  void noneDeclaresNothingAndHasNoWords() {
    assertThat(RuntimeAccess.NONE.isNone()).isTrue();
    assertThat(RuntimeAccess.NONE.wireWords()).isEmpty();
    assertThat(RuntimeAccess.of(List.of())).isEqualTo(RuntimeAccess.NONE);
    assertThat(RuntimeAccess.of(List.of("network")).isNone()).isFalse();
  }

  @Test
  void theSetsAreSortedNaturallyAndUnmodifiable() {
    TreeSet<String> reversed = new TreeSet<>(Comparator.reverseOrder());
    reversed.addAll(List.of("a", "c", "b"));
    RuntimeAccess access = new RuntimeAccess(true, reversed, new TreeSet<>(List.of("z", "d")));
    assertThat(access.readRoots()).containsExactly("a", "b", "c");
    assertThat(access.roots()).containsExactly("a", "b", "c", "d", "z");
    assertThat(access.wireWords())
        .containsExactly("network", "read:a", "read:b", "read:c", "write:d", "write:z");
    assertThatThrownBy(() -> access.readRoots().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> access.wireWords().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    // Equal whatever the order the roots were given in.
    assertThat(access)
        .isEqualTo(
            RuntimeAccess.of(
                List.of("write:z", "read:c", "network", "read:a", "write:d", "read:b")));
  }

  @Test
  void badValuesAreInvalidValues() {
    assertThatThrownBy(() -> RuntimeAccess.of(List.of("read:data", "write:data")))
        .isInstanceOfSatisfying(
            InvalidValueException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE))
        .hasMessageContaining("write implies read");
    assertThatThrownBy(() -> RuntimeAccess.of(List.of("read:" + "a".repeat(33))))
        .hasMessageContaining("1..32 characters of lower-kebab-case");
    assertThatThrownBy(() -> new RuntimeAccess(false, List.of("ok"), List.of("not ok")))
        .hasMessageContaining("lower-kebab-case");
    assertThatThrownBy(
            () -> new RuntimeAccess(false, java.util.Arrays.asList("a", null), List.of()))
        .isInstanceOf(NullPointerException.class);
  }
}
