package io.loopx.runtime.internal.identity;

import io.loopx.runtime.internal.process.FileStamp;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The outcome of resolving an extension runtime: {@link Resolved} with its launch command prefix
 * and identity, or {@link Missing} when it cannot be resolved (the doctor's {@code
 * entrypoint_missing}). Real I/O failures are not outcomes: they throw a {@link
 * io.loopx.api.LoopxException} of kind {@code IO_FAILED}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public sealed interface RuntimeResolution {

  /**
   * A resolved runtime.
   *
   * <p>{@code commandPrefix} is the argv the process runner starts, before the manifest's {@code
   * args}: {@code [launcherPath]} for an executable (the kernel runs a shebang's interpreter
   * itself); {@code [javaExecutable, "-cp", codePath, className]} for a {@code java_main} class,
   * where {@code codePath} joins the {@linkplain RuntimeEnvironment#codePath() code path} with
   * {@link java.io.File#pathSeparator} — a host that runs on the module path puts its module path
   * entries on the child's class path, ahead of its class path entries, so the child loads the
   * class from the code source that was identified — or joins the absolute {@code java_class_path}
   * entries.
   *
   * @param savedPath what install saves as the revision's {@code entrypoint_path}: the absolute
   *     launcher path as found (symbolic links not resolved) for an executable, the absolute
   *     manifest directory for a {@code java_class_path}, else empty
   * @param commandPrefix the resolved argv prefix, never empty
   * @param identity the runtime identity
   * @param identityRecord the canonical JSON text whose SHA-256 is {@code identity}
   * @param stamps the {@link FileStamp}s of the hashed files (launcher and interpreter; {@code
   *     java} and the code sources), each taken right before the file was hashed; compared again
   *     after a run ({@link #unchangedSince})
   */
  record Resolved(
      Optional<Path> savedPath,
      List<String> commandPrefix,
      RuntimeIdentity identity,
      String identityRecord,
      List<FileStamp> stamps)
      implements RuntimeResolution {
    /** Validates and copies. */
    public Resolved {
      Objects.requireNonNull(savedPath, "savedPath");
      commandPrefix = List.copyOf(commandPrefix);
      stamps = List.copyOf(stamps);
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(identityRecord, "identityRecord");
      if (commandPrefix.isEmpty()) {
        throw new IllegalArgumentException("commandPrefix must not be empty");
      }
    }

    /**
     * Returns the stamp of the file the kernel executes: the interpreter of a {@code #!} launcher
     * (the program {@code env} runs for {@code #!/usr/bin/env NAME}), else the launcher itself, or
     * {@code java} for a {@code java_main} class; empty without stamps.
     */
    public Optional<FileStamp> executed() {
      if (stamps.isEmpty()) {
        return Optional.empty();
      }
      // An executable's prefix is its launcher alone; its stamps end with what the kernel runs.
      return Optional.of(commandPrefix.size() == 1 ? stamps.get(stamps.size() - 1) : stamps.get(0));
    }

    /**
     * Whether {@code after}, the same runtime resolved again, is still this one: same identity,
     * saved path and file stamps (docs/threat-model.md, P2: detect and fail closed).
     */
    public boolean unchangedSince(RuntimeResolution after) {
      return after instanceof Resolved a
          && a.identity().equals(identity)
          && a.savedPath().equals(savedPath)
          && a.stamps().equals(stamps);
    }
  }

  /**
   * An unresolvable runtime: no launcher at the saved path or on PATH, an unresolvable shebang
   * interpreter, a missing {@code java} executable or a class not on the code path.
   *
   * @param reason a human-readable reason naming the missing thing
   * @param lookup what was looked up where (the doctor's {@code entrypoint_lookup})
   */
  record Missing(String reason, EntrypointLookup lookup) implements RuntimeResolution {
    /** Checks the reason and lookup are present. */
    public Missing {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(lookup, "lookup");
    }
  }

  /**
   * A runtime LoopX refuses to identify because what the kernel or {@code env} would run could
   * differ from what would be hashed (docs/contract/doctor.md, shebang interpreter): a {@code #!}
   * line over the kernel's limit, a non-UTF-8 interpreter path, options or several words passed to
   * {@code env}, or an interpreter that is itself a {@code #!} script. Install and upgrade refuse
   * it with {@code entrypoint_unsupported}; the doctor reports the status {@code
   * entrypoint_unsupported}.
   *
   * @param reason the stable message, ``entrypoint `<launcher>` is unsupported: <why>``
   */
  record Unsupported(String reason) implements RuntimeResolution {
    /** Checks the reason is present. */
    public Unsupported {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Returns whether this is a {@link Resolved}. */
  default boolean isResolved() {
    return this instanceof Resolved;
  }

  /** Returns the identity when resolved, else empty. */
  default Optional<RuntimeIdentity> resolvedIdentity() {
    return this instanceof Resolved r ? Optional.of(r.identity()) : Optional.empty();
  }
}
