package io.loopx.testkit.contract;

import io.loopx.api.json.StrictJson;
import io.loopx.api.provider.ProviderMain;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The malformed requests the contract kit sends, each derived from the provider's valid request. A
 * provider must refuse every one before doing any work: exit status not 0 and exactly one JSON
 * object with {@code "ok": false} on stdout. Those that LoopX itself refuses ({@link
 * #rejectedByLoopx()}, kind {@code request_invalid}) are sent to the provider directly as well.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum MalformedRequest {
  /** No bytes at all. */
  EMPTY(true),
  /** The valid request inside a JSON array. */
  ARRAY(true),
  /** The valid request cut before its closing brace. */
  NOT_JSON(true),
  /** The valid request without its {@code schema_version}. */
  MISSING_SCHEMA_VERSION(false),
  /** The valid request with another {@code schema_version} (the next version number). */
  WRONG_SCHEMA_VERSION(false),
  /** The valid request with one more top-level key. */
  EXTRA_KEY(false),
  /** The valid request padded with whitespace to one byte over the 1,000,000-byte limit. */
  OVERSIZE(true);

  private static final Pattern VERSIONED = Pattern.compile("(.*_v)([0-9]{1,9})");

  private final boolean rejectedByLoopx;

  MalformedRequest(boolean rejectedByLoopx) {
    this.rejectedByLoopx = rejectedByLoopx;
  }

  /** Returns whether LoopX refuses this input itself ({@code request_invalid}). */
  public boolean rejectedByLoopx() {
    return rejectedByLoopx;
  }

  /**
   * Returns the bytes of this malformation of {@code valid}, which must hold a string {@code
   * schema_version}; {@code random} picks the extra key and its value.
   *
   * @throws IllegalArgumentException if {@code valid} has no string {@code schema_version}
   */
  public byte[] render(ObjectNode valid, Random random) {
    Objects.requireNonNull(valid, "valid");
    Objects.requireNonNull(random, "random");
    JsonNode version = valid.get("schema_version");
    if (version == null || !version.isString()) {
      throw new IllegalArgumentException(
          "the valid request must hold a string `schema_version`: " + valid);
    }
    byte[] compact = StrictJson.toCompactBytes(valid);
    return switch (this) {
      case EMPTY -> new byte[0];
      case ARRAY -> concat("[".getBytes(StandardCharsets.UTF_8), compact, new byte[] {']'});
      case NOT_JSON -> Arrays.copyOf(compact, compact.length - 1);
      case MISSING_SCHEMA_VERSION -> {
        ObjectNode copy = valid.deepCopy();
        copy.remove("schema_version");
        yield StrictJson.toCompactBytes(copy);
      }
      case WRONG_SCHEMA_VERSION -> {
        ObjectNode copy = valid.deepCopy();
        copy.put("schema_version", otherVersion(version.asString(), random));
        yield StrictJson.toCompactBytes(copy);
      }
      case EXTRA_KEY -> {
        ObjectNode copy = valid.deepCopy();
        String key;
        do {
          key = "unexpected_" + letters(random, 8);
        } while (copy.has(key));
        copy.put(key, random.nextInt(1_000_000));
        yield StrictJson.toCompactBytes(copy);
      }
      case OVERSIZE -> {
        if (compact.length > ProviderMain.MAX_REQUEST_BYTES) {
          throw new IllegalArgumentException(
              "the valid request is already over the "
                  + ProviderMain.MAX_REQUEST_BYTES
                  + "-byte limit");
        }
        byte[] padded = Arrays.copyOf(compact, ProviderMain.MAX_REQUEST_BYTES + 1);
        Arrays.fill(padded, compact.length, padded.length, (byte) ' ');
        yield padded;
      }
    };
  }

  /** {@code x_v0} becomes {@code x_v1}..{@code x_v8}; anything else gets {@code _other} added. */
  private static String otherVersion(String version, Random random) {
    Matcher m = VERSIONED.matcher(version);
    if (m.matches()) {
      return m.group(1) + (Long.parseLong(m.group(2)) + 1 + random.nextInt(8));
    }
    return version + "_other";
  }

  /** Returns {@code count} random lowercase ASCII letters. */
  static String letters(Random random, int count) {
    StringBuilder out = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      out.append((char) ('a' + random.nextInt(26)));
    }
    return out.toString();
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
