package io.loopx.runtime.internal.worker;

import io.loopx.runtime.internal.process.LongLivedProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.ObjIntConsumer;

/**
 * The pipes of one worker process (docs/contract/worker.md#frames): a writer thread that sends the
 * queued frames to its stdin, flushing when none is left, and a reader thread that splits its
 * stdout into lines of at most {@link WorkerFrames#LINE_LIMIT} bytes. What a line means is its
 * {@link Worker}'s: it gets each line, the first bytes of a line over the limit, and the end of
 * either stream. Thread-safe.
 */
final class WorkerStreams {
  private static final byte[] STOP = new byte[0];

  /** The longest prefix of an over-long line handed on (enough for its leading id). */
  private static final int PREFIX = 64;

  /** Takes one complete line. */
  interface Lines {
    /**
     * Takes the line in {@code line[0, length)}, without its line feed; returns false to stop
     * reading (the worker was killed).
     */
    boolean accept(byte[] line, int length);
  }

  private final LongLivedProcess process;
  private final LinkedBlockingQueue<byte[]> outbox = new LinkedBlockingQueue<>();
  private final Lines lines;
  private final ObjIntConsumer<byte[]> tooLong;
  private final Runnable ended;

  /**
   * The pipes of {@code process}: {@code lines} takes each line, {@code tooLong} the first bytes
   * (at most 64, and their count) of a line over the limit, after which reading stops; {@code
   * ended} runs when stdout ends or stdin breaks (the worker ended on its own).
   */
  WorkerStreams(
      LongLivedProcess process, Lines lines, ObjIntConsumer<byte[]> tooLong, Runnable ended) {
    this.process = process;
    this.lines = lines;
    this.tooLong = tooLong;
    this.ended = ended;
  }

  /** Starts the reader thread, then the writer thread. */
  void start() {
    thread("stdout", this::read);
    thread("stdin", this::write);
  }

  /** Queues {@code frame} for the writer thread. */
  void send(byte[] frame) {
    outbox.add(frame);
  }

  /** Ends the writer thread once the frames queued before are written. */
  void stop() {
    outbox.add(STOP);
  }

  private void thread(String stream, Runnable body) {
    Thread t = new Thread(body, "loopx-worker-" + process.pid() + "-" + stream);
    t.setDaemon(true);
    t.start();
  }

  private void write() {
    OutputStream stdin = process.stdin();
    try {
      while (true) {
        byte[] frame = outbox.take();
        if (frame == STOP) {
          return;
        }
        stdin.write(frame);
        if (outbox.isEmpty()) {
          stdin.flush();
        }
      }
    } catch (IOException e) {
      ended.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void read() {
    InputStream stdout = process.stdout();
    byte[] chunk = new byte[65536];
    byte[] line = new byte[8192];
    int length = 0;
    try {
      int n;
      while ((n = stdout.read(chunk)) >= 0) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] != '\n') {
            continue;
          }
          int part = i - from;
          if (length + part > WorkerFrames.LINE_LIMIT) {
            tooLong(line, length, chunk, from, part);
            return;
          }
          line = append(line, length, chunk, from, part);
          length += part;
          if (!lines.accept(line, length)) {
            return;
          }
          length = 0;
          from = i + 1;
        }
        int rest = n - from;
        if (length + rest > WorkerFrames.LINE_LIMIT) {
          tooLong(line, length, chunk, from, rest);
          return;
        }
        line = append(line, length, chunk, from, rest);
        length += rest;
      }
    } catch (IOException e) {
      // Killed or exited: the end of the stream.
    }
    ended.run();
  }

  /** Hands on the first bytes of the line {@code line[0, length)} + {@code chunk[from, +part)}. */
  private void tooLong(byte[] line, int length, byte[] chunk, int from, int part) {
    byte[] prefix =
        length >= PREFIX ? line : append(line, length, chunk, from, Math.min(part, PREFIX));
    tooLong.accept(prefix, Math.min(PREFIX, length + part));
  }

  private static byte[] append(byte[] line, int length, byte[] chunk, int from, int part) {
    byte[] target = line;
    if (length + part > line.length) {
      target = Arrays.copyOf(line, Math.max(length + part, line.length * 2));
    }
    System.arraycopy(chunk, from, target, length, part);
    return target;
  }
}
