package io.loopx.runtime.internal.identity;

import io.loopx.api.InvalidValueException;
import io.loopx.api.json.CanonicalJson;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The content-addressed identity of one file: its executable bit, its size and the SHA-256 of its
 * content. The path, inode, owner and timestamps are deliberately not part of it, so a copy of a
 * file at another path has the same identity and a change of one byte or of the executable bit
 * gives a different one.
 *
 * <p>The identity's {@linkplain #digest() digest} is the 64 lowercase hex characters of the SHA-256
 * of the RFC 8785 canonical JSON of
 *
 * <pre>{@code
 * {"schema_version":"loopx_runtime_entrypoint_identity_v1","kind":"file_artifact",
 *  "executable":BOOL,"size":BYTES,"content_sha256":HEX64}
 * }</pre>
 *
 * <p>{@code executable} is true when the file's POSIX permissions grant execute to its owner, its
 * group or others; on a file system without the POSIX attribute view it is {@link
 * java.nio.file.Files#isExecutable}. Symbolic links are followed: the identity is the target's.
 *
 * <p>Immutable value.
 *
 * @param executable whether an execute permission bit is set
 * @param size the number of content bytes
 * @param contentSha256 the SHA-256 of the content, 64 lowercase hex characters
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record FileIdentity(boolean executable, long size, String contentSha256) {
  /** The {@code schema_version} of the hashed record. */
  public static final String SCHEMA_VERSION = "loopx_runtime_entrypoint_identity_v1";

  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  /** Validates the size and the hex digest. */
  public FileIdentity {
    Objects.requireNonNull(contentSha256, "contentSha256");
    if (size < 0) {
      throw new InvalidValueException("file size", Long.toString(size), "must not be negative");
    }
    if (!HEX64.matcher(contentSha256).matches()) {
      throw new InvalidValueException(
          "content sha256", contentSha256, "must be 64 lowercase hex characters");
    }
  }

  /**
   * Reads and identifies the regular file at {@code file}, streaming its content.
   *
   * @throws io.loopx.api.LoopxException of kind {@code IO_FAILED} naming the file when it is
   *     missing, not a regular file or cannot be read
   */
  public static FileIdentity of(Path file) {
    return FileScan.scan(file, 0).identity();
  }

  /** Returns a new JSON object holding the hashed record (field order is irrelevant). */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("schema_version", SCHEMA_VERSION);
    node.put("kind", "file_artifact");
    node.put("executable", executable);
    node.put("size", size);
    node.put("content_sha256", contentSha256);
    return node;
  }

  /** Returns the 64 lowercase hex SHA-256 of the canonical JSON of {@link #toJson()}. */
  public String digest() {
    return CanonicalJson.sha256Hex(toJson());
  }

  static boolean isHex64(String value) {
    return HEX64.matcher(value).matches();
  }
}
