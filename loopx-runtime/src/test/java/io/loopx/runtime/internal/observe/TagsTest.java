package io.loopx.runtime.internal.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The array-backed tag maps of observed calls, and the record's invariants. */
class TagsTest {

  @Test
  void keepsItsOrderAndIsAMapLikeAnyOther() {
    Tags tags = new Tags(new String[] {"b", "a", "c"}, new String[] {"2", "1", "3"});
    Map<String, String> same = new LinkedHashMap<>();
    same.put("b", "2");
    same.put("a", "1");
    same.put("c", "3");

    assertThat(List.copyOf(tags.keySet())).containsExactly("b", "a", "c");
    assertThat(List.copyOf(tags.values())).containsExactly("2", "1", "3");
    assertThat(tags).isEqualTo(same).hasSameHashCodeAs(same);
    assertThat(tags.get("a")).isEqualTo("1");
    assertThat(tags.get("z")).isNull();
    assertThat(tags.containsKey("c")).isTrue();
    assertThat(tags.containsKey(null)).isFalse();
    assertThat(tags).hasToString("{b=2, a=1, c=3}");
    assertThatThrownBy(() -> tags.put("d", "4")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> tags.entrySet().iterator().next().setValue("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(Tags.copyOf(same)).isEqualTo(tags);
    assertThat(List.copyOf(Tags.copyOf(same).keySet())).containsExactly("b", "a", "c");
    assertThat(Tags.EMPTY).isEmpty();
  }

  @Test
  void refusesNullsAndUnevenArrays() {
    assertThatThrownBy(() -> new Tags(new String[] {"a"}, new String[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Tags(new String[] {"a"}, new String[] {null}))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aRunningCallHasNeitherFailedNorAnError() {
    assertThatThrownBy(
            () ->
                new ObservedCallRecord(
                    "loopx.run",
                    Map.of(),
                    Map.of(),
                    false,
                    false,
                    Optional.of(ErrorKind.IO_FAILED)))
        .isInstanceOf(IllegalArgumentException.class);
    ObservedCallRecord copied =
        new ObservedCallRecord(
            "loopx.run",
            new LinkedHashMap<>(Map.of("a", "1")),
            Map.of(),
            true,
            true,
            Optional.empty());
    assertThat(copied.lowCardinalityTags()).isInstanceOf(Tags.class).containsEntry("a", "1");
  }
}
