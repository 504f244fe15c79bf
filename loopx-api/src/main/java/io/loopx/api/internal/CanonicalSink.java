package io.loopx.api.internal;

import java.security.MessageDigest;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A byte buffer that either grows (kept output) or, when a digest is given, feeds the digest
 * whenever it fills and starts over.
 */
final class CanonicalSink {
  /** Bytes of the streaming buffer: a few SHA-256 blocks per update. */
  static final int STREAM_BUFFER = 4096;

  private final @Nullable MessageDigest sha;
  byte[] bytes;
  int size;

  CanonicalSink(@Nullable MessageDigest sha) {
    this.sha = sha;
    // A digesting sink too starts small (most requests and records are short): it grows to the
    // streaming buffer the first time it fills.
    this.bytes = new byte[256];
  }

  /** Makes room for {@code extra} more bytes. */
  void room(int extra) {
    if (size + extra <= bytes.length) {
      return;
    }
    if (sha != null && bytes.length < STREAM_BUFFER) {
      bytes = Arrays.copyOf(bytes, STREAM_BUFFER);
      if (size + extra <= bytes.length) {
        return;
      }
    }
    if (sha != null && extra <= bytes.length) {
      sha.update(bytes, 0, size);
      size = 0;
      return;
    }
    int needed = size + extra;
    if (needed < 0) {
      throw new OutOfMemoryError("canonical JSON larger than 2 GiB");
    }
    bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
  }

  byte[] digest() {
    if (sha == null) {
      throw new IllegalStateException("not a digesting sink");
    }
    sha.update(bytes, 0, size);
    size = 0;
    return sha.digest();
  }

  void put(char ascii) {
    if (size == bytes.length) {
      room(1);
    }
    bytes[size++] = (byte) ascii;
  }

  void put(byte[] ascii) {
    room(ascii.length);
    System.arraycopy(ascii, 0, bytes, size, ascii.length);
    size += ascii.length;
  }

  void put(byte[] source, int offset, int length) {
    room(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  void putAscii(String ascii) {
    int length = ascii.length();
    room(length);
    for (int i = 0; i < length; i++) {
      bytes[size++] = (byte) ascii.charAt(i);
    }
  }

  /**
   * Writes the decimal digits of {@code v}, as {@link Long#toString(long)} does; |v| &lt;= 2^53.
   */
  void putLong(long v) {
    room(20);
    if (v == 0) {
      bytes[size++] = '0';
      return;
    }
    if (v < 0) {
      bytes[size++] = '-';
      v = -v; // |v| <= 2^53 here, so no overflow
    }
    size = Es6Numbers.digits(v, Es6Numbers.digitCount(v), bytes, size);
  }
}
