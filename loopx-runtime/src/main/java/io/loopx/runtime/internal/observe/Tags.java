package io.loopx.runtime.internal.observe;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The tags of an {@link ObservedCallRecord}: an immutable map over two parallel arrays that keeps
 * its keys in their given order, so that an observed call costs one small array per tag set instead
 * of a hash map. Its equality and hash code are those of {@link Map}.
 */
final class Tags extends AbstractMap<String, String> {
  private static final String[] NOTHING = new String[0];

  /** The map without tags. */
  static final Tags EMPTY = new Tags(NOTHING, NOTHING);

  private final String[] keys;
  private final String[] values;

  /** Tags {@code keys[i]} = {@code values[i]}; the arrays are kept, not copied. */
  Tags(String[] keys, String[] values) {
    if (keys.length != values.length) {
      throw new IllegalArgumentException("as many keys as values");
    }
    for (int i = 0; i < keys.length; i++) {
      Objects.requireNonNull(keys[i], "key");
      Objects.requireNonNull(values[i], "value");
    }
    this.keys = keys;
    this.values = values;
  }

  /** One tag. */
  static Tags of(String key, String value) {
    return new Tags(new String[] {key}, new String[] {value});
  }

  /** Returns {@code map} when it is tags, else its tags in its iteration order. */
  static Tags copyOf(Map<String, String> map) {
    if (map instanceof Tags tags) {
      return tags;
    }
    String[] k = new String[map.size()];
    String[] v = new String[map.size()];
    int i = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      k[i] = e.getKey();
      v[i] = e.getValue();
      i++;
    }
    return new Tags(k, v);
  }

  @Override
  public int size() {
    return keys.length;
  }

  @Override
  public boolean containsKey(@Nullable Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public @Nullable String get(@Nullable Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  private int indexOf(@Nullable Object key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return keys.length;
      }

      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < keys.length;
          }

          @Override
          public Map.Entry<String, String> next() {
            if (next >= keys.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(keys[i], values[i]);
          }
        };
      }
    };
  }
}
