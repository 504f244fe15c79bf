package io.loopx.runtime;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Arguments;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * Which variables of the host environment a provider and its doctor probe inherit.
 *
 * <p>The default, {@link #inheritAll()}, is the contract of docs/contract/run.md: every variable of
 * the host environment (so also secrets such as {@code AWS_SECRET_ACCESS_KEY}). A host that does
 * not want to hand its secrets to extension code chooses {@link #allowList(String...)}: only {@link
 * #ALWAYS_ALLOWED}, every {@code LC_*} variable and the named variables pass. Either way LoopX then
 * sets {@code PATH} (the one composed PATH) and the {@code LOOPX_*} variables.
 *
 * <p>Immutable; set with {@link Loopx.Builder#providerEnvironment}.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ProviderEnvironment {

  /** The variables an allow-list always passes, besides every {@code LC_*} variable. */
  public static final List<String> ALWAYS_ALLOWED = List.of("PATH", "HOME", "LANG", "TZ", "TMPDIR");

  private static final ProviderEnvironment INHERIT_ALL = new ProviderEnvironment(Optional.empty());

  /** The extra names an allow-list passes; empty for inherit-all. */
  private final Optional<Set<String>> allowed;

  private ProviderEnvironment(Optional<Set<String>> allowed) {
    this.allowed = allowed;
  }

  /** Returns the policy that passes the whole host environment (the default). */
  public static ProviderEnvironment inheritAll() {
    return INHERIT_ALL;
  }

  /**
   * Returns the policy that passes {@link #ALWAYS_ALLOWED}, {@code LC_*} and {@code names} only.
   *
   * @throws InvalidValueException when a name is missing, empty or contains {@code =} or NUL
   */
  public static ProviderEnvironment allowList(String... names) {
    Set<String> copy = new TreeSet<>();
    for (String name : Arguments.required("environment variable names", names)) {
      Arguments.required("environment variable name", name);
      if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
        throw new InvalidValueException(
            "environment variable name", name, "must be non-empty without `=` or NUL");
      }
      copy.add(name);
    }
    return new ProviderEnvironment(Optional.of(Set.copyOf(copy)));
  }

  /** Returns the variables of {@code host} this policy passes, in {@code host}'s order. */
  public Map<String, String> filter(Map<String, String> host) {
    if (allowed.isEmpty()) {
      return host;
    }
    Set<String> names = allowed.get();
    Map<String, String> kept = new LinkedHashMap<>();
    host.forEach(
        (name, value) -> {
          if (ALWAYS_ALLOWED.contains(name) || name.startsWith("LC_") || names.contains(name)) {
            kept.put(name, value);
          }
        });
    return kept;
  }
}
