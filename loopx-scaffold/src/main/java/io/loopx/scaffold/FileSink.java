package io.loopx.scaffold;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes one new starter file (package-private seam: tests inject failures through it).
 * Implementations must create the file exclusively and never overwrite one.
 */
@FunctionalInterface
interface FileSink {

  /** Writes {@code content} to the new file {@code file}, mode 0755 when {@code executable}. */
  void write(Path file, byte[] content, boolean executable) throws IOException;

  /**
   * The production sink: {@code CREATE_NEW}, then {@code rwxr-xr-x} for an executable on a file
   * system with POSIX permissions (other files keep the process's default mode).
   */
  FileSink FILES =
      (file, content, executable) -> {
        Files.write(file, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        if (executable) {
          PosixFileAttributeView view =
              Files.getFileAttributeView(file, PosixFileAttributeView.class);
          if (view != null) {
            view.setPermissions(PosixFilePermissions.fromString("rwxr-xr-x"));
          }
        }
      };
}
