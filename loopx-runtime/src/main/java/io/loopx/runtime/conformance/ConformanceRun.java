package io.loopx.runtime.conformance;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.conformance.ConformancePlan.Binding;
import io.loopx.runtime.conformance.ConformancePlan.Check;
import io.loopx.runtime.conformance.ConformancePlan.Setup;
import io.loopx.runtime.internal.conformance.EnvelopeMutations;
import io.loopx.runtime.internal.envelope.EnvelopeBinder;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.identity.SearchPath;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The checks of {@code loopx extension verify} (docs/contract/verify.md): the provider is launched
 * directly, exactly as LoopX launches it (argv, environment, containment, timeout), in a scratch
 * working directory with a scratch {@code HOME}; no activation state is read or written. Checks run
 * in a fixed order: the doctor, the envelope refusals (before any valid request, so an effect
 * marker proves that no refused request had an effect), the valid request, the request at the size
 * cap, the worker mode. {@link ConformancePlan} decides which checks apply; {@link Answers} and
 * {@link WorkerTranscript} judge what the provider wrote.
 */
final class ConformanceRun {
  /** The seed of the generated envelope mutations (the contract kit's default). */
  public static final long SEED = 0x5EED_C0DEL;

  private static final int WORKER_REQUESTS = 3;
  private static final String CALLER_REVISION = "0".repeat(16);
  private static final String CALLER_DIGEST = "sha256:" + "0".repeat(64);

  private final Setup setup;
  private final ExtensionId id;
  private final Revision revision;
  private final RuntimeSpec spec;
  private final Map<Check, ConformanceCheck> results = new LinkedHashMap<>();

  private ConformanceRun(Setup setup) {
    this.setup = setup;
    this.id = setup.manifest().manifest().id();
    this.revision = setup.manifest().revision();
    this.spec = setup.runtime();
  }

  /**
   * Runs every check with {@code scratch} (an empty directory) as the scratch root, each launch
   * through {@code launcher} (isolated when its policy says so), and returns the results in order.
   *
   * @throws LoopxException {@code request_invalid} when the setup cannot be checked (see {@link
   *     ConformancePlan#of}), or the effect marker exists before the first request
   */
  public static List<ConformanceCheck> run(Setup setup, Path scratch, OsProcessLauncher launcher) {
    Map<Check, Optional<String>> plan = ConformancePlan.of(setup);
    if (setup.effectMarker().isPresent()
        && Files.exists(setup.effectMarker().get(), LinkOption.NOFOLLOW_LINKS)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the effect marker `"
              + setup.effectMarker().get()
              + "` exists before any request; remove it first");
    }
    return new ConformanceRun(setup).execute(plan, scratch, launcher);
  }

  private List<ConformanceCheck> execute(
      Map<Check, Optional<String>> plan, Path scratch, OsProcessLauncher launcher) {
    plan.forEach((c, skip) -> skip.ifPresent(why -> record(c, CheckStatus.SKIPPED, why)));
    Path home = directory(scratch.resolve("home"));
    Path work = directory(scratch.resolve("work"));
    Map<String, String> environment = new LinkedHashMap<>(setup.hostEnvironment());
    environment.put("HOME", home.toString());
    RuntimeEnvironment runtimeEnvironment = setup.runtimeEnvironment();
    String searchPath =
        SearchPath.compose(
            environment.getOrDefault("PATH", runtimeEnvironment.searchPath()),
            runtimeEnvironment.javaExecutable().getFileSystem());
    RuntimeResolution resolution =
        RuntimeResolver.of(
                new RuntimeEnvironment(
                    searchPath, runtimeEnvironment.javaExecutable(), runtimeEnvironment.codePath()))
            .uncached()
            .resolve(spec.launchTarget(), setup.manifest().directory());
    if (!(resolution instanceof RuntimeResolution.Resolved resolved)) {
      for (Check c : Check.values()) {
        results.putIfAbsent(
            c,
            new ConformanceCheckRecord(
                c.id(), CheckStatus.FAILED, "the runtime does not resolve: " + resolution));
      }
      return ordered();
    }
    ProviderLaunch launch = new ProviderLaunch(launcher, environment, searchPath, true);
    try {
      Calls calls = new Calls(launch, resolved, work, environment, searchPath);
      doctor(calls, home, work);
      ObjectNode payload = setup.request();
      if (setup.binding().isPresent()) {
        Binding b = setup.binding().get();
        payload = EnvelopeBinder.bind(b.action(), b.scope(), id, revision, setup.request());
        envelope(calls, payload);
      }
      valid(calls, StrictJson.toCompactBytes(payload));
      atCap(calls, StrictJson.toCompactBytes(payload));
      if (spec.worker().isPresent()) {
        worker(calls, spec.worker().get(), payload);
      }
    } finally {
      launch.close();
    }
    return ordered();
  }

