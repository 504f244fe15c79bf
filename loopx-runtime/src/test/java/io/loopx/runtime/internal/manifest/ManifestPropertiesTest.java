package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.ApiRange;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.SurfaceVisibility;
import io.loopx.api.manifest.Visibility;
import io.loopx.runtime.internal.manifest.TomlRenderer.Raw;
import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.manifest.LoadedManifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Properties over generated manifests: they load to the expected model; the revision ignores key
 * order, comments and whitespace but changes with every normalised field; single-field corruptions
 * are rejected with the corrupted key; snapshots round-trip.
 */
class ManifestPropertiesTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final int EXAMPLES = 150;

  // ------------------------------------------------------------------ the generated model

  record Rt(
      String protocol,
      boolean javaMain,
      String target,
      List<String> args,
      List<String> doctorArgs,
      List<String> required,
      Optional<Integer> timeout,
      List<String> classPath,
      Optional<Integer> memoryMb) {
    Rt(
        String protocol,
        boolean javaMain,
        String target,
        List<String> args,
        List<String> doctorArgs,
        List<String> required,
        Optional<Integer> timeout,
        List<String> classPath) {
      this(
          protocol,
          javaMain,
          target,
          args,
          doctorArgs,
          required,
          timeout,
          classPath,
          Optional.empty());
    }
  }

  record Prov(
      String id,
      String kind,
      String title,
      String status,
      Optional<String> visibility,
      String userValue,
      String nextRealStep,
      Optional<String> anchor,
      Optional<String> entryCommand,
      Map<String, Object> metadata) {}

  record Surf(
      String id,
      String kind,
      String title,
      String viewSchema,
      String validator,
      String visibility,
      Optional<String> emptyTitle,
      Optional<String> emptyDetail) {}

  record Spec(
      String id,
      String version,
      String api,
      List<String> permissions,
      Optional<Rt> runtime,
      List<Prov> provides,
      List<String> implementsIds,
      List<Surf> surfaces) {

    /** The manifest as a tree of plain values, in the shape of the TOML document. */
    Map<String, Object> toDoc() {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("schema_version", ExtensionManifest.SCHEMA_VERSION);
      doc.put("id", id);
      doc.put("version", version);
      doc.put("requires_loopx_api", api);
      if (!permissions.isEmpty()) {
        doc.put("permissions", new ArrayList<Object>(permissions));
      }
      runtime.ifPresent(
          rt -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("protocol", rt.protocol());
            t.put(rt.javaMain() ? "java_main" : "entrypoint", rt.target());
            if (!rt.classPath().isEmpty()) {
              t.put("java_class_path", new ArrayList<Object>(rt.classPath()));
            }
            if (!rt.args().isEmpty()) {
              t.put("args", new ArrayList<Object>(rt.args()));
            }
            if (!rt.doctorArgs().isEmpty()) {
              t.put("doctor_args", new ArrayList<Object>(rt.doctorArgs()));
            }
            if (!rt.required().isEmpty()) {
              t.put("required_permissions", new ArrayList<Object>(rt.required()));
            }
            rt.timeout().ifPresent(v -> t.put("timeout_seconds", v));
            rt.memoryMb().ifPresent(v -> t.put("memory_mb", v));
            doc.put("runtime", t);
          });
      if (!provides.isEmpty()) {
        List<Object> list = new ArrayList<>();
        for (Prov p : provides) {
          Map<String, Object> t = new LinkedHashMap<>();
          t.put("id", p.id());
          t.put("kind", p.kind());
          t.put("title", p.title());
          t.put("status", p.status());
          p.visibility().ifPresent(v -> t.put("visibility", v));
          t.put("user_value", p.userValue());
          t.put("next_real_step", p.nextRealStep());
          p.anchor().ifPresent(v -> t.put("real_world_anchor", v));
          p.entryCommand().ifPresent(v -> t.put("entry_command", v));
          t.putAll(p.metadata());
          list.add(t);
        }
        doc.put("provides", list);
      }
      if (!implementsIds.isEmpty()) {
        List<Object> list = new ArrayList<>();
        for (String cap : implementsIds) {
          Map<String, Object> t = new LinkedHashMap<>();
          t.put("capability_id", cap);
          t.put("protocol", runtime.orElseThrow().protocol());
          list.add(t);
        }
        doc.put("implements", list);
      }
      if (!surfaces.isEmpty()) {
        List<Object> list = new ArrayList<>();
        for (Surf s : surfaces) {
          Map<String, Object> t = new LinkedHashMap<>();
          t.put("id", s.id());
          t.put("kind", s.kind());
          t.put("title", s.title());
          t.put("view_schema", s.viewSchema());
          t.put("view_validator", s.validator());
          t.put("visibility", s.visibility());
          s.emptyTitle().ifPresent(v -> t.put("empty_state_title", v));
          s.emptyDetail().ifPresent(v -> t.put("empty_state_detail", v));
          list.add(t);
        }
        doc.put("presentation_surfaces", list);
      }
      return doc;
    }

    /** The expected manifest, built directly from the records of loopx-api. */
    ExtensionManifest expected() {
      Optional<RuntimeSpec> rt =
          runtime.map(
              r ->
                  new RuntimeSpec(
                      ProtocolId.of(r.protocol()),
                      r.javaMain()
                          ? new LaunchTarget.JavaMain(r.target(), r.classPath())
                          : new LaunchTarget.Executable(r.target()),
                      r.args(),
                      r.doctorArgs(),
                      r.required().stream().map(Permission::of).toList(),
                      r.timeout().orElse(RuntimeSpec.DEFAULT_TIMEOUT_SECONDS),
                      Optional.empty(),
                      r.memoryMb().map(OptionalInt::of).orElse(OptionalInt.empty())));
      return new ExtensionManifest(
          ExtensionId.of(id),
          version,
          ApiRange.parse(api),
          permissions.stream().map(Permission::of).toList(),
          rt,
          provides.stream()
              .map(
                  p -> {
                    Map<String, JsonNode> meta = new LinkedHashMap<>();
                    p.metadata().forEach((k, v) -> meta.put(k, toJson(v)));
                    return new ProvidedCapability(
                        CapabilityId.of(p.id()),
                        KindToken.of(p.kind()),
                        p.title(),
                        p.status(),
                        p.visibility().orElse("public").equals("public")
                            ? Visibility.PUBLIC
                            : Visibility.INTERNAL,
                        p.userValue(),
                        p.nextRealStep(),
                        p.anchor(),
                        p.entryCommand(),
                        meta);
                  })
              .toList(),
          implementsIds.stream()
              .map(
                  c ->
                      new Implementation(
                          CapabilityId.of(c), ProtocolId.of(runtime.orElseThrow().protocol())))
              .toList(),
          surfaces.stream()
              .map(
                  s ->
                      new PresentationSurface(
                          s.id(),
                          KindToken.of(s.kind()),
                          s.title(),
                          ProtocolId.of(s.viewSchema()),
                          s.validator(),
                          s.visibility().equals("public-safe")
                              ? SurfaceVisibility.PUBLIC_SAFE
                              : SurfaceVisibility.OWNER_ONLY,
                          s.emptyTitle(),
                          s.emptyDetail()))
              .toList());
    }
  }

  private static JsonNode toJson(Object value) {
    if (value instanceof String s) {
      return NODES.stringNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i.intValue());
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l.longValue());
    }
    if (value instanceof List<?> list) {
      ArrayNode a = NODES.arrayNode();
      list.forEach(v -> a.add(toJson(v)));
      return a;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode o = NODES.objectNode();
      map.forEach((k, v) -> o.set((String) k, toJson(v)));
      return o;
    }
    throw new IllegalArgumentException(String.valueOf(value));
  }

  // ------------------------------------------------------------------ generators

  private static final List<String> WORDS =
      List.of("alpha", "beta", "gamma", "delta", "omega", "kappa", "zeta", "sigma", "rho", "tau");
  private static final List<String> TEXT_PARTS =
      List.of(
          "Report",
          "données",
          "漢字",
          "naïve",
          "Σ",
          "quote\"d",
          "back\\slash",
          "nbsp\u00A0in",
          "#hash",
          "'apos'",
          "1/2",
          "émoji 😀",
          "a = b",
          "[x]",
          "{y}");
  private static final List<String> PLAIN_PARTS =
      List.of("Report", "données", "漢字", "naïve", "Board", "daily", "summary", "1/2", "x-y", "#3");

  private static Gen<String> word() {
    return Generate.pick(WORDS);
  }

  private static Gen<String> kebab() {
    return word()
        .zip(
            word(),
            integers().between(0, 99),
            Generate.booleans(),
            (a, b, n, two) -> two ? a + "-" + b + n : a + n);
  }

  private static Gen<String> snake() {
    return word().zip(word(), Generate.booleans(), (a, b, two) -> two ? a + "_" + b : a);
  }

  private static Gen<String> protocol() {
    return snake().zip(integers().between(0, 9), (s, v) -> s + "_v" + v);
  }

  private static <T> Gen<List<T>> listOf(Gen<T> element, int max) {
    return rs -> {
      int n = integers().between(0, max).generate(rs);
      List<T> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(element.generate(rs));
      }
      return out;
    };
  }

  private static <T> Gen<List<T>> distinctListOf(Gen<T> element, int max) {
    return listOf(element, max).map(l -> List.copyOf(new LinkedHashSet<>(l)));
  }

  private static Gen<String> text(List<String> parts) {
    return listOf(Generate.pick(parts), 3)
        .zip(
            Generate.pick(parts),
            (more, first) -> {
              List<String> all = new ArrayList<>(more);
              all.add(0, first);
              return String.join(" ", all);
            });
  }

  private static Gen<String> permission() {
    return word()
        .zip(Generate.pick(List.of("read", "write", "manage", "send")), (a, b) -> a + "." + b);
  }

  private static Gen<String> argument() {
    return Generate.pick(List.of("--doctor", "--serve", "-v", "--name=x y", "ü", "a\"b", "c:\\d"));
  }

  private static Gen<String> classPathEntry() {
    return Generate.pick(
        List.of(
            "lib/a.jar", "./lib/b.jar", "../shared/c.jar", "classes/", "lib/ü.jar", "lib/a b.jar"));
  }

  private static Gen<Object> metadataValue() {
    Gen<Object> scalar =
        Generate.oneOf(
            text(TEXT_PARTS).map(s -> (Object) s),
            Generate.booleans().map(b -> (Object) b),
            longs().between(-(1L << 53) + 1, (1L << 53) - 1).map(l -> normalised(l)),
            integers().between(-5, 5).map(i -> (Object) i));
    Gen<Object> array = listOf(scalar, 3).map(l -> (Object) l);
    Gen<Object> table =
        rs -> {
          Map<String, Object> m = new LinkedHashMap<>();
          for (String k : distinctListOf(word(), 3).generate(rs)) {
            m.put(k, Generate.oneOf(scalar, array).generate(rs));
          }
          return m;
        };
    return Generate.oneOf(scalar, array, table);
  }

  private static Object normalised(long l) {
    return l == (int) l ? (Object) (int) l : (Object) l;
  }

  private static Gen<Rt> runtimes(List<String> permissions) {
    return rs -> {
      boolean javaMain = Generate.booleans().generate(rs);
      String target =
          javaMain
              ? "io." + word().generate(rs) + ".Main" + integers().between(0, 9).generate(rs)
              : Generate.pick(List.of("bin/", "./", "", "/opt/x/")).generate(rs)
                  + kebab().generate(rs);
      List<String> classPath =
          javaMain && Generate.booleans().generate(rs)
              ? distinctListOf(classPathEntry(), 3).generate(rs)
              : List.of();
      List<String> required = new ArrayList<>();
      for (String p : permissions) {
        if (Generate.booleans().generate(rs)) {
          required.add(p);
        }
      }
      return new Rt(
          protocol().generate(rs),
          javaMain,
          target,
          listOf(argument(), 3).generate(rs),
          listOf(argument(), 2).generate(rs),
          required,
          Generate.booleans().generate(rs)
              ? Optional.of(integers().between(1, 120).generate(rs))
              : Optional.empty(),
          classPath,
          Generate.booleans().generate(rs)
              ? Optional.of(
                  integers()
                      .between(RuntimeSpec.MIN_MEMORY_MB, RuntimeSpec.MAX_MEMORY_MB)
                      .generate(rs))
              : Optional.empty());
    };
  }

  private static Gen<Prov> provides(String id) {
    return rs -> {
      Optional<String> visibility =
          Generate.pick(
                  List.of(Optional.<String>empty(), Optional.of("public"), Optional.of("internal")))
              .generate(rs);
      boolean isPublic = visibility.orElse("public").equals("public");
      Map<String, Object> metadata = new LinkedHashMap<>();
      for (String k :
          distinctListOf(Generate.pick(List.of("tags", "owner", "tier", "extra", "notes")), 3)
              .generate(rs)) {
        metadata.put(k, metadataValue().generate(rs));
      }
      return new Prov(
          id,
          snake().generate(rs),
          text(TEXT_PARTS).generate(rs),
          Generate.pick(List.of("active", "experimental", "planned")).generate(rs),
          visibility,
          text(TEXT_PARTS).generate(rs),
          text(TEXT_PARTS).generate(rs),
          isPublic || Generate.booleans().generate(rs)
              ? Optional.of(text(TEXT_PARTS).generate(rs))
              : Optional.empty(),
          isPublic || Generate.booleans().generate(rs)
              ? Optional.of("loopx " + word().generate(rs) + " run")
              : Optional.empty(),
          metadata);
    };
  }

  private static Gen<Surf> surfaces(String id) {
    return rs ->
        new Surf(
            id,
            snake().generate(rs),
            text(PLAIN_PARTS).generate(rs),
            protocol().generate(rs),
            "io." + word().generate(rs) + ".View#" + word().generate(rs),
            Generate.pick(List.of("public-safe", "owner-only")).generate(rs),
            Generate.booleans().generate(rs)
                ? Optional.of(text(PLAIN_PARTS).generate(rs))
                : Optional.empty(),
            Generate.booleans().generate(rs)
                ? Optional.of(text(PLAIN_PARTS).generate(rs))
                : Optional.empty());
  }

  static Gen<Spec> specs() {
    return rs -> {
      List<String> permissions = distinctListOf(permission(), 3).generate(rs);
      Optional<Rt> runtime =
          integers().between(0, 3).generate(rs) > 0 // three in four have a runtime
              ? Optional.of(runtimes(permissions).generate(rs))
              : Optional.empty();
      List<Prov> provides = new ArrayList<>();
      for (String id : distinctListOf(kebab(), 2).generate(rs)) {
        provides.add(provides(id).generate(rs));
      }
      if (runtime.isEmpty() && provides.isEmpty()) {
        provides.add(provides("fallback-cap").generate(rs));
      }
      List<String> impls =
          runtime.isPresent() ? distinctListOf(kebab(), 2).generate(rs) : List.of();
      List<Surf> surfaces = new ArrayList<>();
      if (runtime.isPresent()) {
        for (String id : distinctListOf(kebab(), 2).generate(rs)) {
          surfaces.add(surfaces(id).generate(rs));
        }
      }
      return new Spec(
          kebab().generate(rs),
          integers().between(0, 9).generate(rs)
              + "."
              + integers().between(0, 20).generate(rs)
              + Generate.pick(List.of("", ".0", "-beta", " build 7")).generate(rs),
          Generate.pick(List.of(">=1,<2", "1", "==1", ">=1", "<2", ">0, <=1", " >= 1 "))
              .generate(rs)
              .strip(),
          permissions,
          runtime,
          provides,
          impls,
          surfaces);
    };
  }

  // ------------------------------------------------------------------ properties

  @Test
  void generatedManifestsLoadToTheExpectedModel() {
    qt().withExamples(EXAMPLES)
        .forAll(specs(), longs().all())
        .checkAssert(
            (spec, seed) -> {
              String toml = TomlRenderer.render(spec.toDoc(), new Random(seed));
              LoadedManifest loaded = parseOrFail(toml);
              assertThat(loaded.manifest().toCanonicalJson())
                  .as(toml)
                  .isEqualTo(spec.expected().toCanonicalJson());
              assertThat(loaded.manifest()).isEqualTo(spec.expected());
            });
  }

  @Test
  void revisionIgnoresKeyOrderCommentsAndWhitespace() {
    qt().withExamples(EXAMPLES)
        .forAll(specs(), longs().all(), longs().all())
        .checkAssert(
            (spec, seedA, seedB) -> {
              String a = TomlRenderer.render(spec.toDoc(), new Random(seedA));
              String b = TomlRenderer.render(spec.toDoc(), new Random(seedB));
              assertThat(parseOrFail(a).revision())
                  .as("%s%n----%n%s", a, b)
                  .isEqualTo(parseOrFail(b).revision());
            });
  }

  @Test
  void revisionChangesWhenAnyNormalisedFieldChanges() {
    qt().withExamples(EXAMPLES / 3)
        .forAll(specs(), longs().all())
        .checkAssert(
            (spec, seed) -> {
              String original = TomlRenderer.render(spec.toDoc(), new Random(seed));
              String revision = parseOrFail(original).revision().value();
              for (Map.Entry<String, Function<Spec, Optional<Spec>>> m : mutations().entrySet()) {
                Optional<Spec> changed = m.getValue().apply(spec);
                if (changed.isPresent()) {
                  String toml = TomlRenderer.render(changed.get().toDoc(), new Random(seed));
                  assertThat(parseOrFail(toml).revision().value())
                      .as("mutation %s of%n%s", m.getKey(), toml)
                      .isNotEqualTo(revision);
                }
              }
              for (Map.Entry<String, Function<Spec, Optional<Spec>>> m : invariants().entrySet()) {
                Optional<Spec> same = m.getValue().apply(spec);
                if (same.isPresent()) {
                  String toml = TomlRenderer.render(same.get().toDoc(), new Random(seed));
                  assertThat(parseOrFail(toml).revision().value())
                      .as("default made explicit: %s", m.getKey())
                      .isEqualTo(revision);
                }
              }
            });
  }

  /**
   * Bad input: each example corrupts one field of a generated manifest and must be rejected with a
   * {@link ManifestException} naming the corrupted key. The count is {@code
   * -Dloopx.reliability.badManifests} (default 300; the {@code reliability} profile raises it); the
   * tally is written to {@code target/reliability/bad-manifests.txt}.
   */
  @Test
  void singleFieldCorruptionsAreRejectedWithTheirKey() {
    int examples = Reliability.count("badManifests", EXAMPLES * 2);
    Map<String, Integer> kinds = new TreeMap<>();
    Map<String, Integer> replacements = new TreeMap<>();
    Set<String> keys = new TreeSet<>();
    int[] tried = {0};
    long started = System.nanoTime();
    qt().withExamples(examples)
        .forAll(specs(), longs().all(), integers().between(0, Integer.MAX_VALUE - 1))
        .checkAssert(
            (spec, seed, pick) -> {
              Map<String, Object> doc = spec.toDoc();
              List<String> paths = corruptiblePaths(doc);
              String path = paths.get(pick % paths.size());
              Random random = new Random(seed);
              Raw replacement = corruptionFor(path, random);
              Map<String, Object> corrupted = TomlRenderer.replace(doc, path, replacement);
              String toml = TomlRenderer.render(corrupted, random);
              tried[0]++;

              Throwable thrown = catchThrowable(() -> parse(toml));

              assertThat(thrown)
                  .as("%s = %s in%n%s", path, replacement, toml)
                  .isInstanceOf(LoopxException.class)
                  .isInstanceOf(ManifestException.class);
              assertThat(((ManifestException) thrown).key())
                  .as(thrown.getMessage())
                  .isEqualTo(path);
              kinds.merge(((LoopxException) thrown).kind().wireName(), 1, Integer::sum);
              replacements.merge(replacement.literal(), 1, Integer::sum);
              keys.add(path.replaceAll("\\[\\d+]", "[]"));
            });
    int rejected = kinds.values().stream().mapToInt(Integer::intValue).sum();
    Reliability.report(
        "bad-manifests.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "bad-manifests: %d generated manifests with one corrupted field (%d examples"
                    + " asked, repeats skipped; QT_SEED %s); %d rejected with ManifestException"
                    + " naming the corrupted key, by kind %s; %d distinct keys corrupted;"
                    + " replacements %s; wall %.1f s",
                tried[0],
                examples,
                System.getProperty("QT_SEED", "random"),
                rejected,
                kinds,
                keys.size(),
                replacements,
                (System.nanoTime() - started) / 1e9)));
    // QuickTheories skips a generated value it has already tried, so a few examples may be fewer.
    assertThat(tried[0]).isPositive().isLessThanOrEqualTo(examples);
    assertThat(rejected).isEqualTo(tried[0]);
  }

  /**
   * Every problem at once: a generated manifest with up to four independent corrupted keys (no key
   * inside another, at most one element per array) reports at least one problem per corrupted key,
   * each named, and the exception is the first problem.
   */
  @Test
  void independentCorruptionsAreAllReported() {
    qt().withExamples(EXAMPLES)
        .forAll(specs(), longs().all(), integers().between(1, 4))
        .checkAssert(
            (spec, seed, k) -> {
              Map<String, Object> doc = spec.toDoc();
              Random random = new Random(seed);
              List<String> paths = new ArrayList<>(corruptiblePaths(doc));
              java.util.Collections.shuffle(paths, random);
              List<String> chosen = new ArrayList<>();
              for (String path : paths) {
                if (chosen.size() < k && chosen.stream().allMatch(c -> independent(c, path))) {
                  chosen.add(path);
                }
              }
              Map<String, Object> corrupted = doc;
              for (String path : chosen) {
                corrupted = TomlRenderer.replace(corrupted, path, corruptionFor(path, random));
              }
              String toml = TomlRenderer.render(corrupted, random);

              Throwable thrown = catchThrowable(() -> parse(toml));

              assertThat(thrown)
                  .as("%s in%n%s", chosen, toml)
                  .isInstanceOf(ManifestException.class);
              ManifestException e = (ManifestException) thrown;
              assertThat(e.problems()).as(toml).hasSizeGreaterThanOrEqualTo(chosen.size());
              assertThat(e.problems().get(0).message()).isEqualTo(e.getMessage());
              assertThat(e.problems().get(0).key()).isEqualTo(e.key());
              assertThat(e.problems())
                  .as(toml)
                  .extracting(io.loopx.api.manifest.ManifestProblem::key)
                  .containsAll(chosen);
              assertThat(e.problems())
                  .as("every problem of a key has a line: %s", e.problems())
                  .allMatch(
                      p -> p.key().equals(ManifestException.FILE_KEY) || p.line().isPresent());
            });
  }

  /** Whether corrupting {@code a} and {@code b} are independent faults. */
  private static boolean independent(String a, String b) {
    return !isWithin(a, b)
        && !isWithin(b, a)
        && !a.replaceAll("\\[\\d+]$", "").equals(b.replaceAll("\\[\\d+]$", ""));
  }

  private static boolean isWithin(String outer, String inner) {
    return inner.equals(outer) || inner.startsWith(outer + ".") || inner.startsWith(outer + "[");
  }

  @Test
  void normalisedSnapshotsRoundTrip() {
    qt().withExamples(EXAMPLES)
        .forAll(specs(), longs().all())
        .checkAssert(
            (spec, seed) -> {
              ExtensionManifest m =
                  parseOrFail(TomlRenderer.render(spec.toDoc(), new Random(seed))).manifest();
              ObjectNode snapshot = m.toNormalizedJson();
              assertThat(LOADER.fromNormalizedJson(snapshot, "snapshot")).isEqualTo(m);
              JsonNode reparsed = MAPPER.readTree(CanonicalJson.toText(snapshot));
              ExtensionManifest back = LOADER.fromNormalizedJson(reparsed, "snapshot");
              assertThat(back).isEqualTo(m);
              assertThat(back.revision()).isEqualTo(m.revision());
            });
  }

  // ------------------------------------------------------------------ mutations and corruptions

  /** Changes of one normalised field; each must change the revision. */
  private static Map<String, Function<Spec, Optional<Spec>>> mutations() {
    Map<String, Function<Spec, Optional<Spec>>> m = new LinkedHashMap<>();
    m.put(
        "id",
        s ->
            Optional.of(
                new Spec(
                    s.id() + "x",
                    s.version(),
                    s.api(),
                    s.permissions(),
                    s.runtime(),
                    s.provides(),
                    s.implementsIds(),
                    s.surfaces())));
    m.put(
        "version",
        s ->
            Optional.of(
                new Spec(
                    s.id(),
                    s.version() + ".1",
                    s.api(),
                    s.permissions(),
                    s.runtime(),
                    s.provides(),
                    s.implementsIds(),
                    s.surfaces())));
    m.put(
        "api",
        s ->
            Optional.of(
                new Spec(
                    s.id(),
                    s.version(),
                    s.api().equals(">=1") ? "1" : ">=1",
                    s.permissions(),
                    s.runtime(),
                    s.provides(),
                    s.implementsIds(),
                    s.surfaces())));
    m.put(
        "permissions+", s -> Optional.of(withPermissions(s, append(s.permissions(), "zz.extra"))));
    m.put(
        "permissions order",
        s ->
            s.permissions().size() < 2
                ? Optional.empty()
                : Optional.of(withPermissions(s, reversed(s.permissions()))));
    m.put(
        "protocol",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol() + "0",
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "target",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target() + "x",
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "launch kind",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                !r.javaMain(),
                                r.javaMain() ? "bin/main" : "io.example.Main",
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                List.of(),
                                r.memoryMb()))));
    m.put(
        "java_class_path",
        s ->
            s.runtime()
                .filter(Rt::javaMain)
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                append(r.classPath(), "lib/extra.jar"),
                                r.memoryMb()))));
    m.put(
        "args",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                append(r.args(), "--more"),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "doctor_args",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                append(r.doctorArgs(), "--deep"),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "memory_mb",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb().isPresent()
                                    ? Optional.<Integer>empty()
                                    : Optional.of(RuntimeSpec.MIN_MEMORY_MB)))));
    m.put(
        "args vs doctor_args",
        s ->
            s.runtime()
                .filter(r -> !r.args().isEmpty())
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args().subList(1, r.args().size()),
                                append(r.doctorArgs(), r.args().get(0)),
                                r.required(),
                                r.timeout(),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "required_permissions",
        s ->
            s.runtime()
                .flatMap(
                    r ->
                        s.permissions().stream()
                            .filter(p -> !r.required().contains(p))
                            .findFirst()
                            .map(
                                p ->
                                    withRuntime(
                                        s,
                                        new Rt(
                                            r.protocol(),
                                            r.javaMain(),
                                            r.target(),
                                            r.args(),
                                            r.doctorArgs(),
                                            append(r.required(), p),
                                            r.timeout(),
                                            r.classPath(),
                                            r.memoryMb())))));
    m.put(
        "timeout",
        s ->
            s.runtime()
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                Optional.of(r.timeout().orElse(30) % 120 + 1),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "provides title",
        s ->
            s.provides().isEmpty()
                ? Optional.empty()
                : Optional.of(
                    withProvides(
                        s,
                        replaceFirst(
                            s.provides(),
                            p ->
                                new Prov(
                                    p.id(),
                                    p.kind(),
                                    p.title() + "!",
                                    p.status(),
                                    p.visibility(),
                                    p.userValue(),
                                    p.nextRealStep(),
                                    p.anchor(),
                                    p.entryCommand(),
                                    p.metadata())))));
    m.put(
        "provides visibility",
        s ->
            s.provides().stream()
                .findFirst()
                .filter(p -> p.anchor().isPresent() && p.entryCommand().isPresent())
                .map(
                    p ->
                        withProvides(
                            s,
                            replaceFirst(
                                s.provides(),
                                q ->
                                    new Prov(
                                        q.id(),
                                        q.kind(),
                                        q.title(),
                                        q.status(),
                                        Optional.of(
                                            q.visibility().orElse("public").equals("public")
                                                ? "internal"
                                                : "public"),
                                        q.userValue(),
                                        q.nextRealStep(),
                                        q.anchor(),
                                        q.entryCommand(),
                                        q.metadata())))));
    m.put(
        "provides metadata+",
        s ->
            s.provides().isEmpty()
                ? Optional.empty()
                : Optional.of(
                    withProvides(
                        s,
                        replaceFirst(
                            s.provides(),
                            p -> {
                              Map<String, Object> meta = new LinkedHashMap<>(p.metadata());
                              meta.put("added", true);
                              return new Prov(
                                  p.id(),
                                  p.kind(),
                                  p.title(),
                                  p.status(),
                                  p.visibility(),
                                  p.userValue(),
                                  p.nextRealStep(),
                                  p.anchor(),
                                  p.entryCommand(),
                                  meta);
                            }))));
    m.put(
        "provides metadata value",
        s ->
            s.provides().stream()
                .findFirst()
                .filter(p -> !p.metadata().isEmpty())
                .map(
                    p ->
                        withProvides(
                            s,
                            replaceFirst(
                                s.provides(),
                                q -> {
                                  Map<String, Object> meta = new LinkedHashMap<>(q.metadata());
                                  String key = meta.keySet().iterator().next();
                                  meta.put(key, List.of(meta.get(key)));
                                  return new Prov(
                                      q.id(),
                                      q.kind(),
                                      q.title(),
                                      q.status(),
                                      q.visibility(),
                                      q.userValue(),
                                      q.nextRealStep(),
                                      q.anchor(),
                                      q.entryCommand(),
                                      meta);
                                }))));
    m.put(
        "implements+",
        s ->
            s.runtime().isEmpty()
                ? Optional.empty()
                : Optional.of(
                    new Spec(
                        s.id(),
                        s.version(),
                        s.api(),
                        s.permissions(),
                        s.runtime(),
                        s.provides(),
                        append(s.implementsIds(), "extra-cap"),
                        s.surfaces())));
    m.put(
        "surface title",
        s ->
            s.surfaces().isEmpty()
                ? Optional.empty()
                : Optional.of(
                    withSurfaces(
                        s,
                        replaceFirst(
                            s.surfaces(),
                            x ->
                                new Surf(
                                    x.id(),
                                    x.kind(),
                                    x.title() + " 2",
                                    x.viewSchema(),
                                    x.validator(),
                                    x.visibility(),
                                    x.emptyTitle(),
                                    x.emptyDetail())))));
    m.put(
        "surface empty title",
        s ->
            s.surfaces().isEmpty()
                ? Optional.empty()
                : Optional.of(
                    withSurfaces(
                        s,
                        replaceFirst(
                            s.surfaces(),
                            x ->
                                new Surf(
                                    x.id(),
                                    x.kind(),
                                    x.title(),
                                    x.viewSchema(),
                                    x.validator(),
                                    x.visibility(),
                                    Optional.of(x.emptyTitle().orElse("") + "Empty"),
                                    x.emptyDetail())))));
    return m;
  }

  /** Making a default explicit must not change the revision. */
  private static Map<String, Function<Spec, Optional<Spec>>> invariants() {
    Map<String, Function<Spec, Optional<Spec>>> m = new LinkedHashMap<>();
    m.put(
        "timeout 30",
        s ->
            s.runtime()
                .filter(r -> r.timeout().isEmpty())
                .map(
                    r ->
                        withRuntime(
                            s,
                            new Rt(
                                r.protocol(),
                                r.javaMain(),
                                r.target(),
                                r.args(),
                                r.doctorArgs(),
                                r.required(),
                                Optional.of(30),
                                r.classPath(),
                                r.memoryMb()))));
    m.put(
        "visibility public",
        s ->
            s.provides().stream()
                .findFirst()
                .filter(p -> p.visibility().isEmpty())
                .map(
                    p ->
                        withProvides(
                            s,
                            replaceFirst(
                                s.provides(),
                                q ->
                                    new Prov(
                                        q.id(),
                                        q.kind(),
                                        q.title(),
                                        q.status(),
                                        Optional.of("public"),
                                        q.userValue(),
                                        q.nextRealStep(),
                                        q.anchor(),
                                        q.entryCommand(),
                                        q.metadata())))));
    return m;
  }

  /** Every non-metadata node of the document except the root, as a manifest key path. */
  private static List<String> corruptiblePaths(Map<String, Object> doc) {
    List<String> paths = new ArrayList<>();
    collect(doc, "", paths);
    return paths;
  }

  @SuppressWarnings("unchecked")
  private static void collect(Object node, String path, List<String> out) {
    if (node instanceof Map<?, ?> map) {
      for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
        String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        boolean metadata =
            path.matches("provides\\[\\d+]") && !ProvidedCapability.FIELD_KEYS.contains(e.getKey());
        if (!metadata) {
          out.add(child);
          collect(e.getValue(), child, out);
        }
      }
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        String child = path + "[" + i + "]";
        out.add(child);
        collect(list.get(i), child, out);
      }
    }
  }

  private static final Set<String> GRAMMAR_KEYS =
      Set.of(
          "schema_version",
          "id",
          "requires_loopx_api",
          "protocol",
          "kind",
          "capability_id",
          "view_schema",
          "view_validator",
          "visibility",
          "java_main");

  /** A replacement that is invalid wherever it is put (outside provides metadata). */
  private static Raw corruptionFor(String path, Random random) {
    List<Raw> pool =
        new ArrayList<>(
            List.of(
                new Raw("1979-05-27T07:32:00Z"),
                new Raw("3.25"),
                new Raw("true"),
                new Raw("-7"),
                new Raw("nan"),
                new Raw("07:32:00")));
    String last = path.replaceAll(".*\\.", "");
    if (GRAMMAR_KEYS.contains(last)) {
      pool.add(new Raw("\"Bad Value\""));
    }
    return pool.get(random.nextInt(pool.size()));
  }

  // ------------------------------------------------------------------ helpers

  private static LoadedManifest parseOrFail(String toml) {
    try {
      return parse(toml);
    } catch (LoopxException e) {
      throw new AssertionError(e.getMessage() + " in:\n" + toml, e);
    }
  }

  private static Spec withPermissions(Spec s, List<String> permissions) {
    return new Spec(
        s.id(),
        s.version(),
        s.api(),
        permissions,
        s.runtime(),
        s.provides(),
        s.implementsIds(),
        s.surfaces());
  }

  private static Spec withRuntime(Spec s, Rt rt) {
    return new Spec(
        s.id(),
        s.version(),
        s.api(),
        s.permissions(),
        Optional.of(rt),
        s.provides(),
        s.implementsIds(),
        s.surfaces());
  }

  private static Spec withProvides(Spec s, List<Prov> provides) {
    return new Spec(
        s.id(),
        s.version(),
        s.api(),
        s.permissions(),
        s.runtime(),
        provides,
        s.implementsIds(),
        s.surfaces());
  }

  private static Spec withSurfaces(Spec s, List<Surf> surfaces) {
    return new Spec(
        s.id(),
        s.version(),
        s.api(),
        s.permissions(),
        s.runtime(),
        s.provides(),
        s.implementsIds(),
        surfaces);
  }

  private static <T> List<T> append(List<T> list, T value) {
    List<T> out = new ArrayList<>(list);
    out.add(value);
    return out;
  }

  private static <T> List<T> reversed(List<T> list) {
    List<T> out = new ArrayList<>(list);
    java.util.Collections.reverse(out);
    return out;
  }

  private static <T> List<T> replaceFirst(List<T> list, Function<T, T> change) {
    List<T> out = new ArrayList<>(list);
    out.set(0, change.apply(out.get(0)));
    return out;
  }
}
