package io.loopx.buildchecks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@code @API} policy of the library modules (docs/BUILD.md): every public top-level type of an
 * exported package carries apiguardian's {@code @API} with a {@code since} version; nested types
 * inherit the enclosing type's status unless they declare their own. Types of packages exported
 * only {@code to} other LoopX modules are {@code INTERNAL}; types of packages exported to everyone
 * are not.
 */
final class ApiStatus {
  private ApiStatus() {}

  /**
   * Returns one problem line per type of {@code types} that breaks the policy, in the given order.
   *
   * @param qualified whether the types' package is exported only {@code to} named modules
   */
  static List<String> problems(List<Class<?>> types, boolean qualified) {
    List<String> problems = new ArrayList<>();
    for (Class<?> type : types) {
      if (!ApiSignatures.isApiType(type)) {
        continue;
      }
      String name = ApiSignatures.canonicalName(type);
      Optional<API> api =
          type.isMemberClass()
              ? ApiSignatures.apiOf(type)
              : Optional.ofNullable(type.getDeclaredAnnotation(API.class));
      if (api.isEmpty()) {
        problems.add(name + ": no @API(status = ..., since = ...)");
        continue;
      }
      if (api.get().since().isEmpty()) {
        problems.add(name + ": @API without a since version");
      }
      boolean internal = api.get().status() == API.Status.INTERNAL;
      if (qualified && !internal) {
        problems.add(
            name + ": in a package exported only to LoopX modules, but " + api.get().status());
      } else if (!qualified && internal) {
        problems.add(name + ": INTERNAL, but its package is exported to everyone");
      }
    }
    return List.copyOf(problems);
  }

  /** Returns the problems of every exported package (qualified or not) of a library module. */
  static List<String> problems(LibraryModule module) {
    List<String> problems = new ArrayList<>();
    for (String pkg : module.exportedPackages()) {
      problems.addAll(problems(typesIn(module, pkg), false));
    }
    for (String pkg : module.qualifiedExportedPackages()) {
      problems.addAll(problems(typesIn(module, pkg), true));
    }
    return List.copyOf(problems);
  }

  private static List<Class<?>> typesIn(LibraryModule module, String pkg) {
    List<Class<?>> types = new ArrayList<>();
    for (String name : module.classNamesIn(pkg)) {
      types.add(ApiSignatures.load(name));
    }
    return types;
  }
}