  // ------------------------------------------------------------------ the checks

  private void doctor(Calls calls, Path home, Path work) {
    TreeSnapshot before = TreeSnapshot.of(home, work);
    LaunchResult r = calls.launch(spec.doctorArgs(), new byte[0]);
    boolean zero = r.outcome() == LaunchOutcome.EXITED && r.exitedWithZero();
    record(Check.DOCTOR_EXITS_ZERO, zero, Answers.describe(r));
    List<String> changes = before.changesTo(TreeSnapshot.of(home, work));
    record(
        Check.DOCTOR_WRITES_NOTHING,
        changes.isEmpty(),
        changes.isEmpty()
            ? "nothing created, changed or removed under the scratch working directory and HOME"
            : changes.size()
                + " change(s) under the scratch directories: "
                + String.join(", ", changes.subList(0, Math.min(5, changes.size()))));
  }

  private void envelope(Calls calls, ObjectNode bound) {
    ObjectNode bare = bound.deepCopy();
    bare.remove(ExecutionEnvelope.REQUEST_KEY);
    ObjectNode callerMade = bound.deepCopy();
    ObjectNode envelope = (ObjectNode) callerMade.get(ExecutionEnvelope.REQUEST_KEY);
    ((ObjectNode) envelope.get("extension")).put("revision", CALLER_REVISION);
    envelope.put("request_digest", CALLER_DIGEST);
    List<EnvelopeMutations.Mutation> mutations = EnvelopeMutations.of(bound, new Random(SEED));

    LaunchResult missing = calls.launch(List.of(), StrictJson.toCompactBytes(bare));
    LaunchResult forged = calls.launch(List.of(), StrictJson.toCompactBytes(callerMade));
    List<String> accepted = new ArrayList<>();
    for (EnvelopeMutations.Mutation m : mutations) {
      LaunchResult r = calls.launch(List.of(), StrictJson.toCompactBytes(m.request()));
      Answers.refusalProblem(r).ifPresent(p -> accepted.add(m.description() + ": " + p));
    }

    // The same refusals through a worker: a provider must not verify one-shot only.
    Optional<String> workerMissing = Optional.empty();
    Optional<String> workerForged = Optional.empty();
    List<String> workerAccepted = new ArrayList<>();
    if (spec.worker().isPresent()) {
      Map<String, ObjectNode> frames = new LinkedHashMap<>();
      frames.put("refuse-missing", bare);
      frames.put("refuse-caller-made", callerMade);
      for (int i = 0; i < mutations.size(); i++) {
        frames.put("refuse-mutation-" + (i + 1), mutations.get(i).request());
      }
      LaunchResult r = calls.worker(spec.worker().get(), frames);
      WorkerTranscript transcript =
          WorkerTranscript.of(r.stdout(), spec.protocol().value(), frames.size());
      workerMissing =
          transcript.refusalProblem("refuse-missing").map(p -> "through a worker: " + p);
      workerForged =
          transcript.refusalProblem("refuse-caller-made").map(p -> "through a worker: " + p);
      for (int i = 0; i < mutations.size(); i++) {
        String description = mutations.get(i).description();
        transcript
            .refusalProblem("refuse-mutation-" + (i + 1))
            .ifPresent(p -> workerAccepted.add(description + " (through a worker): " + p));
      }
    }
    String both = spec.worker().isPresent() ? ", one-shot and through a worker" : "";

    Optional<String> why = Answers.refusalProblem(missing);
    if (why.isEmpty()) {
      why = workerMissing;
    }
    record(
        Check.ENVELOPE_MISSING_REFUSED, why.isEmpty(), why.orElse(Answers.refused(missing) + both));
    why = Answers.refusalProblem(forged);
    if (why.isEmpty()) {
      why = workerForged;
    }
    record(
        Check.ENVELOPE_CALLER_MADE_REFUSED,
        why.isEmpty(),
        why.orElse(Answers.refused(forged) + both));

    accepted.addAll(workerAccepted);
    record(
        Check.ENVELOPE_MUTATIONS_REFUSED,
        accepted.isEmpty(),
        accepted.isEmpty()
            ? "all " + mutations.size() + " mutations refused with ok:false" + both
            : accepted.size()
                + " of "
                + mutations.size() * (spec.worker().isPresent() ? 2 : 1)
                + " mutations not refused: "
                + String.join("; ", accepted));

    int refusals = (mutations.size() + 2) * (spec.worker().isPresent() ? 2 : 1);
    setup
        .effectMarker()
        .ifPresent(
            marker -> {
              boolean absent = !Files.exists(marker, LinkOption.NOFOLLOW_LINKS);
              record(
                  Check.EFFECT_MARKER_ABSENT,
                  absent,
                  absent
                      ? "`" + marker + "` absent after " + refusals + " refusals"
                      : "`" + marker + "` was created by a request that had to be refused");
            });
  }

