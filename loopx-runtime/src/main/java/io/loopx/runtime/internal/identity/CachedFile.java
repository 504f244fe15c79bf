package io.loopx.runtime.internal.identity;

import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One entry of the {@link IdentityCache}: what {@code stat} said about a file when its content was
 * hashed, and the identity and first bytes that hash produced. Immutable.
 *
 * @param path the absolute path as looked up (links not resolved)
 * @param stat the file's attributes, taken after the hash and equal to those taken before it
 * @param observedAtNanos the wall-clock time, in nanoseconds since the epoch, read before the file
 *     was first examined; the entry exists only if the file's modification and change times are
 *     older than this minus {@link IdentityCache#RACY_MARGIN}
 * @param lastSeenDay the epoch day the entry was last used (for the size bound)
 * @param contentSha256 the SHA-256 of the content, 64 lowercase hex characters
 * @param head the first {@code min(size, requested)} bytes
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CachedFile(
    String path,
    FileStat stat,
    long observedAtNanos,
    long lastSeenDay,
    String contentSha256,
    byte[] head) {
  /** Checks the values and copies the head. */
  public CachedFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(stat, "stat");
    Objects.requireNonNull(contentSha256, "contentSha256");
    head = head.clone();
    if (!FileIdentity.isHex64(contentSha256)) {
      throw new IllegalArgumentException("content sha256 must be 64 lowercase hex characters");
    }
    if (head.length > stat.size() || head.length > IdentityCache.MAX_HEAD_BYTES) {
      throw new IllegalArgumentException("head longer than the file or the head limit");
    }
  }

  /** The file identity this entry stands for. */
  public FileIdentity identity() {
    return new FileIdentity(stat.executable(), stat.size(), contentSha256);
  }

  /** Whether this entry can answer a request for {@code headBytes} first bytes. */
  boolean serves(int headBytes) {
    return head.length >= Math.min(stat.size(), (long) headBytes);
  }

  /** The first {@code min(size, headBytes)} bytes. */
  byte[] head(int headBytes) {
    return Arrays.copyOf(head, (int) Math.min(head.length, (long) headBytes));
  }

  /** The same entry, last seen on {@code day}. */
  CachedFile seenOn(long day) {
    return new CachedFile(path, stat, observedAtNanos, day, contentSha256, head);
  }

  @Override
  public byte[] head() {
    return head.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CachedFile c
        && path.equals(c.path)
        && stat.equals(c.stat)
        && observedAtNanos == c.observedAtNanos
        && lastSeenDay == c.lastSeenDay
        && contentSha256.equals(c.contentSha256)
        && Arrays.equals(head, c.head);
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, stat, observedAtNanos, lastSeenDay, contentSha256)
        + 31 * Arrays.hashCode(head);
  }

  @Override
  public String toString() {
    return "CachedFile[" + path + ", " + stat + ", " + contentSha256 + "]";
  }
}
