package io.loopx.runtime.internal.identity;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.internal.process.FileStamp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolves an extension's launch target to the command that starts it and its {@link
 * RuntimeIdentity}. Works on any {@link java.nio.file.FileSystem}: paths are interpreted on the
 * file system of the manifest directory or saved launcher path they start from.
 *
 * <p>At install and upgrade, {@link #resolve} locates the {@code entrypoint} ({@link
 * ProgramLocator}) and keeps the launcher path as found, saved as the revision's {@code
 * entrypoint_path}; afterwards {@link #resolveSaved} identifies the file at the saved path and
 * never searches PATH for it again. A launcher without {@code #!} has its {@link FileIdentity} as
 * its runtime identity; one with {@code #!} joins its interpreter's ({@link Shebang}); a missing
 * interpreter makes the runtime {@link RuntimeResolution.Missing}, one refused {@link
 * RuntimeResolution.Unsupported}. Java main classes are resolved by {@link JavaMainResolver}.
 *
 * <p>Every hashed file's {@link FileStamp} is taken right before it is read and kept in the {@link
 * RuntimeResolution.Resolved}, so a caller can tell whether the files changed after a run ({@link
 * RuntimeResolution.Resolved#unchangedSince}). Immutable and thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RuntimeResolver {
  private static final int MAX_MEMO = 4096;

  private final RuntimeEnvironment environment;
  private final Optional<IdentityCache> cache;

  /** The scans of one pass ({@link #forOnePass()}), by path; empty outside a pass. */
  private final Optional<Map<Path, ScanResult>> pass;

  private record ScanResult(int headBytes, Optional<FileScan> scan) {}

  /** Identity and record text per identity record key: a pure function, memoised. */
  private final ConcurrentHashMap<String, Derived> derived;

  private record Derived(RuntimeIdentity identity, String text) {}

  /**
   * The last resolution of each launcher made through the identity cache, by launcher path: reused
   * while the launcher and its interpreter scan to the same identities and stamps, which is what
   * the resolution read of them. Only launchers without {@code #!} or with a direct interpreter
   * path are kept: {@code #!/usr/bin/env NAME} depends on the PATH directories as well.
   */
  private final ConcurrentHashMap<Path, Resolution> launchers;

  /**
   * The isolation tool, when present every identity is folded with its ({@link #isolatedBy}); asked
   * at each resolution (a launcher's memoised, possibly lazy, probe).
   */
  private final Supplier<Optional<Bubblewrap>> isolation;

  /** A launcher's resolution and the scans it was made from. */
  private record Resolution(
      String launcherDigest,
      Optional<Path> interpreter,
      Optional<String> interpreterDigest,
      RuntimeResolution.Resolved resolved) {

    /** Whether {@code launcher} scans as it did; its stamp is the resolution's first. */
    boolean sameLauncher(FileScan launcher) {
      return launcherDigest.equals(launcher.digest())
          && resolved.stamps().get(0).equals(launcher.stamp());
    }

    /** Whether {@code scan} of the interpreter is the one the resolution read. */
    boolean sameInterpreter(FileScan scan) {
      return interpreterDigest.equals(Optional.of(scan.digest()))
          && resolved.stamps().get(1).equals(scan.stamp());
    }
  }

  private RuntimeResolver(
      RuntimeEnvironment environment,
      Optional<IdentityCache> cache,
      ConcurrentHashMap<String, Derived> derived,
      ConcurrentHashMap<Path, Resolution> launchers,
      Optional<Map<Path, ScanResult>> pass,
      Supplier<Optional<Bubblewrap>> isolation) {
    this.isolation = isolation;
    this.environment = Objects.requireNonNull(environment, "environment");
    this.cache = cache;
    this.derived = derived;
    this.launchers = launchers;
    this.pass = pass;
  }

  /** Returns a resolver for {@code environment} that hashes every file it identifies. */
  public static RuntimeResolver of(RuntimeEnvironment environment) {
    return ofIsolation(environment, Optional::empty);
  }

  /**
   * Returns this resolver with every identity folded with {@code tool}'s ({@link
   * Bubblewrap#isolatedIdentity}): the resolver of a host whose providers run isolated, so that
   * enabling isolation or upgrading the tool makes proofs stale (docs/contract/doctor.md).
   */
  public RuntimeResolver isolatedBy(Bubblewrap tool) {
    Optional<Bubblewrap> found = Optional.of(tool);
    return isolatedBy(() -> found);
  }

  /**
   * Returns this resolver with every identity folded with the tool {@code tool} gives, if it gives
   * one, asked at each resolution: the resolver of providers whose launcher probes the tool lazily
   * (the standalone side of a host that set no isolation policy, docs/process.md#isolation). {@code
   * tool} must answer the same every time (a memoised probe).
   */
  public RuntimeResolver isolatedBy(Supplier<Optional<Bubblewrap>> tool) {
    return new RuntimeResolver(
        environment, cache, derived, launchers, pass, Objects.requireNonNull(tool, "tool"));
  }

  private static RuntimeResolver ofIsolation(
      RuntimeEnvironment environment, Supplier<Optional<Bubblewrap>> isolation) {
    return new RuntimeResolver(
        environment,
        Optional.empty(),
        new ConcurrentHashMap<>(),
        new ConcurrentHashMap<>(),
        Optional.empty(),
        isolation);
  }

  /**
   * Returns this resolver identifying files through {@code cache}: a file whose {@code stat} has
   * not changed since it was hashed is not hashed again ({@link IdentityCache}).
   */
  public RuntimeResolver withCache(IdentityCache cache) {
    return new RuntimeResolver(
        environment, Optional.of(cache), derived, launchers, Optional.empty(), isolation);
  }

  /**
   * Returns this resolver without its cache: every file is hashed. The checks after a run or a
   * probe use it, so that what ran is compared with bytes actually read again.
   */
  public RuntimeResolver uncached() {
    return cache.isEmpty() && pass.isEmpty()
        ? this
        : new RuntimeResolver(
            environment, Optional.empty(), derived, launchers, Optional.empty(), isolation);
  }

  /**
   * Returns this resolver for one pass over many runtimes (a catalog read), not thread-safe: each
   * file is examined at most once in the pass (an interpreter shared by 1,000 launchers is stat-ed
   * or hashed once), so the pass answers as of its first look at each file. A change during the
   * pass is seen by the next one.
   */
  public RuntimeResolver forOnePass() {
    return new RuntimeResolver(
        environment, cache, derived, launchers, Optional.of(new HashMap<>()), isolation);
  }

  /** Returns the cache this resolver identifies files through, if any. */
  public Optional<IdentityCache> cache() {
    return cache;
  }

  private Optional<FileScan> scan(Path file, int headBytes) {
    if (pass.isEmpty()) {
      return scanNow(file, headBytes);
    }
    ScanResult seen = pass.get().get(file);
    if (seen != null && seen.headBytes() >= headBytes) {
      return seen.scan().map(scan -> scan.withHeadOf(headBytes));
    }
    int head = Math.max(headBytes, seen == null ? 0 : seen.headBytes());
    Optional<FileScan> scan = scanNow(file, head);
    pass.get().put(file, new ScanResult(head, scan));
    return scan.map(s -> s.withHeadOf(headBytes));
  }

  private Optional<FileScan> scanNow(Path file, int headBytes) {
    return cache.isPresent()
        ? cache.get().scan(file, headBytes)
        : FileScan.tryScan(file, headBytes);
  }

  private ProgramLocator locator() {
    return new ProgramLocator(environment.searchPath(), this::scan);
  }

  /** Returns the environment this resolver reads. */
  public RuntimeEnvironment environment() {
    return environment;
  }

  /**
   * Resolves {@code target} for install or upgrade: locates an executable's launcher from the
   * manifest's directory or PATH, or finds a Java main class on the code path.
   *
   * @param manifestDirectory the directory holding the manifest (made absolute)
   * @throws io.loopx.api.LoopxException of kind {@code IO_FAILED} when a file that was found cannot
   *     be read
   */
  public RuntimeResolution resolve(LaunchTarget target, Path manifestDirectory) {
    return isolated(resolveUnisolated(target, manifestDirectory));
  }

  /** Returns {@code resolution} with its identity folded with the isolation tool's, if any. */
  private RuntimeResolution isolated(RuntimeResolution resolution) {
    if (!(resolution instanceof RuntimeResolution.Resolved r)) {
      return resolution;
    }
    Optional<Bubblewrap> tool = isolation.get();
    if (tool.isEmpty()) {
      return resolution;
    }
    ObjectNode record = tool.get().isolatedRecord(r.identity().value());
    RuntimeIdentity.Recorded recorded = RuntimeIdentity.recorded(record);
    return new RuntimeResolution.Resolved(
        r.savedPath(), r.commandPrefix(), recorded.identity(), recorded.text(), r.stamps());
  }

  private RuntimeResolution resolveUnisolated(LaunchTarget target, Path manifestDirectory) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(manifestDirectory, "manifestDirectory");
    if (target instanceof LaunchTarget.JavaMain javaMain) {
      return new JavaMainResolver(environment, this::scan)
          .resolve(
              javaMain,
              Optional.of(ProgramLocator.withoutDotSegments(manifestDirectory.toAbsolutePath())));
    }
    LaunchTarget.Executable executable = (LaunchTarget.Executable) target;
    Optional<Path> launcher = locator().locate(executable, manifestDirectory.toAbsolutePath());
    if (launcher.isEmpty()) {
      return executable.isPath()
          ? missing(
              "entrypoint `" + executable.entrypoint() + "` is not a regular file",
              new EntrypointLookup(
                  executable.entrypoint(), manifestDirectory.toAbsolutePath().toString()))
          : missing(
              "entrypoint `" + executable.entrypoint() + "` was not found on PATH",
              new EntrypointLookup(executable.entrypoint(), environment.searchPath()));
    }
    return resolveLauncher(launcher.get());
  }

  /**
   * Resolves an installed revision's runtime: an executable from its saved {@code entrypoint_path}
   * (a missing file, or no saved path, is {@link RuntimeResolution.Missing}); a Java main class
   * from the host's code path, ignoring {@code entrypointPath}, or, with a {@code java_class_path},
   * from that class path resolved against the saved manifest directory in {@code entrypointPath}.
   *
   * @throws io.loopx.api.LoopxException of kind {@code IO_FAILED} when a file that was found cannot
   *     be read
   */
  public RuntimeResolution resolveSaved(LaunchTarget target, Optional<Path> entrypointPath) {
    return isolated(resolveSavedUnisolated(target, entrypointPath));
  }

  private RuntimeResolution resolveSavedUnisolated(
      LaunchTarget target, Optional<Path> entrypointPath) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(entrypointPath, "entrypointPath");
    if (target instanceof LaunchTarget.JavaMain javaMain) {
      return new JavaMainResolver(environment, this::scan).resolve(javaMain, entrypointPath);
    }
    if (entrypointPath.isEmpty()) {
      return missing(
          "entrypoint `" + target.value() + "` has no saved entrypoint path",
          new EntrypointLookup(target.value(), ""));
    }
    Path saved = entrypointPath.get();
    if (!saved.isAbsolute()) {
      return missing(
          "saved entrypoint path `" + saved + "` is not absolute",
          EntrypointLookup.ofPath(saved.toString()));
    }
    return resolveLauncher(saved);
  }

  private RuntimeResolution resolveLauncher(Path launcher) {
    Optional<FileScan> scan = scan(launcher, Shebang.LIMIT);
    if (scan.isEmpty()) {
      return missing(
          "entrypoint `" + launcher + "` does not exist or is not a regular file",
          EntrypointLookup.ofPath(launcher.toString()));
    }
    Optional<RuntimeResolution.Resolved> known = known(launcher, scan.get());
    if (known.isPresent()) {
      return known.get();
    }
    FileIdentity launcherIdentity = scan.get().identity();
    Optional<Shebang> shebang = Shebang.parse(scan.get().headUnsafe(), launcherIdentity.size());
    Optional<FileScan> interpreterIdentity = Optional.empty();
    List<FileStamp> stamps = new ArrayList<>();
    stamps.add(scan.get().stamp());
    boolean direct = true;
    Optional<Path> interpreterPath = Optional.empty();
    if (shebang.isPresent()) {
      ProgramLocator.Interpreter found = locator().interpreter(shebang.get(), launcher);
      if (found instanceof ProgramLocator.Interpreter.Refused refused) {
        return new RuntimeResolution.Unsupported(
            "entrypoint `" + launcher + "` is unsupported: " + refused.why());
      }
      if (found instanceof ProgramLocator.Interpreter.NotFound notFound) {
        return missing(
            "interpreter of entrypoint `"
                + launcher
                + "` cannot be resolved from `#!"
                + shebang.get().text()
                + "`",
            notFound.lookup());
      }
      ProgramLocator.Interpreter.Found located = (ProgramLocator.Interpreter.Found) found;
      Path interpreter = located.path();
      Optional<FileScan> interpreterScan = scan(interpreter, 2);
      if (interpreterScan.isEmpty()) {
        return missing(
            "interpreter `"
                + interpreter
                + "` of entrypoint `"
                + launcher
                + "` does not exist or is not a regular file",
            EntrypointLookup.ofPath(interpreter.toString()));
      }
      if (ProgramLocator.isScript(interpreterScan.get())) {
        boolean named = shebang.get().interpreter().equals(Optional.of(interpreter.toString()));
        return new RuntimeResolution.Unsupported(
            "entrypoint `"
                + launcher
                + "` is unsupported: "
                + ProgramLocator.scriptInterpreter(
                    interpreter, named ? Optional.empty() : shebang.get().argument()));
      }
      interpreterIdentity = Optional.of(interpreterScan.get());
      stamps.add(interpreterScan.get().stamp());
      interpreterPath = Optional.of(interpreter);
      // Kept only when the #! line names this file itself, not a program env looks up.
      direct = shebang.get().interpreter().equals(Optional.of(interpreter.toString()));
    }
    // Without #! the file identity is the runtime identity; with one, the interpreter joins it.
    String launcherDigest = scan.get().digest();
    Derived d;
    if (interpreterIdentity.isPresent()) {
      String interpreterDigest = interpreterIdentity.get().digest();
      d =
          derive(
              "executable:" + launcherDigest + ":" + interpreterDigest,
              () -> RuntimeIdentity.executableRecord(launcherDigest, interpreterDigest));
    } else {
      d = derive("file:" + launcherDigest, launcherIdentity::toJson);
    }
    RuntimeResolution.Resolved resolved =
        new RuntimeResolution.Resolved(
            Optional.of(launcher), List.of(launcher.toString()), d.identity(), d.text(), stamps);
    if (cache.isPresent() && direct) {
      if (launchers.size() >= IdentityCache.MAX_ENTRIES) {
        launchers.clear();
      }
      launchers.put(
          launcher,
          new Resolution(
              launcherDigest,
              interpreterPath,
              interpreterIdentity.map(FileScan::digest),
              resolved));
    }
    return resolved;
  }

  /**
   * Returns the kept resolution of {@code launcher} when it was made through the identity cache and
   * the launcher (scanned now as {@code scan}) and its interpreter (scanned now) are as it read
   * them; never without a cache, so {@link #uncached()} resolvers always resolve anew.
   */
  private Optional<RuntimeResolution.Resolved> known(Path launcher, FileScan scan) {
    Resolution kept = cache.isPresent() ? launchers.get(launcher) : null;
    if (kept == null || !kept.sameLauncher(scan)) {
      return Optional.empty();
    }
    if (kept.interpreter().isEmpty()) {
      return Optional.of(kept.resolved());
    }
    Optional<FileScan> interpreter = scan(kept.interpreter().get(), 2);
    return interpreter.isPresent() && kept.sameInterpreter(interpreter.get())
        ? Optional.of(kept.resolved())
        : Optional.empty();
  }

  private Derived derive(String key, java.util.function.Supplier<ObjectNode> record) {
    Derived d = derived.get(key);
    if (d == null) {
      ObjectNode r = record.get();
      RuntimeIdentity.Recorded recorded = RuntimeIdentity.recorded(r);
      d = new Derived(recorded.identity(), recorded.text());
      if (derived.size() >= MAX_MEMO) {
        derived.clear();
      }
      derived.put(key, d);
    }
    return d;
  }

  static RuntimeResolution missing(String reason, EntrypointLookup lookup) {
    return new RuntimeResolution.Missing(reason, lookup);
  }
}