  private void valid(Calls calls, byte[] request) {
    LaunchResult r = calls.launch(List.of(), request);
    Optional<String> problem = Answers.answerProblem(r);
    record(Check.REQUEST_ONE_JSON_OBJECT, problem.isEmpty(), problem.orElse(Answers.describe(r)));
    Optional<String> encoding = Answers.utf8Problem(r.stdout());
    record(
        Check.OUTPUT_UTF8,
        encoding.isEmpty(),
        encoding.orElse(r.stdout().length + " bytes of valid UTF-8"));
    boolean inTime = r.outcome() != LaunchOutcome.TIMED_OUT;
    record(
        Check.ANSWER_WITHIN_TIMEOUT,
        inTime,
        (inTime ? "answered in " : "no answer within ")
            + (inTime ? r.duration().toMillis() + " ms of " : "")
            + spec.timeoutSeconds()
            + " s");
  }

  private void atCap(Calls calls, byte[] request) {
    int cap = RequestBody.MAX_BYTES;
    if (request.length > cap) {
      record(
          Check.REQUEST_AT_SIZE_CAP,
          false,
          "the valid request is already " + request.length + " bytes, over the cap");
      return;
    }
    // Insignificant white space after the opening brace: the same request, digest included.
    byte[] padded = new byte[cap];
    Arrays.fill(padded, (byte) ' ');
    padded[0] = request[0];
    System.arraycopy(request, 1, padded, cap - (request.length - 1), request.length - 1);
    LaunchResult r = calls.launch(List.of(), padded);
    Optional<String> problem = Answers.answerProblem(r);
    record(
        Check.REQUEST_AT_SIZE_CAP,
        problem.isEmpty(),
        problem
            .map(p -> cap + " bytes: " + p)
            .orElse(cap + " bytes answered: " + Answers.describe(r)));
  }

