package io.loopx.runtime.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What is under some directories (package-private): each path with its type, size and modification
 * time, links not followed; {@link #changesTo} lists what was created, changed or removed.
 */
final class TreeSnapshot {
  private final Map<String, String> entries;

  private TreeSnapshot(Map<String, String> entries) {
    this.entries = entries;
  }

  /** Takes a snapshot of everything under {@code roots} (the roots themselves excluded). */
  static TreeSnapshot of(Path... roots) {
    Map<String, String> entries = new TreeMap<>();
    for (Path root : roots) {
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path p : (Iterable<Path>) walk::iterator) {
          if (p.equals(root)) {
            continue;
          }
          BasicFileAttributes a =
              Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          String kind = a.isDirectory() ? "dir" : a.isSymbolicLink() ? "link" : "file";
          entries.put(
              root.getFileName() + "/" + root.relativize(p),
              kind + " " + a.size() + " " + a.lastModifiedTime().toMillis());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list the scratch directory " + root, e);
      }
    }
    return new TreeSnapshot(entries);
  }

  /** Returns each path created, changed or removed from this snapshot to {@code later}. */
  List<String> changesTo(TreeSnapshot later) {
    List<String> changes = new ArrayList<>();
    entries.forEach(
        (path, what) -> {
          String now = later.entries.get(path);
          if (now == null) {
            changes.add("removed " + path);
          } else if (!now.equals(what)) {
            changes.add("changed " + path);
          }
        });
    later.entries.keySet().stream()
        .filter(path -> !entries.containsKey(path))
        .forEach(path -> changes.add("created " + path));
    return changes;
  }
}
