package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cache file format accepts exactly valid files; anything else is ignored, never trusted. */
class IdentityCacheCodecTest {
  private static final String SHA = "ab".repeat(32);

  static CachedFile entry(String path) {
    FileStat stat =
        new FileStat(
            2049,
            1234,
            5,
            0100755,
            FileTime.from(1_700_000_000_123_456_789L, TimeUnit.NANOSECONDS),
            FileTime.from(1_700_000_000_223_456_789L, TimeUnit.NANOSECONDS));
    return new CachedFile(
        path, stat, 1_700_000_100_000_000_000L, 19_676, SHA, new byte[] {'#', '!'});
  }

  private static String text(List<CachedFile> entries) {
    return new String(IdentityCacheCodec.encode(entries), StandardCharsets.UTF_8);
  }

  /** Re-signs a hand-edited body so that only the edit itself can make it invalid. */
  private static byte[] signed(String body, int count) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    String digest = java.util.HexFormat.of().formatHex(FileScan.sha256().digest(b));
    return (body + "end\t" + count + "\t" + digest + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static String body(List<CachedFile> entries) {
    String t = text(entries);
    return t.substring(0, t.lastIndexOf("end\t"));
  }

  @Test
  void roundTrips() {
    List<CachedFile> entries = List.of(entry("/usr/bin/python3"), entry("/opt/ext/bin/run"));

    assertThat(IdentityCacheCodec.decode(IdentityCacheCodec.encode(entries))).contains(entries);
    assertThat(IdentityCacheCodec.decode(IdentityCacheCodec.encode(List.of()))).contains(List.of());
  }

  @Test
  void everyTruncationAndEveryFlippedByteIsRefused() {
    byte[] valid = IdentityCacheCodec.encode(List.of(entry("/a"), entry("/b")));
    for (int n = 0; n < valid.length; n++) {
      assertThat(IdentityCacheCodec.decode(Arrays.copyOf(valid, n))).as("prefix %d", n).isEmpty();
    }
    for (int i = 0; i < valid.length; i++) {
      byte[] flipped = valid.clone();
      flipped[i] ^= 0x01;
      assertThat(IdentityCacheCodec.decode(flipped)).as("flip %d", i).isEmpty();
    }
  }

  @Test
  void hostileContentIsRefusedEvenWhenItsChecksumIsRight() {
    String good = body(List.of(entry("/a")));
    List<byte[]> hostile = new ArrayList<>();
    hostile.add(signed(good.replace("loopx_identity_cache_v1", "loopx_identity_cache_v2"), 1));
    hostile.add(signed(good, 2)); // count larger than the entries
    hostile.add(signed(good, 0));
    hostile.add(signed(good, Integer.MAX_VALUE));
    hostile.add(signed(good.replace("\t1234\t", "\tabc\t"), 1)); // wrong type
    hostile.add(signed(good.replace("\t1234\t", "\t01234\t"), 1));
    hostile.add(signed(good.replace("\t1234\t", "\t99999999999999999999\t"), 1));
    hostile.add(signed(good.replace("\t5\t", "\t-5\t"), 1)); // negative size
    hostile.add(signed(good.replace("\t5\t", "\t1\t"), 1)); // head longer than the file
    hostile.add(signed(good.replace("/a\t", "a\t"), 1)); // relative path
    hostile.add(signed(good.replace("/a\t", "/a\u0007b\t"), 1)); // control character
    hostile.add(signed(good.replace("/a\t", "/a\u009bb\t"), 1)); // C1 control
    hostile.add(signed(good.replace("/a\t", "/" + "x".repeat(2000) + "\t"), 1)); // too long
    hostile.add(signed(good.replace(SHA, SHA.toUpperCase(java.util.Locale.ROOT)), 1));
    hostile.add(signed(good.replace("\t2321\n", "\t232\n"), 1)); // odd head hex
    hostile.add(signed(good.replace("\t2321\n", "\t2321\textra\n"), 1)); // extra field
    hostile.add(signed(good + good.substring(good.indexOf('\n') + 1), 2)); // a path twice
    byte[] invalidUtf8 = signed(good.replace("/a\t", "/a\u00e9\t"), 1);
    for (int i = 0; i < invalidUtf8.length - 1; i++) {
      if ((invalidUtf8[i] & 0xff) == 0xc3) {
        invalidUtf8[i + 1] = (byte) 0x28; // a broken two-byte sequence
      }
    }
    hostile.add(invalidUtf8);
    for (byte[] h : hostile) {
      assertThat(IdentityCacheCodec.decode(h))
          .as(new String(h, StandardCharsets.UTF_8).lines().skip(1).findFirst().orElse(""))
          .isEmpty();
    }
    assertThat(IdentityCacheCodec.decode(signed(good, 1))).isPresent(); // the control case
  }

  @Test
  void anOversizedFileIsRefusedWithoutBeingParsed() {
    byte[] huge = new byte[(int) IdentityCacheCodec.MAX_BYTES + 1];
    Arrays.fill(huge, (byte) '\n');

    assertThat(IdentityCacheCodec.decode(huge)).isEmpty();
  }

  @Test
  void unwritablePathsAreLeftOutAndTheCountIsBounded() {
    List<CachedFile> entries = new ArrayList<>();
    entries.add(entry("/ok"));
    entries.add(entry("/new\nline"));
    entries.add(entry("/tab\there"));
    entries.add(entry("relative"));
    for (int i = 0; i < IdentityCache.MAX_ENTRIES + 5; i++) {
      entries.add(entry("/f" + i));
    }

    List<CachedFile> back =
        IdentityCacheCodec.decode(IdentityCacheCodec.encode(entries)).orElseThrow();

    assertThat(back).hasSize(IdentityCache.MAX_ENTRIES);
    assertThat(back.get(0).path()).isEqualTo("/ok");
    assertThat(back).extracting(CachedFile::path).doesNotContain("/new\nline", "/tab\there");
  }
}
