package io.loopx.registry;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.spi.BuiltinContribution;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Explicit selection of built-in contributions from a {@link ServiceLoader}. Nothing is admitted
 * because it is merely on the class or module path: the host names what it wants, by id or by
 * class, and gets the contributions back <b>in the order it named them</b> (never the loader's
 * order). Discovery runs once, when the host calls a method here, never during catalog reads.
 *
 * <p>{@link #selectByIds(List)} and {@link #selectByTypes(List)} use {@code
 * ServiceLoader.load(BuiltinContribution.class)} (this module declares the {@code uses}); a host
 * with its own loader (for example over a plug-in class loader) passes it, or its {@code stream()},
 * to the other overloads.
 *
 * <p>Failures ({@link LoopxException}): a selection that repeats a value is {@code INVALID_VALUE};
 * a provider that cannot be listed, instantiated or asked for its id is {@code CONTRIBUTION_FAILED}
 * naming its class (one broken provider fails the selection loudly rather than being skipped); a
 * selected id or class that was not found is {@code CONTRIBUTION_FAILED} naming it; two discovered
 * contributions with the same id are {@code CATALOG_CONFLICT} naming both classes.
 *
 * <p>Stateless and thread-safe; used by hosts. Arguments must not be null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class BuiltinContributions {
  private BuiltinContributions() {}

  /**
   * Selects contributions by {@link BuiltinContribution#id()} from {@code
   * ServiceLoader.load(BuiltinContribution.class)} (the thread context class loader and the module
   * layer); see {@link #selectByIds(ServiceLoader, List)}.
   */
  public static List<BuiltinContribution> selectByIds(List<String> ids) {
    return selectByIds(ServiceLoader.load(BuiltinContribution.class), ids);
  }

  /**
   * Selects contributions by implementation class from {@code
   * ServiceLoader.load(BuiltinContribution.class)}; only the selected providers are instantiated.
   */
  public static List<BuiltinContribution> selectByTypes(
      List<Class<? extends BuiltinContribution>> types) {
    return selectByTypes(ServiceLoader.load(BuiltinContribution.class), types);
  }

  /**
   * Selects contributions by {@link BuiltinContribution#id()} from a loader. Every discovered
   * provider is instantiated to learn its id, so a broken unselected provider also fails the
   * selection; select by class to instantiate only the selected ones.
   */
  public static List<BuiltinContribution> selectByIds(
      ServiceLoader<BuiltinContribution> loader, List<String> ids) {
    return selectByIds(Objects.requireNonNull(loader, "loader").stream(), ids);
  }

  /**
   * Selects contributions by {@link BuiltinContribution#id()} from discovered providers (for
   * example {@code loader.stream()}); returns them in the order of {@code ids}.
   */
  public static List<BuiltinContribution> selectByIds(
      Stream<ServiceLoader.Provider<BuiltinContribution>> discovered, List<String> ids) {
    Set<String> wanted = unique("built-in contribution id selection", ids, s -> s);
    Map<String, BuiltinContribution> byId = new LinkedHashMap<>();
    for (ServiceLoader.Provider<BuiltinContribution> p : list(discovered)) {
      BuiltinContribution c = instantiate(p);
      String id = ContributionAdmission.reportedId(c);
      BuiltinContribution earlier = byId.putIfAbsent(id, c);
      if (earlier != null) {
        throw ContributionAdmission.duplicateId(id, earlier, c);
      }
    }
    List<BuiltinContribution> selected = new ArrayList<>();
    for (String id : wanted) {
      BuiltinContribution c = byId.get(id);
      if (c == null) {
        throw new LoopxException(
            ErrorKind.CONTRIBUTION_FAILED,
            "selected built-in contribution `"
                + id
                + "` was not found; discovered "
                + byId.keySet());
      }
      selected.add(c);
    }
    return List.copyOf(selected);
  }

  /**
   * Selects contributions by implementation class from a loader; only the selected providers are
   * instantiated. Returns them in the order of {@code types}.
   */
  public static List<BuiltinContribution> selectByTypes(
      ServiceLoader<BuiltinContribution> loader, List<Class<? extends BuiltinContribution>> types) {
    return selectByTypes(Objects.requireNonNull(loader, "loader").stream(), types);
  }

  /**
   * Selects contributions by implementation class from discovered providers; only the selected
   * providers are instantiated. Returns them in the order of {@code types}.
   */
  public static List<BuiltinContribution> selectByTypes(
      Stream<ServiceLoader.Provider<BuiltinContribution>> discovered,
      List<Class<? extends BuiltinContribution>> types) {
    Set<Class<? extends BuiltinContribution>> wanted =
        unique("built-in contribution class selection", types, Class::getName);
    Map<Class<?>, ServiceLoader.Provider<BuiltinContribution>> byType = new LinkedHashMap<>();
    for (ServiceLoader.Provider<BuiltinContribution> p : list(discovered)) {
      byType.putIfAbsent(p.type(), p);
    }
    List<BuiltinContribution> selected = new ArrayList<>();
    for (Class<? extends BuiltinContribution> type : wanted) {
      ServiceLoader.Provider<BuiltinContribution> p = byType.get(type);
      if (p == null) {
        throw new LoopxException(
            ErrorKind.CONTRIBUTION_FAILED,
            "selected built-in contribution class " + type.getName() + " was not found");
      }
      selected.add(instantiate(p));
    }
    return List.copyOf(selected);
  }

  private static <T> Set<T> unique(
      String what, List<T> values, java.util.function.Function<T, String> name) {
    Set<T> set = new LinkedHashSet<>();
    for (T v : List.copyOf(values)) {
      if (!set.add(v)) {
        throw new InvalidValueException(what, name.apply(v), "must not repeat");
      }
    }
    return set;
  }

  private static List<ServiceLoader.Provider<BuiltinContribution>> list(
      Stream<ServiceLoader.Provider<BuiltinContribution>> discovered) {
    Objects.requireNonNull(discovered, "discovered");
    List<ServiceLoader.Provider<BuiltinContribution>> all = new ArrayList<>();
    Iterator<ServiceLoader.Provider<BuiltinContribution>> it = discovered.iterator();
    try {
      while (it.hasNext()) {
        all.add(Objects.requireNonNull(it.next(), "discovered provider"));
      }
    } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
      throw Conflicts.contributionFailed(
          "built-in contribution discovery failed after "
              + all.size()
              + " provider(s): "
              + Conflicts.describe(e),
          e);
    }
    return all;
  }

  private static BuiltinContribution instantiate(ServiceLoader.Provider<BuiltinContribution> p) {
    String type = p.type().getName();
    try {
      return Objects.requireNonNull(p.get(), "provider returned null");
    } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
      throw Conflicts.contributionFailed(
          "built-in contribution provider "
              + type
              + " could not be instantiated: "
              + Conflicts.describe(e),
          e);
    }
  }
}
