package io.loopx.runtime.internal.manifest;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.RuntimeAccess;
import io.loopx.runtime.internal.isolation.IsolationBind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * The host's access roots ({@code Loopx.Builder.accessRoot}): each lower-kebab name a manifest's
 * {@code runtime.access} may name ({@code read:<root>}, {@code write:<root>}), mapped to a real,
 * absolute host directory (docs/access.md). {@link #resolve} turns a declaration into the binds of
 * an isolated launch, or the typed refusal of a root the host does not map. Immutable.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class AccessRoots {
  /** No root mapped (the default). */
  public static final AccessRoots NONE = new AccessRoots(new TreeMap<>());

  /** The prefix of the variable that names a root's directory to the provider. */
  public static final String VARIABLE_PREFIX = "LOOPX_ACCESS_";

  private final SortedMap<String, Path> roots;

  private AccessRoots(SortedMap<String, Path> roots) {
    this.roots = Collections.unmodifiableSortedMap(roots);
  }

  /**
   * Checks one host mapping as the builder receives it: the name is an access root ({@link
   * ManifestValues#accessRoot}) and the directory an absolute path.
   *
   * @throws InvalidValueException naming the broken rule
   */
  public static void checkMapping(String name, Path directory) {
    Objects.requireNonNull(name, "access root name");
    Objects.requireNonNull(directory, "access root directory");
    Optional<String> problem = ManifestValues.accessRoot(name);
    if (problem.isPresent()) {
      throw new InvalidValueException("access root name", name, problem.get());
    }
    if (!directory.isAbsolute()) {
      throw new InvalidValueException(
          "access root `" + name + "` directory", directory.toString(), "must be absolute");
    }
  }

  /**
   * Returns the host's roots, checked when the facade is built: every mapping passes {@link
   * #checkMapping}, every directory exists as a directory (followed to its real path, which is what
   * is bound), and none is, holds or lies inside {@code stateDirectory} (the activation state, the
   * doctor proofs and the identity cache are never a provider's to touch).
   *
   * @param stateDirectory the directory of a file state, when the state is kept in a file
   * @throws InvalidValueException naming the root and the broken rule
   */
  public static AccessRoots mapped(Map<String, Path> mapping, Optional<Path> stateDirectory) {
    if (mapping.isEmpty()) {
      return NONE;
    }
    Optional<Path> state = stateDirectory.map(AccessRoots::real);
    SortedMap<String, Path> roots = new TreeMap<>();
    for (Map.Entry<String, Path> e : mapping.entrySet()) {
      String name = e.getKey();
      checkMapping(name, e.getValue());
      String what = "access root `" + name + "` directory";
      if (!Files.isDirectory(e.getValue())) {
        throw new InvalidValueException(
            what, e.getValue().toString(), "must be an existing directory");
      }
      Path directory = real(e.getValue());
      if (state.isPresent()
          && (directory.startsWith(state.get()) || state.get().startsWith(directory))) {
        throw new InvalidValueException(
            what,
            directory.toString(),
            "must not be, hold or lie inside the activation state's directory `"
                + state.get()
                + "`");
      }
      roots.put(name, directory);
    }
    return new AccessRoots(roots);
  }

  /** Returns the mapped roots: name to real absolute directory, sorted by name. */
  public SortedMap<String, Path> roots() {
    return roots;
  }

  /**
   * Returns the roots {@code access} declares that this host does not map, sorted; empty when every
   * declared root is mapped.
   */
  public SortedSet<String> unknown(RuntimeAccess access) {
    SortedSet<String> unknown = new TreeSet<>();
    for (String root : access.roots()) {
      if (!roots.containsKey(root)) {
        unknown.add(root);
      }
    }
    return Collections.unmodifiableSortedSet(unknown);
  }

  /**
   * Resolves a manifest's declaration against the host's roots: {@link Granted} with the network
   * flag, one bind per distinct directory (read-only for {@code read:}, writable for {@code
   * write:}; a directory mapped under two declared names is writable when either is written),
   * ordered by host path so that a directory comes before those inside it, and the variables that
   * name each declared root's directory; or {@link UnknownRoots} when a declared root is not
   * mapped. {@link RuntimeAccess#NONE} grants nothing.
   */
  public Resolution resolve(RuntimeAccess access) {
    SortedSet<String> unknown = unknown(access);
    if (!unknown.isEmpty()) {
      return new UnknownRoots(unknown);
    }
    SortedMap<Path, Boolean> binds = new TreeMap<>();
    Map<String, String> environment = new LinkedHashMap<>();
    for (String root : access.roots()) {
      Path directory = Objects.requireNonNull(roots.get(root), root);
      boolean writable = access.writeRoots().contains(root);
      binds.merge(directory, writable, Boolean::logicalOr);
      environment.put(variable(root), directory.toString());
    }
    List<IsolationBind> list = new ArrayList<>();
    binds.forEach((path, writable) -> list.add(new IsolationBind(path, writable)));
    return new Granted(access.network(), list, environment);
  }

  /**
   * Returns the variable that names root {@code root}'s directory to the provider: {@value
   * #VARIABLE_PREFIX} and the name upper-cased with {@code -} as {@code _} ({@code model-cache}:
   * {@code LOOPX_ACCESS_MODEL_CACHE}). One-to-one, since a root name holds no {@code _}.
   */
  public static String variable(String root) {
    return VARIABLE_PREFIX + root.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  private static Path real(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      return absolute; // a state directory not made yet: compared as written
    }
  }

  /** What a declaration resolves to on this host. */
  public sealed interface Resolution permits Granted, UnknownRoots {}

  /**
   * Every declared root is mapped.
   *
   * @param network whether the provider keeps the network
   * @param binds the host directories to bind at their own paths, parents first
   * @param environment {@code LOOPX_ACCESS_<ROOT>} for each declared root: its directory
   */
  public record Granted(boolean network, List<IsolationBind> binds, Map<String, String> environment)
      implements Resolution {
    /** Copies. */
    public Granted {
      binds = List.copyOf(binds);
      environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }
  }

  /**
   * A declared root the host does not map ({@code access_root_unknown}).
   *
   * @param roots the unmapped roots, sorted
   */
  public record UnknownRoots(SortedSet<String> roots) implements Resolution {
    /** Copies. */
    public UnknownRoots {
      roots = Collections.unmodifiableSortedSet(new TreeSet<>(roots));
    }

    /** Returns the message naming the extension and the unmapped roots. */
    public String message(ExtensionId id) {
      return "extension `"
          + id
          + "` declares access to "
          + (roots.size() == 1 ? "root " : "roots ")
          + roots
          + " that this host does not map (Loopx.Builder.accessRoot)";
    }
  }
}
