package io.loopx.runtime.internal.identity;

import java.util.Objects;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the doctor looked up, and where, when it reports {@code entrypoint_missing} (the packet's
 * {@code entrypoint_lookup}).
 *
 * @param name what was looked up as written: the manifest's {@code entrypoint}, the interpreter or
 *     program of a {@code #!} line, the saved launcher path, the {@code java} executable or a
 *     {@code java_main} class name
 * @param searchPath where: the PATH for a bare program name, the package directory for a relative
 *     entrypoint, the code path for a class; empty when {@code name} is an absolute path used as is
 */
public record EntrypointLookup(String name, String searchPath) {

  /** Rejects nulls. */
  public EntrypointLookup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(searchPath, "searchPath");
  }

  /** Returns an absolute {@code path} used as is: nothing was searched. */
  public static EntrypointLookup ofPath(String path) {
    return new EntrypointLookup(path, "");
  }

  /** Returns {@code {"name", "search_path"}}. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("name", name);
    o.put("search_path", searchPath);
    return o;
  }
}
