package io.loopx.runtime;

import io.loopx.api.InvalidValueException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * <p>Immutable values; set with {@link Loopx.Builder#providerEnvironment}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public sealed interface ProviderEnvironment {

  /** The variables an allow-list always passes, besides every {@code LC_*} variable. */
  List<String> ALWAYS_ALLOWED = List.of("PATH", "HOME", "LANG", "TZ", "TMPDIR");

  /** Returns the policy that passes the whole host environment (the default). */
  static ProviderEnvironment inheritAll() {
    return new InheritAll();
  }

  /**
   * Returns the policy that passes {@link #ALWAYS_ALLOWED}, {@code LC_*} and {@code names} only.
   *
   * @throws InvalidValueException when a name is empty or contains {@code =} or NUL
   */
  static ProviderEnvironment allowList(String... names) {
    return new AllowList(new HashSet<>(Arrays.asList(names)));
  }

  /** Returns the variables of {@code host} this policy passes, in {@code host}'s order. */
  Map<String, String> filter(Map<String, String> host);

  /** Passes every variable. */
  record InheritAll() implements ProviderEnvironment {
    @Override
    public Map<String, String> filter(Map<String, String> host) {
      return host;
    }
  }

  /**
   * Passes {@link #ALWAYS_ALLOWED}, {@code LC_*} and {@code names}.
   *
   * @param names the extra variable names
   */
  record AllowList(Set<String> names) implements ProviderEnvironment {

    /** Validates and copies {@code names}. */
    public AllowList {
      for (String name : names) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
          throw new InvalidValueException(
              "environment variable name", name, "must be non-empty without `=` or NUL");
        }
      }
      names = Set.copyOf(names);
    }

    @Override
    public Map<String, String> filter(Map<String, String> host) {
      Map<String, String> kept = new LinkedHashMap<>();
      host.forEach(
          (name, value) -> {
            if (passes(name)) {
              kept.put(name, value);
            }
          });
      return kept;
    }

    private boolean passes(String name) {
      return ALWAYS_ALLOWED.contains(name) || name.startsWith("LC_") || names.contains(name);
    }
  }
}
