package io.loopx.runtime.internal.identity;

import io.loopx.api.json.CanonicalJson;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.lifecycle.EntrypointLookup;
import io.loopx.runtime.process.FileStamp;
import java.io.File;
import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolves an extension's launch target to the command that starts it and its {@link
 * RuntimeIdentity}. Works on any {@link java.nio.file.FileSystem}: paths are interpreted on the
 * file system of the manifest directory or saved launcher path they start from.
 *
 * <p><b>Executables.</b> At install and upgrade, {@link #resolve} locates the {@code entrypoint}:
 * one containing {@code /} is a path, resolved against the manifest's directory when relative
 * ({@code .} segments dropped, {@code ..} kept, symbolic links not resolved) and it must be a
 * regular file; any other is a name searched on the {@linkplain RuntimeEnvironment#searchPath()
 * PATH}, where the first entry holding a regular file with an execute bit wins (empty and relative
 * entries are skipped; a {@link io.loopx.runtime.Loopx} hands the resolver its one composed {@link
 * SearchPath}, which providers get too). The launcher path is kept as found — symbolic links are
 * not resolved — and is saved as the revision's {@code entrypoint_path}; afterwards {@link
 * #resolveSaved} identifies the file at the saved path and never searches PATH for it again.
 *
 * <p>A launcher without {@code #!} has its {@link FileIdentity} as its runtime identity. A launcher
 * that starts with {@code #!} joins its interpreter's identity: the first 256 bytes are read; an
 * absolute interpreter path is used as written; for an interpreter named {@code env} (e.g. {@code
 * #!/usr/bin/env python3}), which must exist, the line's single argument names the program, looked
 * up in the launcher's directory first, then on PATH. An interpreter that cannot be found or a
 * relative interpreter path makes the runtime {@link RuntimeResolution.Missing}. The line is read
 * as bytes the way the kernel reads it ({@link Shebang}); a line that does not end within 256
 * bytes, a non-UTF-8 interpreter path, an {@code env} argument that is not one plain program name
 * (options such as {@code -S}, several words, an assignment) and an interpreter (or {@code env}
 * program) that is itself a {@code #!} script make it {@link RuntimeResolution.Unsupported}.
 *
 * <p><b>Java main classes.</b> The class is searched, without loading it, as {@code
 * com/example/Main.class} in the directories and jars of the {@linkplain
 * RuntimeEnvironment#codePath() code path}, in order; the first holding it is the code source. The
 * {@code java} executable must be a regular file.
 *
 * <p>Every hashed file's {@link FileStamp} is taken right before it is read and kept in the {@link
 * RuntimeResolution.Resolved}, so a caller can resolve again after a run and tell whether the files
 * changed meanwhile ({@link RuntimeResolution.Resolved#unchangedSince}).
 *
 * <p>Immutable and thread-safe. See {@link RuntimeIdentity} for the identity records.
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
      Optional<Map<Path, ScanResult>> pass) {
    this.environment = Objects.requireNonNull(environment, "environment");
    this.cache = cache;
    this.derived = derived;
    this.launchers = launchers;
    this.pass = pass;
  }

  /** Returns a resolver for {@code environment} that hashes every file it identifies. */
  public static RuntimeResolver of(RuntimeEnvironment environment) {
    return new RuntimeResolver(
        environment,
        Optional.empty(),
        new ConcurrentHashMap<>(),
        new ConcurrentHashMap<>(),
        Optional.empty());
  }

  /**
   * Returns this resolver identifying files through {@code cache}: a file whose {@code stat} has
   * not changed since it was hashed is not hashed again ({@link IdentityCache}).
   */
  public RuntimeResolver withCache(IdentityCache cache) {
    return new RuntimeResolver(
        environment, Optional.of(cache), derived, launchers, Optional.empty());
  }

  /**
   * Returns this resolver without its cache: every file is hashed. The checks after a run or a
   * probe use it, so that what ran is compared with bytes actually read again.
   */
  public RuntimeResolver uncached() {
    return cache.isEmpty() && pass.isEmpty()
        ? this
        : new RuntimeResolver(environment, Optional.empty(), derived, launchers, Optional.empty());
  }

  /**
   * Returns this resolver for one pass over many runtimes (a catalog read), not thread-safe: each
   * file is examined at most once in the pass (an interpreter shared by 1,000 launchers is stat-ed
   * or hashed once), so the pass answers as of its first look at each file. A change during the
   * pass is seen by the next one.
   */
  public RuntimeResolver forOnePass() {
    return new RuntimeResolver(
        environment, cache, derived, launchers, Optional.of(new HashMap<>()));
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
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(manifestDirectory, "manifestDirectory");
    if (target instanceof LaunchTarget.JavaMain javaMain) {
      return resolveJavaMain(
          javaMain, Optional.of(withoutDotSegments(manifestDirectory.toAbsolutePath())));
    }
    LaunchTarget.Executable executable = (LaunchTarget.Executable) target;
    Optional<Path> launcher = locate(executable, manifestDirectory.toAbsolutePath());
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
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(entrypointPath, "entrypointPath");
    if (target instanceof LaunchTarget.JavaMain javaMain) {
      return resolveJavaMain(javaMain, entrypointPath);
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
      Interpreter found = interpreter(shebang.get(), launcher);
      if (found instanceof Interpreter.Refused refused) {
        return new RuntimeResolution.Unsupported(
            "entrypoint `" + launcher + "` is unsupported: " + refused.why());
      }
      if (found instanceof Interpreter.NotFound notFound) {
        return missing(
            "interpreter of entrypoint `"
                + launcher
                + "` cannot be resolved from `#!"
                + shebang.get().text()
                + "`",
            notFound.lookup());
      }
      Interpreter.Found located = (Interpreter.Found) found;
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
      if (isScript(interpreterScan.get())) {
        boolean named = shebang.get().interpreter().equals(Optional.of(interpreter.toString()));
        return new RuntimeResolution.Unsupported(
            "entrypoint `"
                + launcher
                + "` is unsupported: "
                + scriptInterpreter(
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
      d = new Derived(RuntimeIdentity.ofRecord(r), CanonicalJson.toText(r));
      if (derived.size() >= MAX_MEMO) {
        derived.clear();
      }
      derived.put(key, d);
    }
    return d;
  }

  private static boolean isScript(FileScan scan) {
    byte[] head = scan.head();
    return head.length >= 2 && head[0] == '#' && head[1] == '!';
  }

  /** What a shebang line names: a file, nothing resolvable, or something refused. */
  private sealed interface Interpreter {
    record Found(Path path) implements Interpreter {}

    record NotFound(EntrypointLookup lookup) implements Interpreter {}

    record Refused(String why) implements Interpreter {}
  }

  /**
   * Resolves a Java main class: on the host's code path, or on its own {@code java_class_path}
   * against {@code manifestDirectory} (the candidate's directory, or the saved one).
   */
  private RuntimeResolution resolveJavaMain(
      LaunchTarget.JavaMain target, Optional<Path> manifestDirectory) {
    Path javaExecutable = environment.javaExecutable();
    Optional<FileScan> java = scan(javaExecutable, 0);
    if (java.isEmpty()) {
      return missing(
          "java executable `" + javaExecutable + "` is not a regular file",
          EntrypointLookup.ofPath(javaExecutable.toString()));
    }
    if (!target.usesHostCodePath()) {
      return resolveClassPath(target, manifestDirectory, java.get());
    }
    String className = target.className();
    Optional<CodeSources.CodeSource> source = CodeSources.find(className, environment.codePath());
    if (source.isEmpty()) {
      return missing(
          "class `" + className + "` was not found on the code path",
          new EntrypointLookup(className, joined(environment.codePath())));
    }
    Optional<Identified> identified = identify(source.get());
    if (identified.isEmpty()) {
      return missing(
          "code source `" + source.get().location() + "` of class `" + className + "` vanished",
          new EntrypointLookup(className, joined(environment.codePath())));
    }
    ObjectNode record =
        RuntimeIdentity.javaMainRecord(
            java.get().digest(), className, source.get().kind(), identified.get().digest());
    return resolved(
        Optional.empty(),
        List.of(javaExecutable.toString(), "-cp", joined(environment.codePath()), className),
        record,
        List.of(java.get().stamp(), identified.get().stamp()));
  }

  /**
   * Resolves a {@code java_class_path} runtime: every entry, made absolute against the manifest
   * directory ({@code .} segments dropped), must be a jar or a class directory; a jar must not name
   * more jars in its manifest's {@code Class-Path} and a class directory must not hold a link to a
   * directory (the JVM would load from them unidentified); the class must be in one of them. Every
   * entry, in order, joins the identity; the child's class path is exactly these entries, and the
   * manifest directory is what install saves.
   */
  private RuntimeResolution resolveClassPath(
      LaunchTarget.JavaMain target, Optional<Path> manifestDirectory, FileScan java) {
    String className = target.className();
    String declared = String.join(File.pathSeparator, target.classPath());
    if (manifestDirectory.isEmpty() || !manifestDirectory.get().isAbsolute()) {
      return missing(
          "java_class_path of class `" + className + "` has no saved absolute manifest directory",
          new EntrypointLookup(className, declared));
    }
    Path base = manifestDirectory.get();
    List<Path> entries = new ArrayList<>();
    for (String entry : target.classPath()) {
      Path path;
      try {
        path = withoutDotSegments(base.resolve(base.getFileSystem().getPath(entry)));
      } catch (InvalidPathException e) {
        return missing(
            "java_class_path entry `" + entry + "` is not a valid path",
            new EntrypointLookup(className, declared));
      }
      entries.add(path);
    }
    String classPath = joined(entries);
    List<ObjectNode> sources = new ArrayList<>();
    List<FileStamp> stamps = new ArrayList<>();
    stamps.add(java.stamp());
    for (Path entry : entries) {
      Optional<CodeSources.CodeSource> source = CodeSources.at(entry);
      if (source.isEmpty()) {
        return missing(
            "java_class_path entry `" + entry + "` is not a jar or a class directory",
            EntrypointLookup.ofPath(entry.toString()));
      }
      Optional<Identified> identified = identify(source.get());
      if (identified.isEmpty()) {
        return missing(
            "java_class_path entry `" + entry + "` vanished",
            EntrypointLookup.ofPath(entry.toString()));
      }
      // Checked after hashing: a later change shows in the stamps compared after every run.
      if (source.get().jar() && CodeSources.declaresClassPath(entry)) {
        return new RuntimeResolution.Unsupported(
            "java_class_path entry `"
                + entry
                + "` is unsupported: its manifest names more jars in `Class-Path`");
      }
      Optional<Path> link =
          source.get().jar() ? Optional.empty() : CodeSources.linkedDirectory(entry);
      if (link.isPresent()) {
        return new RuntimeResolution.Unsupported(
            "java_class_path entry `"
                + entry
                + "` is unsupported: it holds a link to a directory (`"
                + link.get()
                + "`), whose files are not identified");
      }
      sources.add(RuntimeIdentity.codeSource(source.get().kind(), identified.get().digest()));
      stamps.add(identified.get().stamp());
    }
    if (CodeSources.find(className, entries).isEmpty()) {
      return missing(
          "class `" + className + "` was not found on the java_class_path",
          new EntrypointLookup(className, classPath));
    }
    return resolved(
        Optional.of(base),
        List.of(environment.javaExecutable().toString(), "-cp", classPath, className),
        RuntimeIdentity.javaClassPathRecord(java.digest(), className, sources),
        stamps);
  }

  /** A code source's identity and its stamp, taken before it was read. */
  private record Identified(String digest, FileStamp stamp) {}

  private Optional<Identified> identify(CodeSources.CodeSource source) {
    Optional<FileStamp> stamp;
    try {
      stamp = FileStamp.read(source.location());
    } catch (java.io.IOException e) {
      throw FileScan.ioFailed(source.location(), e);
    }
    Optional<String> digest = CodeSources.identify(source, this::scan);
    return digest.isEmpty() || stamp.isEmpty()
        ? Optional.empty()
        : Optional.of(new Identified(digest.get(), stamp.get()));
  }

  private Optional<Path> locate(LaunchTarget.Executable executable, Path manifestDirectory) {
    String entrypoint = executable.entrypoint();
    FileSystem fs = manifestDirectory.getFileSystem();
    if (!executable.isPath()) {
      return searchPath(entrypoint, fs);
    }
    Path candidate;
    try {
      candidate = withoutDotSegments(manifestDirectory.resolve(fs.getPath(entrypoint)));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return FileScan.regularFileExecutable(candidate).isPresent()
        ? Optional.of(candidate)
        : Optional.empty();
  }

  /**
   * Why an interpreter that is itself a {@code #!} script is refused, and the way forward: for a
   * program {@code env} looked up by {@code name}, a providers' PATH on which it is a binary;
   * always, an absolute {@code #!} line naming a binary interpreter.
   */
  static String scriptInterpreter(Path interpreter, Optional<String> name) {
    String reason = "its interpreter `" + interpreter + "` is itself a `#!` script";
    return name.isPresent()
        ? reason
            + ": give providers a PATH on which `"
            + name.get()
            + "` is a binary, or start the entrypoint with an absolute `#!` naming a binary"
            + " interpreter"
        : reason + ": start the entrypoint with an absolute `#!` naming a binary interpreter";
  }

  private Interpreter interpreter(Shebang shebang, Path launcher) {
    Interpreter notFound = notFound(EntrypointLookup.ofPath(shebang.text()));
    if (!shebang.complete()) {
      return new Interpreter.Refused(
          "its `#!` line does not end within " + Shebang.LIMIT + " bytes");
    }
    if (shebang.interpreterEmpty()) {
      return notFound;
    }
    Optional<String> written = shebang.interpreter();
    if (written.isEmpty()) {
      return new Interpreter.Refused("its `#!` interpreter path is not valid UTF-8");
    }
    FileSystem fs = launcher.getFileSystem();
    Path direct;
    try {
      direct = fs.getPath(written.get());
    } catch (InvalidPathException e) {
      return notFound(EntrypointLookup.ofPath(written.get()));
    }
    if (!direct.isAbsolute()) {
      return notFound(EntrypointLookup.ofPath(written.get()));
    }
    Path fileName = direct.getFileName();
    if (fileName == null || !fileName.toString().equals("env")) {
      return new Interpreter.Found(direct);
    }
    Optional<FileScan> env =
        FileScan.regularFileExecutable(direct).isPresent() ? scan(direct, 2) : Optional.empty();
    if (env.isEmpty()) {
      return notFound(EntrypointLookup.ofPath(direct.toString()));
    }
    if (isScript(env.get())) {
      return new Interpreter.Refused(scriptInterpreter(direct, Optional.empty()));
    }
    if (!shebang.hasArgument()) {
      return notFound;
    }
    Optional<String> argument = shebang.argument();
    if (argument.isEmpty()) {
      return new Interpreter.Refused("its `#!` program name for env is not valid UTF-8");
    }
    String name = argument.get();
    if (name.startsWith("-")) {
      return new Interpreter.Refused("its `#!` line passes options to env (`" + name + "`)");
    }
    if (name.indexOf(' ') >= 0 || name.indexOf('\t') >= 0) {
      return new Interpreter.Refused(
          "its `#!` line passes more than one word to env (`" + name + "`)");
    }
    if (name.indexOf('=') >= 0) {
      return new Interpreter.Refused("its `#!` line passes an assignment to env (`" + name + "`)");
    }
    return program(name, launcher, fs)
        .<Interpreter>map(Interpreter.Found::new)
        .orElseGet(() -> notFound(programLookup(name, launcher)));
  }

  private static Interpreter notFound(EntrypointLookup lookup) {
    return new Interpreter.NotFound(lookup);
  }

  /** Where {@link #program} looked for {@code name}: the launcher's directory, then the PATH. */
  private EntrypointLookup programLookup(String name, Path launcher) {
    if (name.indexOf('/') >= 0) {
      return EntrypointLookup.ofPath(name);
    }
    Path launcherDirectory = launcher.getParent();
    String path = environment.searchPath();
    if (launcherDirectory != null) {
      path =
          path.isEmpty()
              ? launcherDirectory.toString()
              : launcherDirectory + File.pathSeparator + path;
    }
    return new EntrypointLookup(name, path);
  }

  private Optional<Path> program(String name, Path launcher, FileSystem fs) {
    if (name.indexOf('/') >= 0) {
      try {
        Path path = fs.getPath(name);
        return path.isAbsolute() ? Optional.of(path) : Optional.empty();
      } catch (InvalidPathException e) {
        return Optional.empty();
      }
    }
    Path launcherDirectory = launcher.getParent();
    if (launcherDirectory != null) {
      Optional<Path> beside = candidate(launcherDirectory, name);
      if (beside.isPresent()) {
        return beside;
      }
    }
    return searchPath(name, fs);
  }

  private Optional<Path> searchPath(String name, FileSystem fs) {
    for (Path directory : pathDirectories(fs)) {
      Optional<Path> found = candidate(directory, name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> candidate(Path directory, String name) {
    Path file;
    try {
      file = directory.resolve(name);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return FileScan.isRegularExecutable(file) ? Optional.of(file) : Optional.empty();
  }

  private List<Path> pathDirectories(FileSystem fs) {
    List<Path> out = new ArrayList<>();
    for (String entry : environment.searchPath().split(File.pathSeparator, -1)) {
      if (entry.isEmpty()) {
        continue;
      }
      try {
        Path directory = fs.getPath(entry);
        if (directory.isAbsolute()) {
          out.add(directory);
        }
      } catch (InvalidPathException e) {
        // not a path on this file system: it cannot hold the program
      }
    }
    return out;
  }

  private static Path withoutDotSegments(Path absolute) {
    Path root = absolute.getRoot();
    if (root == null) {
      return absolute;
    }
    Path out = root;
    for (Path segment : absolute) {
      if (!segment.toString().equals(".")) {
        out = out.resolve(segment);
      }
    }
    return out;
  }

  private static RuntimeResolution resolved(
      Optional<Path> savedPath,
      List<String> commandPrefix,
      ObjectNode record,
      List<FileStamp> stamps) {
    return new RuntimeResolution.Resolved(
        savedPath,
        commandPrefix,
        RuntimeIdentity.ofRecord(record),
        CanonicalJson.toText(record),
        stamps);
  }

  private static String joined(List<Path> codePath) {
    return codePath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  private static RuntimeResolution missing(String reason, EntrypointLookup lookup) {
    return new RuntimeResolution.Missing(reason, lookup);
  }
}
