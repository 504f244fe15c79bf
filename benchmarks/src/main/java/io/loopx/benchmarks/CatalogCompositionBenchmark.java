package io.loopx.benchmarks;

import com.electronwill.nightconfig.core.CommentedConfig;
import com.electronwill.nightconfig.toml.TomlParser;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.CatalogScope;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Catalog composition from 1,000 declaration-only manifests on disk: the path of {@code loopx
 * capability list --extension-manifest PATH...} in the sample CLI. Setup writes 1,000 valid {@code
 * extension.toml} files (docs/contract/manifest.md; distinct ids, each with a {@code [runtime]},
 * one permission, three {@code [[provides]]} with one descriptive extra key, and one {@code
 * [[implements]]} of its own capability) into their own directories under a temp dir.
 *
 * <p>Measured ({@code loopxComposeCatalog}): {@link LoadedManifest#load} on each file (read, strict
 * UTF-8, the TOML pre-scan (a check that builds no values), night-config's parse into the one tree,
 * every docs/contract/manifest.md rule and the normalised manifest; its revision is computed on
 * demand, not here) and then {@link Loopx#registryWith} (reads the absent activation state,
 * assembles and seals the registry with the 1,000 declarations: 3,000 capabilities, 1,000
 * implementations). No provider code is loaded or run. Baseline ({@code baselineNightConfigParse}):
 * for each file, {@link Files#readString} and night-config's {@link TomlParser} into a {@code
 * Config}. Target ratio: at most 1.5.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CatalogCompositionBenchmark {
  static final int MANIFESTS = 1000;

  private static final String[] DOMAINS = {
    "mail", "calendar", "notes", "tasks", "contacts", "files", "photos", "music", "maps", "weather"
  };

  private Path root;
  private List<Path> files;
  private Loopx loopx;

  /** Writes the 1,000 manifests and builds the facade (state under an empty runtime root). */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("loopx-bench-catalog");
    files = new ArrayList<>(MANIFESTS);
    for (int n = 0; n < MANIFESTS; n++) {
      Path dir = Files.createDirectory(root.resolve(String.format("ext-%04d", n)));
      Path file = dir.resolve("extension.toml");
      Files.writeString(file, manifest(n));
      files.add(file);
    }
    loopx = Loopx.builder().runtimeRoot(root.resolve("runtime")).build();
    CapabilityRegistry check = loopxComposeCatalog();
    if (check.capabilities(CatalogScope.INCLUDE_INTERNAL).size() != 3 * MANIFESTS
        || check.providers().size() != MANIFESTS
        || baselineNightConfigParse().size() != MANIFESTS) {
      throw new IllegalStateException("unexpected catalog " + check);
    }
  }

  /** Deletes the manifests. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** LoopX: load and validate every manifest, then compose the catalog with them declared. */
  @Benchmark
  public CapabilityRegistry loopxComposeCatalog() {
    List<LoadedManifest> declared = new ArrayList<>(files.size());
    for (Path file : files) {
      declared.add(LoadedManifest.load(file));
    }
    return loopx.registryWith(declared);
  }

  /** Baseline: read every file and parse it with night-config's TOML parser. */
  @Benchmark
  public List<CommentedConfig> baselineNightConfigParse() throws IOException {
    List<CommentedConfig> configs = new ArrayList<>(files.size());
    TomlParser parser = new TomlParser();
    for (Path file : files) {
      configs.add(parser.parse(Files.readString(file)));
    }
    return configs;
  }

  /** A valid manifest with a distinct id; realistic size (about 1.3 KB). */
  static String manifest(int n) {
    String domain = DOMAINS[n % DOMAINS.length];
    String id = domain + "-tools-" + n;
    String protocol = domain + "_tools_" + n + "_provider_v1";
    StringBuilder b = new StringBuilder();
    b.append("# ").append(id).append(": declaration-only benchmark manifest.\n");
    b.append("schema_version = \"loopx_extension_manifest_v0\"\n");
    b.append("id = \"").append(id).append("\"\n");
    b.append("version = \"1.").append(n % 7).append(".0\"\n");
    b.append("requires_loopx_api = \">=1,<2\"\n");
    b.append("permissions = [\"").append(domain).append(".read\"]\n\n");
    b.append("[runtime]\n");
    b.append("protocol = \"").append(protocol).append("\"\n");
    b.append("entrypoint = \"bin/").append(id).append("\"\n");
    b.append("doctor_args = [\"--doctor\"]\n");
    b.append("required_permissions = [\"").append(domain).append(".read\"]\n");
    b.append("timeout_seconds = 30\n");
    String[] verbs = {"search", "summarize", "export"};
    for (int k = 0; k < verbs.length; k++) {
      String verb = verbs[k];
      b.append("\n[[provides]]\n");
      b.append("id = \"").append(id).append('-').append(verb).append("\"\n");
      b.append("kind = \"").append(domain).append('_').append(verb).append("\"\n");
      b.append("title = \"").append(domain).append(' ').append(verb).append(" tools\"\n");
      b.append("status = \"beta\"\n");
      b.append("user_value = \"")
          .append(verb)
          .append(" your ")
          .append(domain)
          .append(" without leaving the host\"\n");
      b.append("next_real_step = \"wire ").append(verb).append(" to a real account\"\n");
      if (k == 2) {
        b.append("visibility = \"internal\"\n");
      } else {
        b.append("real_world_anchor = \"the user's own ").append(domain).append("\"\n");
        b.append("entry_command = \"loopx ").append(domain).append(' ').append(verb).append("\"\n");
        b.append("tags = [\"").append(domain).append("\", \"").append(verb).append("\"]\n");
      }
    }
    b.append("\n[[implements]]\n");
    b.append("capability_id = \"").append(id).append("-search\"\n");
    b.append("protocol = \"").append(protocol).append("\"\n");
    return b.toString();
  }
}
