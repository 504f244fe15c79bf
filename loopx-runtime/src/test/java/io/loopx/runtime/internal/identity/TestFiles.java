package io.loopx.runtime.internal.identity;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Small file fixtures shared by the identity tests. */
final class TestFiles {
  private TestFiles() {}

  /** A fresh in-memory Unix file system with the POSIX attribute view. */
  static FileSystem unixFs() {
    return Jimfs.newFileSystem(
        Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
  }

  static Path write(Path file, String content, boolean executable) {
    return write(file, content.getBytes(StandardCharsets.UTF_8), executable);
  }

  static Path write(Path file, byte[] content, boolean executable) {
    try {
      Path parent = file.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.write(file, content);
      Files.setPosixFilePermissions(
          file, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String sha256Hex(String text) {
    return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The file identity digest computed independently of the production code, by hand. */
  static String expectedFileIdentity(byte[] content, boolean executable) {
    return sha256Hex(
        "{\"content_sha256\":\""
            + sha256Hex(content)
            + "\",\"executable\":"
            + executable
            + ",\"kind\":\"file_artifact\","
            + "\"schema_version\":\"loopx_runtime_entrypoint_identity_v1\",\"size\":"
            + content.length
            + "}");
  }
}
