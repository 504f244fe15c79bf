package io.loopx.testkit;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * A stateful property test of the lifecycle: random sequences of 1..30 commands (install, upgrade
 * to one of six versions, enable, disable, rollback, doctor, doctor of all enabled) in preview or
 * execute mode, interleaved with changes to the fake world (a provider's doctor starts failing or
 * passing, its launcher is replaced or deleted), run against the real {@link Loopx} on Jimfs and
 * against a small model written from docs/contract/state.md–§6.
 *
 * <p>After every step: the real state equals the model (enabled bit, active and rollback revision,
 * history in order, proof revision and verified identities, every revision's proven identities);
 * install, upgrade and rollback receipts say {@code target_identity_proven} as the model expects (a
 * replaced launcher is unproven for its version until a probe proves it); history holds at most 5
 * revisions including the active and rollback targets; nothing lists or registers as ready without
 * a proof covering the launcher as it is now; a preview changes no byte of the state, creates no
 * lock file and launches nothing; an execute launches exactly the probes the model expects; every
 * failure is a {@link LoopxException} of the expected kind and message. Two extensions share the
 * state, so batch doctor and cross-extension isolation are exercised too.
 *
 * <p>The seed is fixed for a reproducible build; run with {@code -Dloopx.lifecycle.seed=<n>} to
 * explore others (its coverage guard may then need a longer run).
 */
class LifecyclePropertyTest {
  static final List<String> IDS = List.of("alpha-ext", "beta-ext");
  static final List<String> VERSIONS =
      List.of("1.0.0", "2.0.0", "3.0.0", "4.0.0", "5.0.0", "6.0.0");
  static final int EXAMPLES = 100;
  static final long DEFAULT_SEED = 0x6c6f6f7078L;

  /** A command or a change to the fake world. */
  enum Op {
    INSTALL(4, false),
    UPGRADE(7, false),
    ENABLE(2, false),
    DISABLE(2, false),
    ROLLBACK(3, false),
    DOCTOR(2, false),
    DOCTOR_ALL(2, false),
    DOCTOR_STARTS_FAILING(1, true),
    DOCTOR_STARTS_PASSING(2, true),
    REPLACE_LAUNCHER(1, true),
    DELETE_LAUNCHER(1, true);

    final int weight;
    final boolean worldChange;

    Op(int weight, boolean worldChange) {
      this.weight = weight;
      this.worldChange = worldChange;
    }

    boolean mutatesTheWorld() {
      return worldChange;
    }
  }

  /**
   * One step. {@code version} is the install or upgrade target, or the package a world change
   * touches; {@link #ACTIVE} stands for the extension's active package (1.0.0 while it is not
   * installed), so that changes often hit the provider that runs.
   */
  record Step(Op op, int ext, int version, Mode mode) {
    static final int ACTIVE = -1;

    /** Half the installs and world changes aim at 1.0.0 / the active package. */
    static Step of(Op op, int ext, int version, Mode mode) {
      boolean aimed = version % 2 == 0;
      if (op == Op.INSTALL && aimed) {
        return new Step(op, ext, 0, mode);
      }
      if (op.mutatesTheWorld() && aimed) {
        return new Step(op, ext, ACTIVE, mode);
      }
      return new Step(op, ext, version, mode);
    }

    @Override
    public String toString() {
      String what = op.name().toLowerCase(java.util.Locale.ROOT) + " " + IDS.get(ext);
      if (op == Op.INSTALL || op == Op.UPGRADE || op.mutatesTheWorld()) {
        what += " " + (version == ACTIVE ? "active" : VERSIONS.get(version));
      }
      return op.mutatesTheWorld() ? what : mode + " " + what;
    }
  }

  static Gen<Op> ops() {
    List<Pair<Integer, Gen<Op>>> weighted = new ArrayList<>();
    for (Op op : Op.values()) {
      weighted.add(Pair.of(op.weight, Generate.constant(op)));
    }
    return Generate.frequency(weighted);
  }

  static Gen<Mode> modes() {
    return Generate.frequency(
        Pair.of(2, Generate.constant(Mode.EXECUTE)), Pair.of(1, Generate.constant(Mode.PREVIEW)));
  }

  static Gen<List<Step>> sequences() {
    Gen<Integer> ext =
        Generate.frequency(Pair.of(3, Generate.constant(0)), Pair.of(1, Generate.constant(1)));
    Gen<Step> step = ops().zip(ext, Generate.range(0, VERSIONS.size() - 1), modes(), Step::of);
    // lengths 1..30, biased to long runs, which reach full histories
    Gen<Integer> length =
        Generate.frequency(Pair.of(1, Generate.range(1, 30)), Pair.of(2, Generate.range(20, 30)));
    return lists().of(step).ofSizes(length);
  }

  /** Counts of what the runs did (shrinking runs included). */
  static final class Stats {
    final AtomicInteger cases = new AtomicInteger();
    final AtomicInteger steps = new AtomicInteger();
    final Map<String, Integer> outcomes = new TreeMap<>();
    int maxHistory;
    int staleProofsSeen;

    synchronized void count(String outcome) {
      outcomes.merge(outcome, 1, Integer::sum);
    }

    synchronized boolean saw(String outcome) {
      return outcomes.containsKey(outcome);
    }
  }

  @Test
  void randomCommandSequencesKeepTheInvariants() {
    long seed = Long.getLong("loopx.lifecycle.seed", DEFAULT_SEED);
    Stats stats = new Stats();

    qt().withFixedSeed(seed)
        .withExamples(EXAMPLES)
        .withShrinkCycles(0) // runCase minimises a failing sequence itself
        .forAll(sequences())
        .checkAssert(steps -> runCase(steps, stats));

    System.out.printf(
        "LifecyclePropertyTest: seed %d, %d cases, %d steps, largest history %d, stale proofs"
            + " seen %d%n  outcomes %s%n",
        seed,
        stats.cases.get(),
        stats.steps.get(),
        stats.maxHistory,
        stats.staleProofsSeen,
        stats.outcomes);
    // The generator must reach the interesting corners, or the property proves little.
    assertThat(stats.steps.get()).isGreaterThan(EXAMPLES * 10);
    assertThat(stats.maxHistory).isEqualTo(ExtensionRecord.MAX_REVISIONS);
    assertThat(stats.staleProofsSeen).isPositive();
    for (String outcome :
        List.of(
            "install EXECUTE ok",
            "upgrade EXECUTE ok",
            "enable EXECUTE ok",
            "disable EXECUTE ok",
            "rollback EXECUTE ok",
            "doctor EXECUTE ok",
            "doctor_all EXECUTE ok",
            "install EXECUTE doctor_not_ready",
            "upgrade EXECUTE doctor_not_ready",
            "enable EXECUTE doctor_not_ready",
            "rollback EXECUTE doctor_not_ready",
            "install PREVIEW already_installed",
            "upgrade EXECUTE revision_already_active",
            "rollback PREVIEW no_rollback_revision",
            "enable PREVIEW not_installed",
            "rollback EXECUTE target_identity_proven true",
            "rollback EXECUTE target_identity_proven false",
            "upgrade EXECUTE target_identity_proven true",
            "upgrade EXECUTE target_identity_proven false")) {
      assertThat(stats.saw(outcome)).as("outcome `%s` was reached", outcome).isTrue();
    }
  }

  /**
   * Runs one sequence; on a failure, reports it with a minimal failing sub-sequence (steps removed
   * one at a time while the sequence still fails), which reads better than QuickTheories' own
   * shrinking of lists.
   */
  static void runCase(List<Step> steps, Stats stats) {
    stats.cases.incrementAndGet();
    Optional<AssertionError> failure = attempt(steps, stats);
    if (failure.isEmpty()) {
      return;
    }
    List<Step> minimal = new ArrayList<>(steps);
    AssertionError minimalFailure = failure.get();
    for (int i = 0; i < minimal.size(); ) {
      List<Step> candidate = new ArrayList<>(minimal);
      candidate.remove(i);
      Optional<AssertionError> again = attempt(candidate, new Stats());
      if (again.isPresent()) {
        minimal = candidate;
        minimalFailure = again.get();
      } else {
        i++;
      }
    }
    throw new AssertionError(
        "minimal failing sequence " + minimal + "\n  " + minimalFailure.getMessage(),
        minimalFailure);
  }

  static Optional<AssertionError> attempt(List<Step> steps, Stats stats) {
    try (TestLoopx t = TestLoopx.create()) {
      World world = new World(t);
      for (int i = 0; i < steps.size(); i++) {
        stats.steps.incrementAndGet();
        try {
          world.step(steps.get(i), stats);
          world.checkInvariants(stats);
        } catch (AssertionError | RuntimeException e) {
          return Optional.of(
              new AssertionError(
                  "step " + (i + 1) + " (" + steps.get(i) + "): " + e.getMessage(), e));
        }
      }
    }
    return Optional.empty();
  }

  /** The identity of one launcher content: package and generation. */
  record Token(int ext, int version, int generation) {}

  /** The fake world of one package. */
  static final class Pkg {
    int generation;
    boolean present = true;
    boolean doctorFails;
  }

  /** The model of one extension, after docs/contract/state.md–§6. */
  static final class Ext {
    boolean installed;
    boolean enabled;
    int active = -1;
    int rollback = -1;
    List<Integer> history = new ArrayList<>();
    int proofVersion = -1;
    List<Token> proof = new ArrayList<>();

    /** Per version in the history: the tokens ever proven for it (proven_identities). */
    Map<Integer, List<Token>> proven = new HashMap<>();
  }

  /** A failure the model expects. */
  record Failure(ErrorKind kind, String message) {}

  /** The real world, the model, and the step logic that drives both. */
  static final class World {
    final TestLoopx t;
    final Loopx loopx;
    final RuntimeResolver resolver;
    final Pkg[][] packages = new Pkg[IDS.size()][VERSIONS.size()];
    final LoadedManifest[][] manifests = new LoadedManifest[IDS.size()][VERSIONS.size()];
    final Map<Token, String> identities = new HashMap<>();
    final Ext[] model = new Ext[IDS.size()];
    int expectedLaunches;

    /** The receipt's expected {@code target_identity_proven} (install, upgrade, rollback). */
    boolean expectedTargetProven;

    World(TestLoopx t) {
      this.t = t;
      this.loopx = t.loopx();
      this.resolver = RuntimeResolver.of(t.root().runtimeEnvironment());
      for (int e = 0; e < IDS.size(); e++) {
        model[e] = new Ext();
        for (int v = 0; v < VERSIONS.size(); v++) {
          packages[e][v] = new Pkg();
          manifests[e][v] =
              t.stage(
                  Manifests.standalone(IDS.get(e)).version(VERSIONS.get(v)),
                  ProcessScript.doctorExits(0));
          learnIdentity(e, v);
        }
      }
    }

    ExtensionId id(int e) {
      return ExtensionId.of(IDS.get(e));
    }

    Revision revision(int e, int v) {
      return manifests[e][v].revision();
    }

    Path launcher(int e, int v) {
      return manifests[e][v].directory().resolve(Manifests.DEFAULT_ENTRYPOINT);
    }

    Token token(int e, int v) {
      return new Token(e, v, packages[e][v].generation);
    }

    void learnIdentity(int e, int v) {
      String identity =
          resolver
              .resolveSaved(
                  new LaunchTarget.Executable(Manifests.DEFAULT_ENTRYPOINT),
                  Optional.of(launcher(e, v)))
              .resolvedIdentity()
              .orElseThrow()
              .value();
      identities.put(token(e, v), identity);
    }

    // ------------------------------------------------------------ the model

    /** What a probe (or a preview's observation) of package (e, v) yields; counts launches. */
    DoctorStatus observe(int e, int v, boolean execute) {
      Pkg p = packages[e][v];
      if (!p.present) {
        return DoctorStatus.ENTRYPOINT_MISSING;
      }
      if (!execute) {
        return DoctorStatus.PROBE_REQUIRED;
      }
      expectedLaunches++;
      return p.doctorFails ? DoctorStatus.PROVIDER_UNAVAILABLE : DoctorStatus.READY;
    }

    boolean fresh(int e) {
      Ext x = model[e];
      return x.installed
          && x.enabled
          && packages[e][x.active].present
          && x.proofVersion == x.active
          && x.proof.contains(token(e, x.active));
    }

    static void verified(Ext x, int version, Token token) {
      List<Token> proven = x.proven.computeIfAbsent(version, v -> new ArrayList<>());
      proven.remove(token);
      proven.add(token);
      while (proven.size() > RevisionSnapshot.MAX_PROVEN_IDENTITIES) {
        proven.remove(0);
      }
      if (x.proofVersion != version) {
        x.proof.clear();
      }
      x.proof.remove(token);
      x.proof.add(token);
      while (x.proof.size() > ExtensionRecord.MAX_VERIFIED_IDENTITIES) {
        x.proof.remove(0);
      }
      x.proofVersion = version;
    }

    /** Whether the launcher of (e, v) as it is now was proven for version v before. */
    boolean provenNow(int e, int v) {
      return packages[e][v].present
          && model[e].proven.getOrDefault(v, List.of()).contains(token(e, v));
    }

    static void revoked(Ext x, Token token) {
      x.proof.remove(token);
      if (x.proof.isEmpty()) {
        x.proofVersion = -1;
      }
    }

    /**
     * docs/contract/state.md: the newest five, oldest dropped first, never the active or rollback
     * target.
     */
    static List<Integer> bounded(List<Integer> history, int active, int rollback) {
      List<Integer> kept = new ArrayList<>(history);
      for (int i = 0; kept.size() > ExtensionRecord.MAX_REVISIONS && i < kept.size(); ) {
        int v = kept.get(i);
        if (v == active || v == rollback) {
          i++;
        } else {
          kept.remove(i);
        }
      }
      return kept;
    }

    Failure notInstalled(int e) {
      return new Failure(
          ErrorKind.NOT_INSTALLED, "extension `" + IDS.get(e) + "` is not installed");
    }

    /**
     * The failure of version {@code v}'s probe that is not ready: a failing doctor exits 3 (see
     * {@link #mutate}); a missing launcher names what was looked up where (install and upgrade look
     * in the package directory, enable and rollback at the saved path).
     */
    Failure notReady(String what, int e, int v, DoctorStatus status) {
      String message = what + " of `" + IDS.get(e) + "` is not ready: " + status.wireName();
      String lookup =
          what.equals("doctor")
              ? "`"
                  + Manifests.DEFAULT_ENTRYPOINT
                  + "` in `"
                  + manifests[e][v].directory().toAbsolutePath()
                  + "`"
              : "`" + launcher(e, v).toAbsolutePath() + "`";
      return new Failure(
          ErrorKind.DOCTOR_NOT_READY,
          switch (status) {
            case PROVIDER_UNAVAILABLE -> message + " (probe_nonzero_exit, exit code 3)";
            case ENTRYPOINT_MISSING -> message + " (looked up " + lookup + ")";
            default -> message;
          });
    }

    /**
     * Applies {@code step} to the model; returns the expected failure, if any, and fills {@code
     * statuses} with the expected doctor status of every packet the receipt carries.
     */
    Optional<Failure> expect(Step s, Map<Integer, DoctorStatus> statuses) {
      boolean execute = s.mode().executes();
      int e = s.ext();
      Ext x = model[e];
      switch (s.op()) {
        case INSTALL -> {
          if (x.installed) {
            return Optional.of(
                new Failure(
                    ErrorKind.ALREADY_INSTALLED,
                    "extension `" + IDS.get(e) + "` is already installed"));
          }
          DoctorStatus status = observe(e, s.version(), execute);
          statuses.put(e, status);
          expectedTargetProven = false;
          if (!execute) {
            return Optional.empty();
          }
          if (status != DoctorStatus.READY) {
            return Optional.of(notReady("doctor", e, s.version(), status));
          }
          x.proven.clear();
          x.installed = true;
          x.enabled = true;
          x.active = s.version();
          x.rollback = -1;
          x.history = new ArrayList<>(List.of(s.version()));
          x.proofVersion = -1;
          x.proof.clear();
          verified(x, s.version(), token(e, s.version()));
          return Optional.empty();
        }
        case UPGRADE -> {
          if (!x.installed) {
            return Optional.of(notInstalled(e));
          }
          if (x.active == s.version()) {
            return Optional.of(
                new Failure(
                    ErrorKind.REVISION_ALREADY_ACTIVE,
                    "extension `" + IDS.get(e) + "` revision is already active"));
          }
          DoctorStatus status = observe(e, s.version(), execute);
          statuses.put(e, status);
          expectedTargetProven = x.history.contains(s.version()) && provenNow(e, s.version());
          if (!execute) {
            return Optional.empty();
          }
          if (status != DoctorStatus.READY) {
            return Optional.of(notReady("doctor", e, s.version(), status));
          }
          List<Integer> history = new ArrayList<>(x.history);
          history.remove(Integer.valueOf(s.version()));
          history.add(s.version());
          x.rollback = x.active;
          x.active = s.version();
          x.history = bounded(history, x.active, x.rollback);
          x.proven.keySet().retainAll(x.history);
          x.enabled = true;
          x.proofVersion = -1;
          x.proof.clear();
          verified(x, x.active, token(e, x.active));
          return Optional.empty();
        }
        case ENABLE -> {
          if (!x.installed) {
            return Optional.of(notInstalled(e));
          }
          DoctorStatus status = observe(e, x.active, execute);
          statuses.put(e, status);
          if (!execute) {
            return Optional.empty();
          }
          if (status != DoctorStatus.READY) {
            if (packages[e][x.active].present) {
              revoked(x, token(e, x.active));
            }
            return Optional.of(notReady("enable doctor", e, x.active, status));
          }
          x.enabled = true;
          verified(x, x.active, token(e, x.active));
          return Optional.empty();
        }
        case DISABLE -> {
          if (!x.installed) {
            return Optional.of(notInstalled(e));
          }
          if (execute) {
            x.enabled = false;
          }
          return Optional.empty();
        }
        case ROLLBACK -> {
          if (!x.installed) {
            return Optional.of(notInstalled(e));
          }
          if (x.rollback < 0) {
            return Optional.of(
                new Failure(
                    ErrorKind.NO_ROLLBACK_REVISION,
                    "extension `" + IDS.get(e) + "` has no rollback revision"));
          }
          DoctorStatus status = observe(e, x.rollback, execute);
          statuses.put(e, status);
          expectedTargetProven = provenNow(e, x.rollback);
          if (!execute) {
            return Optional.empty();
          }
          if (status != DoctorStatus.READY) {
            return Optional.of(notReady("rollback doctor", e, x.rollback, status));
          }
          int target = x.rollback;
          x.rollback = x.active;
          x.active = target;
          x.enabled = true;
          verified(x, target, token(e, target));
          return Optional.empty();
        }
        case DOCTOR -> {
          if (!x.installed) {
            return Optional.of(notInstalled(e));
          }
          statuses.put(e, x.enabled ? doctor(e, execute) : DoctorStatus.DISABLED);
          return Optional.empty();
        }
        case DOCTOR_ALL -> {
          for (int other = 0; other < IDS.size(); other++) {
            if (model[other].installed && model[other].enabled) {
              statuses.put(other, doctor(other, execute));
            }
          }
          return Optional.empty();
        }
        default -> throw new IllegalStateException("not a command: " + s);
      }
    }

    /** The doctor of an enabled, installed extension; executed, it records or revokes. */
    DoctorStatus doctor(int e, boolean execute) {
      Ext x = model[e];
      DoctorStatus status = observe(e, x.active, execute);
      if (execute && status == DoctorStatus.READY) {
        verified(x, x.active, token(e, x.active));
      } else if (execute && status == DoctorStatus.PROVIDER_UNAVAILABLE) {
        revoked(x, token(e, x.active));
      }
      return status;
    }

    // ------------------------------------------------------------ the real world

    void step(Step s, Stats stats) {
      if (s.op().mutatesTheWorld()) {
        mutate(s);
        stats.count(s.op().name().toLowerCase(java.util.Locale.ROOT));
        return;
      }
      Optional<byte[]> before = t.stateBytes();
      boolean lockExisted = Files.exists(t.root().lockFile());
      int launchesBefore = t.launcher().launchCount();
      boolean wasEnabled = model[s.ext()].enabled;
      expectedLaunches = 0;
      Map<Integer, DoctorStatus> statuses = new LinkedHashMap<>();
      Optional<Failure> expected = expect(s, statuses);

      Optional<Receipt> receipt = Optional.empty();
      Optional<LoopxException> failure = Optional.empty();
      try {
        receipt = Optional.of(invoke(s));
      } catch (LoopxException e) {
        failure = Optional.of(e);
      }

      String label = s.op().name().toLowerCase(java.util.Locale.ROOT) + " " + s.mode();
      if (expected.isPresent()) {
        assertThat(failure)
            .as("expected %s", expected.get())
            .hasValueSatisfying(
                e -> {
                  assertThat(e.kind()).isEqualTo(expected.get().kind());
                  assertThat(e).hasMessage(expected.get().message());
                });
        stats.count(label + " " + expected.get().kind().wireName());
      } else {
        assertThat(failure).as("unexpected failure").isEmpty();
        checkReceipt(s, receipt.orElseThrow(), statuses, wasEnabled);
        stats.count(label + " ok");
        if (s.op() == Op.ROLLBACK || s.op() == Op.UPGRADE) {
          stats.count(label + " target_identity_proven " + expectedTargetProven);
        }
      }
      assertThat(t.launcher().launchCount() - launchesBefore)
          .as("launches")
          .isEqualTo(expectedLaunches);
      if (!s.mode().executes()) {
        assertThat(expectedLaunches).isZero();
        assertThat(t.stateBytes().isPresent()).isEqualTo(before.isPresent());
        before.ifPresent(b -> assertThat(t.stateBytes().orElseThrow()).isEqualTo(b));
        assertThat(Files.exists(t.root().lockFile())).isEqualTo(lockExisted);
      }
    }

    Receipt invoke(Step s) {
      Mode mode = s.mode();
      ExtensionId id = id(s.ext());
      return switch (s.op()) {
        case INSTALL -> loopx.install(manifests[s.ext()][s.version()], mode);
        case UPGRADE -> loopx.upgrade(manifests[s.ext()][s.version()], mode);
        case ENABLE -> loopx.enable(id, mode);
        case DISABLE -> loopx.disable(id, mode);
        case ROLLBACK -> loopx.rollback(id, mode);
        case DOCTOR -> loopx.doctor(id, mode);
        case DOCTOR_ALL -> loopx.doctorAll(mode);
        default -> throw new IllegalStateException("not a command: " + s);
      };
    }

    void checkReceipt(
        Step s, Receipt receipt, Map<Integer, DoctorStatus> statuses, boolean wasEnabled) {
      boolean execute = s.mode().executes();
      assertThatReceipt(receipt).hasAllDocumentedKeys();
      if (receipt instanceof LifecycleReceipt a && (s.op() == Op.INSTALL || s.op() == Op.UPGRADE)) {
        LifecycleReceiptAssert activation =
            assertThatReceipt(a).lifecycle().hasRevision(revision(s.ext(), s.version()));
        if (execute) {
          activation.isExecuted().isChanged();
        } else {
          activation.isPreview().isNotChanged();
        }
        activation.doctor().hasStatus(statuses.get(s.ext()));
        assertThat(a.targetIdentityProven())
            .as("target_identity_proven")
            .contains(expectedTargetProven);
      } else if (receipt instanceof LifecycleReceipt toggle
          && (s.op() == Op.ENABLE || s.op() == Op.DISABLE)) {
        boolean enable = s.op() == Op.ENABLE;
        LifecycleReceiptAssert t = assertThatReceipt(toggle).lifecycle();
        if (enable != wasEnabled) {
          t.wouldChange();
        } else {
          t.wouldNotChange();
        }
        if (execute && enable != wasEnabled) {
          t.isChanged();
        } else {
          t.isNotChanged();
        }
        if (execute ? enable : wasEnabled) {
          t.isEnabled();
        } else {
          t.isDisabled();
        }
        assertThat(toggle.doctor().map(DoctorReceipt::status))
            .isEqualTo(Optional.ofNullable(statuses.get(s.ext())));
      } else if (receipt instanceof LifecycleReceipt r) {
        assertThat(r.operation()).isEqualTo("rollback");
        assertThat(r.changed()).isEqualTo(execute);
        assertThat(r.enabled()).contains(execute || wasEnabled);
        assertThatReceipt(r).doctor().hasStatus(statuses.get(s.ext()));
        assertThat(r.targetIdentityProven())
            .as("target_identity_proven")
            .contains(expectedTargetProven);
      } else if (receipt instanceof DoctorReceipt p) {
        assertThatReceipt(p).doctor().hasStatus(statuses.get(s.ext()));
      } else if (receipt instanceof DoctorAllReceipt batch) {
        Map<String, DoctorStatus> expected = new TreeMap<>();
        statuses.forEach((e, status) -> expected.put(IDS.get(e), status));
        Map<String, DoctorStatus> actual = new LinkedHashMap<>();
        batch.packets().forEach(p -> actual.put(p.extensionId().value(), p.status()));
        assertThat(actual).containsExactlyEntriesOf(expected);
        assertThat(batch.ok())
            .isEqualTo(!execute || expected.values().stream().allMatch(DoctorStatus.READY::equals));
      }
      // A packet that says ready (executed) was just proven against the launcher as it is now.
      if (statuses.containsValue(DoctorStatus.READY)) {
        ActivationState state = loopx.state();
        statuses.forEach(
            (e, status) -> {
              if (status == DoctorStatus.READY) {
                assertThat(proofCoversCurrentLauncher(e, state.get(id(e))))
                    .as("fresh proof after ready")
                    .isTrue();
              }
            });
      }
    }

    /** Whether the real record's proof covers the identity of the active launcher as it is now. */
    boolean proofCoversCurrentLauncher(int e, Optional<ExtensionRecord> record) {
      Ext x = model[e];
      return record.isPresent()
          && packages[e][x.active].present
          && record.get().proofCovers(identities.get(token(e, x.active)));
    }

    void mutate(Step s) {
      int e = s.ext();
      int v = s.version() != Step.ACTIVE ? s.version() : model[e].installed ? model[e].active : 0;
      Pkg p = packages[e][v];
      Path launcher = launcher(e, v);
      switch (s.op()) {
        case DOCTOR_STARTS_FAILING -> {
          p.doctorFails = true;
          t.launcher().script(launcher, ProcessScript.doctorExits(3));
        }
        case DOCTOR_STARTS_PASSING -> {
          p.doctorFails = false;
          t.launcher().script(launcher, ProcessScript.doctorExits(0));
        }
        case REPLACE_LAUNCHER -> {
          p.generation++;
          p.present = true;
          t.root()
              .writeExecutable(
                  launcher,
                  JimfsRuntimeRoot.launcherContent(IDS.get(e), VERSIONS.get(v), p.generation));
          learnIdentity(e, v);
        }
        case DELETE_LAUNCHER -> {
          p.present = false;
          t.root().delete(launcher);
        }
        default -> throw new IllegalStateException("not a world change: " + s);
      }
    }

    // ------------------------------------------------------------ invariants

    void checkInvariants(Stats stats) {
      ActivationState state = loopx.state();
      ListReceipt list = loopx.list();
      Map<String, Boolean> listed = new HashMap<>();
      list.extensions().forEach(row -> listed.put(row.id().value(), row.doctorVerified()));
      assertThat(list.extensions())
          .extracting(row -> row.id().value())
          .isSorted()
          .containsExactlyElementsOf(
              IntStream.range(0, IDS.size())
                  .filter(e -> model[e].installed)
                  .mapToObj(IDS::get)
                  .toList());
      var registry = loopx.registry();
      for (int e = 0; e < IDS.size(); e++) {
        Ext x = model[e];
        Optional<ExtensionRecord> real = state.get(id(e));
        assertThat(real.isPresent()).as("%s installed", IDS.get(e)).isEqualTo(x.installed);
        if (real.isEmpty()) {
          assertThat(registry.provider(ProviderId.of(id(e)))).isEmpty();
          continue;
        }
        ExtensionRecord r = real.get();
        // history: at most 5, holds the active and rollback targets, equals the model
        List<Revision> history = r.revisions().stream().map(RevisionSnapshot::revision).toList();
        assertThat(history).hasSizeLessThanOrEqualTo(ExtensionRecord.MAX_REVISIONS);
        assertThat(history).contains(r.activeRevision());
        r.rollbackRevision().ifPresent(rb -> assertThat(history).contains(rb));
        assertThat(r.revisions())
            .extracting(RevisionSnapshot::version)
            .as("history of %s", IDS.get(e))
            .containsExactlyElementsOf(x.history.stream().map(VERSIONS::get).toList());
        stats.maxHistory = Math.max(stats.maxHistory, history.size());
        // the model's activation state
        assertThat(r.enabled()).as("enabled").isEqualTo(x.enabled);
        assertThat(r.activeRevision()).as("active").isEqualTo(revision(e, x.active));
        assertThat(r.rollbackRevision())
            .as("rollback")
            .isEqualTo(x.rollback < 0 ? Optional.empty() : Optional.of(revision(e, x.rollback)));
        assertThat(r.doctorVerifiedRevision())
            .as("proof revision")
            .isEqualTo(
                x.proofVersion < 0 ? Optional.empty() : Optional.of(revision(e, x.proofVersion)));
        assertThat(r.doctorVerifiedIdentities())
            .as("verified identities")
            .containsExactlyElementsOf(x.proof.stream().map(identities::get).toList());
        for (int v : x.history) {
          assertThat(r.snapshot(revision(e, v)).orElseThrow().provenIdentities())
              .as("proven identities of %s %s", IDS.get(e), VERSIONS.get(v))
              .containsExactlyElementsOf(
                  x.proven.getOrDefault(v, List.of()).stream().map(identities::get).toList());
        }
        // never ready without a fresh proof of the launcher as it is now
        boolean fresh = fresh(e);
        assertThat(listed.get(IDS.get(e))).as("listed doctor_verified").isEqualTo(fresh);
        assertThat(registry.provider(ProviderId.of(id(e))).orElseThrow().state().ready())
            .as("registry ready")
            .isEqualTo(fresh);
        if (fresh) {
          assertThat(proofCoversCurrentLauncher(e, real)).isTrue();
        } else if (x.enabled && !x.proof.isEmpty()) {
          stats.staleProofsSeen++;
        }
      }
    }
  }

  @Test
  void theModelsHistoryBoundMatchesTheSpecExamples() {
    assertThat(World.bounded(List.of(0, 1, 2, 3, 4, 5), 5, 4)).containsExactly(1, 2, 3, 4, 5);
    assertThat(World.bounded(List.of(0, 1, 2, 3, 4, 5), 5, 0)).containsExactly(0, 2, 3, 4, 5);
    assertThat(World.bounded(List.of(0, 1, 2), 2, 1)).containsExactly(0, 1, 2);
  }
}
