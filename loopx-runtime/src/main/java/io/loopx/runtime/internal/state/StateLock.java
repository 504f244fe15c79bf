package io.loopx.runtime.internal.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The exclusive lock of a state file: an in-JVM lock keyed by path (an OS file lock is per process)
 * plus an OS advisory lock ({@link FileChannel#tryLock()}, fcntl on Linux) on {@code <state>.lock},
 * polled with backoff until a deadline (package-private).
 */
final class StateLock implements AutoCloseable {
  private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

  private final ReentrantLock jvmLock;
  private final FileChannel channel;
  private final FileLock osLock;

  private StateLock(ReentrantLock jvmLock, FileChannel channel, FileLock osLock) {
    this.jvmLock = jvmLock;
    this.channel = channel;
    this.osLock = osLock;
  }

  /** As {@link #acquire(Path, Duration, PrivatePaths)} with the rule of the lock's file system. */
  static StateLock acquire(Path lockFile, Duration timeout) {
    return acquire(lockFile, timeout, PrivatePaths.of(lockFile.getFileSystem()));
  }

  /**
   * Takes the lock on {@code lockFile}, creating it with mode 0600; an existing or just opened lock
   * file that {@code rule} refuses is {@code STATE_UNREADABLE}.
   */
  static StateLock acquire(Path lockFile, Duration timeout, PrivatePaths rule) {
    long deadline = System.nanoTime() + timeout.toNanos();
    ReentrantLock jvmLock =
        IN_JVM.computeIfAbsent(lockFile.toAbsolutePath().normalize(), p -> new ReentrantLock());
    try {
      if (!jvmLock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw locked();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LoopxException(ErrorKind.STATE_LOCKED, "interrupted waiting for the state lock", e);
    }
    FileChannel channel = null;
    try {
      rule.fileOrAbsent(lockFile);
      channel =
          FileChannel.open(
              lockFile,
              java.util.Set.of(
                  StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
              StateFiles.privateFileAttributes(lockFile));
      rule.fileOrAbsent(lockFile); // what was opened, had it been swapped in meanwhile
      long backoffMillis = 2;
      while (true) {
        FileLock lock = tryLock(channel);
        if (lock != null) {
          return new StateLock(jvmLock, channel, lock);
        }
        if (System.nanoTime() >= deadline) {
          throw locked();
        }
        // Backoff between polls of the OS lock; there is no timed fcntl lock in Java.
        Thread.sleep(Math.min(backoffMillis, remainingMillis(deadline)));
        backoffMillis = Math.min(backoffMillis * 2, 50);
      }
    } catch (IOException e) {
      closeQuietly(channel);
      jvmLock.unlock();
      throw new LoopxException(
          ErrorKind.IO_FAILED, "cannot open the state lock file " + lockFile + ": " + e, e);
    } catch (InterruptedException e) {
      closeQuietly(channel);
      jvmLock.unlock();
      Thread.currentThread().interrupt();
      throw new LoopxException(ErrorKind.STATE_LOCKED, "interrupted waiting for the state lock", e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      jvmLock.unlock();
      throw e;
    }
  }

  private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      // Held through another channel of this JVM; the in-JVM lock normally prevents this.
      return null;
    }
  }

  private static long remainingMillis(long deadline) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }

  private static LoopxException locked() {
    return new LoopxException(
        ErrorKind.STATE_LOCKED, "extension runtime state is locked by another process");
  }

  private static void closeQuietly(@Nullable FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // best effort while failing
      }
    }
  }

  @Override
  public void close() {
    try {
      osLock.release();
    } catch (IOException ignored) {
      // closing the channel below releases the lock as well
    } finally {
      closeQuietly(channel);
      jvmLock.unlock();
    }
  }
}
