package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Drains one output pipe until end of file, keeping at most {@code limit + 1} bytes. The first time
 * the stream crosses its limit it calls {@code onCrossed}; it then keeps reading and discarding, so
 * the writer never blocks on a full pipe while it is being terminated. Runs as a runner task; the
 * accessors are thread-safe.
 */
final class StreamDrain implements Runnable {
  private static final int CHUNK = 8192;

  private final InputStream in;
  private final int keep;
  private final Runnable onCrossed;
  private byte[] kept;
  private int size;
  private boolean crossed;

  StreamDrain(InputStream in, int limit, Runnable onCrossed) {
    this.in = in;
    this.keep = limit + 1;
    this.onCrossed = onCrossed;
    this.kept = new byte[Math.min(keep, CHUNK)];
  }

  @Override
  public void run() {
    byte[] chunk = new byte[CHUNK];
    try {
      int n;
      while ((n = in.read(chunk)) != -1) {
        if (append(chunk, n)) {
          onCrossed.run();
        }
      }
    } catch (IOException e) {
      // The pipe was closed under us (the run is over): what was read so far is the result.
    }
  }

  /** Appends; returns true exactly once, when this call made the stream cross its limit. */
  private synchronized boolean append(byte[] chunk, int n) {
    int take = Math.min(n, keep - size);
    if (take > 0) {
      if (size + take > kept.length) {
        long grown = Math.max((long) kept.length * 2, (long) size + take);
        kept = Arrays.copyOf(kept, (int) Math.min(grown, keep));
      }
      System.arraycopy(chunk, 0, kept, size, take);
      size += take;
    }
    if (!crossed && size == keep) {
      crossed = true;
      return true;
    }
    return false;
  }

  /** Returns whether more than the limit arrived. */
  synchronized boolean crossed() {
    return crossed;
  }

  /** Returns a copy of the kept bytes (at most the limit plus one). */
  synchronized byte[] bytes() {
    return Arrays.copyOf(kept, size);
  }
}