  private void worker(Calls calls, WorkerSpec worker, ObjectNode payload) {
    Map<String, ObjectNode> frames = new LinkedHashMap<>();
    for (int i = 1; i <= WORKER_REQUESTS; i++) {
      frames.put("verify-" + i, payload);
    }
    LaunchResult r = calls.worker(worker, frames);
    WorkerTranscript transcript =
        WorkerTranscript.of(r.stdout(), spec.protocol().value(), WORKER_REQUESTS);
    Optional<String> handshake = transcript.handshakeProblem();
    record(
        Check.WORKER_HANDSHAKE,
        handshake.isEmpty(),
        handshake.orElse("handshake with protocol `" + spec.protocol() + "`"));
    Optional<String> responses = transcript.responsesProblem();
    record(
        Check.WORKER_ONE_RESPONSE_PER_REQUEST,
        responses.isEmpty(),
        responses.orElse(WORKER_REQUESTS + " requests, one response frame each, nothing else"));
    boolean exited = r.outcome() == LaunchOutcome.EXITED && r.exitedWithZero();
    record(
        Check.WORKER_EXITS_ON_EOF,
        exited,
        exited
            ? "exit 0 after stdin end-of-file"
            : "after stdin end-of-file: " + Answers.describe(r));
  }

  // ------------------------------------------------------------------ plumbing

  private void record(Check c, boolean passed, String evidence) {
    record(c, passed ? CheckStatus.PASSED : CheckStatus.FAILED, evidence);
  }

  private void record(Check c, CheckStatus status, String evidence) {
    results.put(c, new ConformanceCheckRecord(c.id(), status, evidence));
  }

  private List<ConformanceCheck> ordered() {
    List<ConformanceCheck> out = new ArrayList<>();
    for (Check c : Check.values()) {
      ConformanceCheck r = results.get(c);
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  private static Path directory(Path p) {
    try {
      return Files.createDirectories(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the scratch directory " + p, e);
    }
  }

  /** One-shot launches of the provider as LoopX starts it, in the scratch working directory. */
  private final class Calls {
    private final ProviderLaunch launch;
    private final RuntimeResolution.Resolved resolved;
    private final Path work;
    private final Map<String, String> environment;
    private final String searchPath;

    Calls(
        ProviderLaunch launch,
        RuntimeResolution.Resolved resolved,
        Path work,
        Map<String, String> environment,
        String searchPath) {
      this.launch = launch;
      this.resolved = resolved;
      this.work = work;
      this.environment = environment;
      this.searchPath = searchPath;
    }

    LaunchResult launch(List<String> extraArgs, byte[] stdin) {
      return launch.launch(
          launch
              .request(resolved, spec, extraArgs, id, revision)
              .workingDirectory(work)
              .stdin(stdin)
              .build());
    }

    /**
     * Starts the provider as a worker, writes {@code frames} (id to request) as request frames,
     * closes its stdin and returns what it wrote.
     */
    LaunchResult worker(WorkerSpec worker, Map<String, ObjectNode> frames) {
      Map<String, String> env =
          new LinkedHashMap<>(
              ProviderLaunch.environment(resolved, environment, searchPath, id, revision));
      env.put(ProviderMain.WORKER_PROTOCOL_VARIABLE, spec.protocol().value());
      StringBuilder text = new StringBuilder();
      frames.forEach(
          (frameId, request) -> {
            ObjectNode frame = JsonNodeFactory.instance.objectNode();
            frame.put("id", frameId);
            frame.set("request", request.deepCopy());
            text.append(new String(StrictJson.toCompactBytes(frame), StandardCharsets.UTF_8));
            text.append('\n');
          });
      return launch.launch(
          launch
              .request(resolved, spec, worker.args(), id, revision)
              .environment(env)
              .workingDirectory(work)
              .stdin(text.toString().getBytes(StandardCharsets.UTF_8))
              .stdoutLimit((frames.size() + 1) * (RequestBody.MAX_BYTES + 32_768))
              .build());
    }
  }
}
