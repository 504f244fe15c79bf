package io.loopx.runtime.internal.isolation;

import io.loopx.api.json.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The isolation tool: bubblewrap ({@code bwrap}, Debian's {@code bubblewrap}) at a fixed path, and,
 * when the host runs as root, util-linux {@code setpriv} at a fixed path to drop to an unprivileged
 * uid before it (bubblewrap run by real root maps the sandbox uid to outside uid 0, so every
 * root-owned file would be owner-accessible to the provider). Builds the argv prefix that runs a
 * program in the mount view of docs/process.md#isolation, and the tool's part of the runtime
 * identity. Immutable and thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class Bubblewrap {
  /** Where bubblewrap must be: never looked up on {@code PATH}. */
  public static final Path BWRAP = Path.of("/usr/bin/bwrap");

  /** Where util-linux {@code setpriv} must be (used when the host runs as root). */
  public static final Path SETPRIV = Path.of("/usr/bin/setpriv");

  /** The scratch directory inside the view: the working directory, {@code HOME}, {@code TMPDIR}. */
  public static final String SCRATCH = "/tmp";

  /** The default size bound of the scratch tmpfs: 64 MiB. */
  public static final long DEFAULT_SCRATCH_BYTES = 64L << 20;

  /** The uid and gid of the provider inside the user namespace. */
  public static final int SANDBOX_ID = 1000;

  /** The uid and gid a root host drops to outside before bubblewrap: {@code nobody}, 65534. */
  public static final int UNPRIVILEGED_ID = 65534;

  /** The schema of the isolated runtime identity record. */
  public static final String IDENTITY_SCHEMA = "loopx_runtime_isolated_identity_v1";

  private static final List<String> SYSTEM_DIRECTORIES =
      List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc");

  private final Path bwrap;
  private final Optional<Path> setpriv;
  private final long scratchBytes;

  private Bubblewrap(Path bwrap, Optional<Path> setpriv, long scratchBytes) {
    this.bwrap = bwrap;
    this.setpriv = setpriv;
    this.scratchBytes = scratchBytes;
  }

  /** What {@link #probe} found. */
  public sealed interface Availability {
    /**
     * The tool runs a program isolated on this host.
     *
     * @param tool the usable tool
     */
    record Usable(Bubblewrap tool) implements Availability {}

    /**
     * It does not.
     *
     * @param reason why, for the {@code isolation_unavailable} message
     */
    record Unusable(String reason) implements Availability {}
  }

  /** Probes the tool at the fixed paths; see {@link #probe(Path, Path, boolean)}. */
  public static Availability probe() {
    return probe(BWRAP, SETPRIV, hostIsRoot());
  }

  /**
   * Probes {@code bwrap} (and {@code setpriv} when {@code root}): both must be executable files,
   * and {@code /usr/bin/true} must run in the full view (user, pid, network, mount namespaces)
   * within 10 seconds. Runs one process; call once per launcher.
   */
  @SuppressWarnings("IllegalCatch")
  public static Availability probe(Path bwrap, Path setpriv, boolean root) {
    if (!Files.isRegularFile(bwrap) || !Files.isExecutable(bwrap)) {
      return new Availability.Unusable("bubblewrap is not installed at `" + bwrap + "`");
    }
    if (root && (!Files.isRegularFile(setpriv) || !Files.isExecutable(setpriv))) {
      return new Availability.Unusable(
          "the host runs as root and `setpriv` (util-linux) is not at `" + setpriv + "`");
    }
    Bubblewrap tool =
        new Bubblewrap(bwrap, root ? Optional.of(setpriv) : Optional.empty(), 1L << 20);
    List<String> command = new ArrayList<>(tool.prefix(IsolationPlan.NONE_DECLARED, List.of()));
    command.add("/usr/bin/true");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      byte[] output;
      try (var in = process.getInputStream()) {
        output = in.readNBytes(4096);
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Availability.Unusable("bubblewrap did not finish a trial run in 10 seconds");
      }
      if (process.exitValue() != 0) {
        return new Availability.Unusable(
            "bubblewrap cannot isolate on this host (exit "
                + process.exitValue()
                + "): "
                + new String(output, StandardCharsets.UTF_8).strip());
      }
    } catch (IOException | RuntimeException e) {
      return new Availability.Unusable("bubblewrap cannot be started: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Availability.Unusable("interrupted while trying bubblewrap");
    }
    return new Availability.Usable(new Bubblewrap(tool.bwrap, tool.setpriv, DEFAULT_SCRATCH_BYTES));
  }

  /** Whether this process runs with effective uid 0 (from {@code /proc/self/status}). */
  public static boolean hostIsRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          String[] ids = line.substring(4).trim().split("\\s+");
          return ids.length > 1 && ids[1].equals("0");
        }
      }
    } catch (IOException | RuntimeException e) {
      // No /proc: assume the worst, so that a root host still drops its uid.
      return true;
    }
    return false;
  }

  /** Returns the tool's programs, each of which {@code exec}s or forks the provider. */
  public List<Path> stages() {
    List<Path> stages = new ArrayList<>();
    setpriv.ifPresent(stages::add);
    stages.add(bwrap);
    return stages;
  }

  /** Whether a root host drops to {@link #UNPRIVILEGED_ID} before bubblewrap. */
  public boolean dropsRoot() {
    return setpriv.isPresent();
  }

  /**
   * Returns the argv that runs the program appended to it isolated under {@code plan}: {@code
   * [setpriv --reuid=65534 --regid=65534 --clear-groups --] bwrap OPTIONS --}. {@code readOnly}
   * host directories (the package directory, an interpreter outside the system directories) are
   * bound read-only at their own paths after the plan's binds' parents; missing ones are skipped.
   */
  public List<String> prefix(IsolationPlan plan, List<Path> readOnly) {
    List<String> argv = new ArrayList<>();
    if (setpriv.isPresent()) {
      argv.add(setpriv.get().toString());
      argv.add("--reuid=" + UNPRIVILEGED_ID);
      argv.add("--regid=" + UNPRIVILEGED_ID);
      argv.add("--clear-groups");
      argv.add("--");
    }
    argv.add(bwrap.toString());
    argv.add("--unshare-all");
    if (plan.network()) {
      argv.add("--share-net");
    }
    argv.add("--uid");
    argv.add(Integer.toString(SANDBOX_ID));
    argv.add("--gid");
    argv.add(Integer.toString(SANDBOX_ID));
    argv.add("--die-with-parent");
    argv.add("--new-session");
    argv.add("--cap-drop");
    argv.add("ALL");
    for (String dir : SYSTEM_DIRECTORIES) {
      Path path = Path.of(dir);
      if (Files.isSymbolicLink(path)) {
        try {
          String target = Files.readSymbolicLink(path).toString();
          argv.add("--symlink");
          argv.add(target);
          argv.add(dir);
        } catch (IOException e) {
          // Unreadable link: the directory stays absent from the view.
        }
      } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        argv.add("--ro-bind");
        argv.add(dir);
        argv.add(dir);
      }
    }
    argv.add("--proc");
    argv.add("/proc");
    argv.add("--dev");
    argv.add("/dev");
    argv.add("--size");
    argv.add(Long.toString(scratchBytes));
    argv.add("--tmpfs");
    argv.add(SCRATCH);
    Set<Path> bound = new LinkedHashSet<>();
    for (IsolationBind bind : plan.binds()) {
      if (Files.isDirectory(bind.hostPath()) && bound.add(bind.hostPath())) {
        argv.add(bind.writable() ? "--bind" : "--ro-bind");
        argv.add(bind.hostPath().toString());
        argv.add(bind.hostPath().toString());
      }
    }
    for (Path dir : readOnly) {
      Path absolute = dir.toAbsolutePath().normalize();
      if (!underSystem(absolute) && Files.isDirectory(absolute) && bound.add(absolute)) {
        argv.add("--ro-bind");
        argv.add(absolute.toString());
        argv.add(absolute.toString());
      }
    }
    argv.add("--chdir");
    argv.add(SCRATCH);
    argv.add("--setenv");
    argv.add("HOME");
    argv.add(SCRATCH);
    argv.add("--setenv");
    argv.add("TMPDIR");
    argv.add(SCRATCH);
    argv.add("--");
    return argv;
  }

  /** Whether {@code path} is inside a system directory that the view always shows. */
  public static boolean underSystem(Path path) {
    for (String dir : SYSTEM_DIRECTORIES) {
      if (path.startsWith(dir)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the host directory that makes {@code file} (a launcher, an interpreter, a jar) work
   * inside the view: its directory, or the one above when that is {@code bin} or {@code lib} (a
   * JDK's {@code bin/java}, a package's {@code bin/provider}); empty under the system directories.
   */
  public static Optional<Path> homeOf(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path parent = absolute.getParent();
    if (parent == null || underSystem(absolute)) {
      return Optional.empty();
    }
    Path name = parent.getFileName();
    Path grand = parent.getParent();
    if (name != null
        && grand != null
        && grand.getParent() != null
        && (name.toString().equals("bin") || name.toString().equals("lib"))) {
      return Optional.of(grand);
    }
    return Optional.of(parent);
  }

  /**
   * Returns the isolated identity record of {@code base}: {@code {"schema_version":
   * IDENTITY_SCHEMA, "runtime": base, "tool": "bwrap", "bwrap": <file digest>, "setpriv": <file
   * digest>}} ({@code setpriv} only when it is used), whose canonical SHA-256 is the runtime
   * identity of an isolated host, so that enabling isolation or upgrading the tool gives another
   * runtime identity (docs/contract/doctor.md).
   */
  public ObjectNode isolatedRecord(String base) {
    ObjectNode record = JsonNodeFactory.instance.objectNode();
    record.put("schema_version", IDENTITY_SCHEMA);
    record.put("runtime", base);
    record.put("tool", "bwrap");
    record.put("bwrap", digest(bwrap));
    setpriv.ifPresent(p -> record.put("setpriv", digest(p)));
    return record;
  }

  private final Object digestLock = new Object();
  private @Nullable String bwrapStamp;
  private @Nullable String bwrapDigest;
  private @Nullable String setprivStamp;
  private @Nullable String setprivDigest;

  /** The tool file's digest, hashed again only when its stamp changed. */
  private String digest(Path file) {
    synchronized (digestLock) {
      boolean isBwrap = file.equals(bwrap);
      String now = stamp(file);
      String last = isBwrap ? bwrapStamp : setprivStamp;
      String lastDigest = isBwrap ? bwrapDigest : setprivDigest;
      if (lastDigest != null && now.equals(last)) {
        return lastDigest;
      }
      String digest = fileIdentity(file);
      if (isBwrap) {
        bwrapStamp = now;
        bwrapDigest = digest;
      } else {
        setprivStamp = now;
        setprivDigest = digest;
      }
      return digest;
    }
  }

  /** Device, inode, size, modification and change time of {@code file}; "" when unreadable. */
  private static String stamp(Path file) {
    try {
      return Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime,ctime").toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * The file identity of {@code file} (docs/contract/doctor.md#file-identity): the SHA-256 of the
   * canonical {@code {"schema_version":"loopx_runtime_entrypoint_identity_v1",
   * "kind":"file_artifact","executable":..,"size":..,"content_sha256":..}}; {@code "missing"} for a
   * tool that vanished (an identity no proof covers, so the doctor must run again).
   */
  static String fileIdentity(Path file) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      long size = 0;
      try (InputStream in = Files.newInputStream(file)) {
        byte[] buffer = new byte[65_536];
        int n;
        while ((n = in.read(buffer)) >= 0) {
          sha.update(buffer, 0, n);
          size += n;
        }
      }
      ObjectNode record = JsonNodeFactory.instance.objectNode();
      record.put("schema_version", "loopx_runtime_entrypoint_identity_v1");
      record.put("kind", "file_artifact");
      Set<PosixFilePermission> bits = Files.getPosixFilePermissions(file);
      record.put(
          "executable",
          bits.contains(PosixFilePermission.OWNER_EXECUTE)
              || bits.contains(PosixFilePermission.GROUP_EXECUTE)
              || bits.contains(PosixFilePermission.OTHERS_EXECUTE));
      record.put("size", size);
      record.put("content_sha256", HexFormat.of().formatHex(sha.digest()));
      return CanonicalJson.sha256Hex(record);
    } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
      return "missing";
    }
  }

  @Override
  public String toString() {
    return "Bubblewrap[" + bwrap + setpriv.map(p -> ", drop root with " + p).orElse("") + "]";
  }
}
