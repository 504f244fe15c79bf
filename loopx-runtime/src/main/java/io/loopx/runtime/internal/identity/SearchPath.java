package io.loopx.runtime.internal.identity;

import java.io.File;
import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The one PATH of a {@link io.loopx.runtime.Loopx} (docs/threat-model.md, P2): composed once from
 * the host's PATH string, it is both what the resolver searches for a launcher name and for an
 * {@code #!/usr/bin/env NAME} program, and what providers get (after their launcher's directory).
 * Empty and relative entries are dropped, because {@code env} and the shell resolve them against
 * the provider's working directory, where no file was hashed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SearchPath {
  private SearchPath() {}

  /**
   * Returns {@code raw} without its empty entries and entries that are not absolute paths on {@code
   * fileSystem}, the others kept in order (duplicates too) and joined by {@link
   * File#pathSeparator}.
   */
  public static String compose(String raw, FileSystem fileSystem) {
    List<String> kept = new ArrayList<>();
    for (String entry : raw.split(File.pathSeparator, -1)) {
      if (!entry.isEmpty() && isAbsolute(entry, fileSystem)) {
        kept.add(entry);
      }
    }
    return String.join(File.pathSeparator, kept);
  }

  private static boolean isAbsolute(String entry, FileSystem fileSystem) {
    try {
      return fileSystem.getPath(entry).isAbsolute();
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
