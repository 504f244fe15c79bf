package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link ManifestLoader#readAtMost} reads what {@code readNBytes(limit)} would, whatever size the
 * file had when it was checked.
 */
class ManifestReadTest {

  /** Hands out at most {@code chunk} bytes per read, like a slow file or pipe. */
  private static InputStream chunked(byte[] data, int chunk) {
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }
    };
  }

  @Test
  void readsLikeReadNBytesForAnyExpectedSize() throws IOException {
    int limit = 64;
    for (int size : new int[] {0, 1, 5, 63, 64, 65, 200}) {
      byte[] data = new byte[size];
      Arrays.fill(data, (byte) 'x');
      byte[] expected = new ByteArrayInputStream(data).readNBytes(limit);
      for (long hint : new long[] {0, 1, size - 1L, size, size + 1L, 10_000, -1}) {
        for (int chunk : new int[] {1, 3, 1000}) {
          assertThat(ManifestLoader.readAtMost(chunked(data, chunk), limit, hint))
              .as("size %d, expected %d, chunk %d", size, hint, chunk)
              .isEqualTo(expected);
        }
      }
    }
  }
}
