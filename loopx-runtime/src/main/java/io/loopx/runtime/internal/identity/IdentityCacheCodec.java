package io.loopx.runtime.internal.identity;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * The identity cache file format, {@code loopx_identity_cache_v1} (docs/contract/state.md): UTF-8
 * text, one line per entry between a header line and a trailer line, each line ending in {@code
 * \n}:
 *
 * <pre>{@code
 * loopx_identity_cache_v1
 * PATH \t DEV \t INO \t SIZE \t MODE \t MTIME_NS \t CTIME_NS \t OBSERVED_NS \t LAST_SEEN_DAY \t SHA256 \t HEAD_HEX
 * ...
 * end \t COUNT \t SHA256_OF_EVERYTHING_BEFORE_THIS_LINE
 * }</pre>
 *
 * <p>{@link #decode} accepts exactly this and nothing else: any deviation (a wrong header, a
 * missing or wrong trailer, a truncated file, invalid UTF-8, a field of the wrong type or out of
 * range, a path that is not absolute, has a control character or is longer than {@link
 * #MAX_PATH_BYTES}, a path twice, more than {@link IdentityCache#MAX_ENTRIES} entries) makes the
 * whole file invalid. Entries that cannot be written that way are left out by {@link #encode}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class IdentityCacheCodec {
  /** The first line. */
  public static final String HEADER = "loopx_identity_cache_v1";

  /** The longest path (in UTF-8 bytes) an entry may have. */
  public static final int MAX_PATH_BYTES = 1024;

  /** The largest valid file: every entry at its longest, plus header and trailer. */
  public static final long MAX_BYTES =
      (long) IdentityCache.MAX_ENTRIES * (MAX_PATH_BYTES + 2 * IdentityCache.MAX_HEAD_BYTES + 300)
          + 200;

  private static final int FIELDS = 11;

  private IdentityCacheCodec() {}

  /** Encodes {@code entries} (in the given order), leaving out those with unwritable paths. */
  public static byte[] encode(List<CachedFile> entries) {
    StringBuilder out = new StringBuilder(64 + entries.size() * 200);
    out.append(HEADER).append('\n');
    int count = 0;
    HexFormat hex = HexFormat.of();
    Set<String> seen = new HashSet<>();
    for (CachedFile e : entries) {
      FileStat s = e.stat();
      Optional<Long> modified = FileStat.exactNanos(s.modified());
      Optional<Long> changed = FileStat.exactNanos(s.changed());
      if (!validPath(e.path())
          || modified.isEmpty()
          || changed.isEmpty()
          || !seen.add(e.path())
          || count >= IdentityCache.MAX_ENTRIES) {
        continue;
      }
      out.append(e.path())
          .append('\t')
          .append(s.dev())
          .append('\t')
          .append(s.ino())
          .append('\t')
          .append(s.size())
          .append('\t')
          .append(s.mode())
          .append('\t')
          .append(modified.get())
          .append('\t')
          .append(changed.get())
          .append('\t')
          .append(e.observedAtNanos())
          .append('\t')
          .append(e.lastSeenDay())
          .append('\t')
          .append(e.contentSha256())
          .append('\t')
          .append(hex.formatHex(e.head()))
          .append('\n');
      count++;
    }
    byte[] body = out.toString().getBytes(StandardCharsets.UTF_8);
    String trailer = "end\t" + count + "\t" + hex.formatHex(sha256(body)) + "\n";
    byte[] tail = trailer.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[body.length + tail.length];
    System.arraycopy(body, 0, all, 0, body.length);
    System.arraycopy(tail, 0, all, body.length, tail.length);
    return all;
  }

  /** Decodes a cache file; empty when it is not exactly a valid one. Never throws. */
  public static Optional<List<CachedFile>> decode(byte[] bytes) {
    try {
      return Optional.ofNullable(decodeOrNull(bytes));
    } catch (RuntimeException e) {
      return Optional.empty(); // any value rule broken (e.g. in a record constructor)
    }
  }

  private static @org.jspecify.annotations.Nullable List<CachedFile> decodeOrNull(byte[] bytes) {
    if (bytes.length > MAX_BYTES || bytes.length == 0 || bytes[bytes.length - 1] != '\n') {
      return null;
    }
    // The trailer is the last line; everything before it is hashed.
    int trailerStart = bytes.length - 1;
    while (trailerStart > 0 && bytes[trailerStart - 1] != '\n') {
      trailerStart--;
    }
    if (trailerStart == 0) {
      return null;
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    String[] trailer =
        new String(bytes, trailerStart, bytes.length - 1 - trailerStart, StandardCharsets.UTF_8)
            .split("\t", -1);
    if (trailer.length != 3 || !trailer[0].equals("end") || !FileIdentity.isHex64(trailer[2])) {
      return null;
    }
    byte[] body = new byte[trailerStart];
    System.arraycopy(bytes, 0, body, 0, trailerStart);
    if (!MessageDigest.isEqual(
        HexFormat.of().formatHex(sha256(body)).getBytes(StandardCharsets.US_ASCII),
        trailer[2].getBytes(StandardCharsets.US_ASCII))) {
      return null;
    }
    long count = number(trailer[1], 0, IdentityCache.MAX_ENTRIES);
    String[] lines = text.split("\n", -1);
    // header, entries, trailer, and the empty string after the last newline
    if (lines.length < 3 || !lines[0].equals(HEADER) || lines.length - 3 != count) {
      return null;
    }
    List<CachedFile> entries = new ArrayList<>((int) count);
    Set<String> paths = new HashSet<>();
    for (int i = 1; i <= count; i++) {
      CachedFile entry = entry(lines[i]);
      if (entry == null || !paths.add(entry.path())) {
        return null;
      }
      entries.add(entry);
    }
    return List.copyOf(entries);
  }

  private static @org.jspecify.annotations.Nullable CachedFile entry(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != FIELDS || !validPath(f[0]) || !FileIdentity.isHex64(f[9])) {
      return null;
    }
    String headHex = f[10];
    if (headHex.length() > 2 * IdentityCache.MAX_HEAD_BYTES
        || headHex.length() % 2 != 0
        || !headHex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return null;
    }
    FileStat stat =
        new FileStat(
            number(f[1], Long.MIN_VALUE, Long.MAX_VALUE),
            number(f[2], Long.MIN_VALUE, Long.MAX_VALUE),
            number(f[3], 0, Long.MAX_VALUE),
            (int) number(f[4], 0, 0177777),
            FileTime.from(number(f[5], Long.MIN_VALUE, Long.MAX_VALUE), TimeUnit.NANOSECONDS),
            FileTime.from(number(f[6], Long.MIN_VALUE, Long.MAX_VALUE), TimeUnit.NANOSECONDS));
    return new CachedFile(
        f[0],
        stat,
        number(f[7], Long.MIN_VALUE, Long.MAX_VALUE),
        number(f[8], Long.MIN_VALUE, Long.MAX_VALUE),
        f[9],
        HexFormat.of().parseHex(headHex));
  }

  /**
   * Parses a decimal integer in {@code [min, max]}: an optional {@code -}, then 1 to 19 digits
   * without a leading zero. Throws {@link IllegalArgumentException} otherwise.
   */
  private static long number(String text, long min, long max) {
    int start = text.startsWith("-") ? 1 : 0;
    int digits = text.length() - start;
    if (digits < 1 || digits > 19 || (digits > 1 && text.charAt(start) == '0')) {
      throw new IllegalArgumentException("not a decimal integer");
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("not a decimal integer");
      }
    }
    long value = Long.parseLong(text); // throws when out of the long range
    if (value < min || value > max || (start == 1 && value == 0)) {
      throw new IllegalArgumentException("out of range");
    }
    return value;
  }

  /** An absolute path of at most {@link #MAX_PATH_BYTES} without control characters. */
  static boolean validPath(String path) {
    if (path.isEmpty()
        || path.charAt(0) != '/'
        || path.length() > MAX_PATH_BYTES
        || path.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
      return false;
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029) {
        return false;
      }
    }
    return true;
  }

  private static byte[] sha256(byte[] bytes) {
    return FileScan.sha256().digest(bytes);
  }
}
