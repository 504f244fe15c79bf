package io.loopx.runtime.conformance;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.conformance.EnvelopeMutations;
import io.loopx.runtime.internal.envelope.EnvelopeBinder;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.identity.SearchPath;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.process.OutputPreview;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.process.LaunchOutcome;
import io.loopx.runtime.process.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The checks of {@code loopx extension verify} (docs/contract/verify.md): the provider is launched
 * directly, exactly as LoopX launches it (argv, environment, containment, timeout), in a scratch
 * working directory with a scratch {@code HOME}; no activation state is read or written. Checks run
 * in a fixed order: the doctor, the envelope refusals (before any valid request, so an effect
 * marker proves that no refused request had an effect), the valid request, the request at the size
 * cap, the worker mode.
 */
final class ConformanceRun {
  /** The seed of the generated envelope mutations (the contract kit's default). */
  public static final long SEED = 0x5EED_C0DEL;

  private static final int WORKER_REQUESTS = 3;
  private static final String CALLER_REVISION = "0".repeat(16);
  private static final String CALLER_DIGEST = "sha256:" + "0".repeat(64);

  /**
   * What an {@code [[implements]]} provider expects to find bound in its envelope.
   *
   * @param action the action the provider checks
   * @param scope the scope the provider checks
   */
  public record Binding(ActionToken action, ObjectNode scope) {
    /** Copies the scope. */
    public Binding {
      scope = scope.deepCopy();
    }

    @Override
    public ObjectNode scope() {
      return scope.deepCopy();
    }
  }

  /**
   * What to check.
   *
   * @param manifest the provider's package
   * @param request the valid request (without an envelope)
   * @param binding the expected binding; present exactly for an {@code [[implements]]} provider
   * @param effectMarker a path the provider writes when it has an effect
   * @param hostEnvironment the environment handed to the provider ({@code HOME} is replaced)
   * @param runtimeEnvironment where {@code java} and the host code path are
   */
  public record Setup(
      LoadedManifest manifest,
      ObjectNode request,
      Optional<Binding> binding,
      Optional<Path> effectMarker,
      Map<String, String> hostEnvironment,
      RuntimeEnvironment runtimeEnvironment) {
    /** Copies the request and the environment. */
    public Setup {
      request = request.deepCopy();
      hostEnvironment = Map.copyOf(hostEnvironment);
    }

    @Override
    public ObjectNode request() {
      return request.deepCopy();
    }

    RuntimeSpec runtime() {
      return manifest.manifest().runtime().orElseThrow();
    }
  }

  /** The checks, in the order they run. */
  public enum Check {
    /** The doctor args exit 0. */
    DOCTOR_EXITS_ZERO("run the doctor in a scratch working directory and HOME and expect exit 0"),
    /** The doctor creates, changes and removes nothing under the scratch directories. */
    DOCTOR_WRITES_NOTHING("compare the scratch directories before and after the doctor"),
    /** The bare request, without an envelope, is refused. */
    ENVELOPE_MISSING_REFUSED("send the request without an envelope and expect ok:false"),
    /** An envelope a caller wrote (revision and digest not bound by the host) is refused. */
    ENVELOPE_CALLER_MADE_REFUSED(
        "send an envelope a caller wrote (unbound revision and digest) and expect ok:false"),
    /** Every single-field mutation of the bound envelope is refused. */
    ENVELOPE_MUTATIONS_REFUSED("send each single-field envelope mutation and expect ok:false"),
    /** The effect marker is still absent after the refused requests. */
    EFFECT_MARKER_ABSENT("check that the refused requests left the effect marker absent"),
    /** The valid request gets exit 0 and exactly one JSON object without ok:false. */
    REQUEST_ONE_JSON_OBJECT("send the request and expect exit 0 and exactly one JSON object"),
    /** The answer is valid UTF-8. */
    OUTPUT_UTF8("check that the answer is valid UTF-8"),
    /** The answer came within timeout_seconds. */
    ANSWER_WITHIN_TIMEOUT("check that the answer came within timeout_seconds"),
    /** The valid request padded to exactly the size cap is answered like the valid one. */
    REQUEST_AT_SIZE_CAP("send the request padded to exactly 1000000 bytes and expect an answer"),
    /** A worker's first line is the handshake. */
    WORKER_HANDSHAKE("start worker mode and expect the handshake as the first line"),
    /** A worker answers each framed request exactly once, and writes nothing else. */
    WORKER_ONE_RESPONSE_PER_REQUEST("send 3 request frames and expect one response frame each"),
    /** A worker exits 0 by itself on stdin end-of-file. */
    WORKER_EXITS_ON_EOF("close the worker's stdin and expect exit 0");

    private final String plan;

    Check(String plan) {
      this.plan = plan;
    }

    /** Returns the check's wire id. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Returns what the check does, for a preview. */
    public String plan() {
      return plan;
    }
  }

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
   * Returns why each check would be skipped, or empty when it runs, in order.
   *
   * @throws LoopxException {@code request_invalid} when the setup cannot be checked
   */
  public static Map<Check, Optional<String>> plan(Setup setup) {
    validate(setup);
    Map<Check, Optional<String>> plan = new LinkedHashMap<>();
    boolean implementer = setup.binding().isPresent();
    for (Check c : Check.values()) {
      Optional<String> skip = Optional.empty();
      switch (c) {
        case ENVELOPE_MISSING_REFUSED, ENVELOPE_CALLER_MADE_REFUSED, ENVELOPE_MUTATIONS_REFUSED -> {
          if (!implementer) {
            skip = Optional.of("a standalone provider receives no execution envelope");
          }
        }
        case EFFECT_MARKER_ABSENT -> {
          if (!implementer) {
            skip = Optional.of("a standalone provider receives no execution envelope");
          } else if (setup.effectMarker().isEmpty()) {
            skip = Optional.of("no effect marker given");
          }
        }
        case WORKER_HANDSHAKE, WORKER_ONE_RESPONSE_PER_REQUEST, WORKER_EXITS_ON_EOF -> {
          if (setup.runtime().worker().isEmpty()) {
            skip = Optional.of("the manifest declares no [runtime.worker]");
          }
        }
        default -> {}
      }
      plan.put(c, skip);
    }
    return plan;
  }

  /**
   * Runs every check with {@code scratch} (an empty directory) as the scratch root and returns the
   * results in order.
   *
   * @throws LoopxException {@code request_invalid} when the setup cannot be checked (see {@link
   *     #plan}), or the effect marker exists before the first request
   */
  public static List<ConformanceCheck> run(Setup setup, Path scratch) {
    Map<Check, Optional<String>> plan = plan(setup);
    if (setup.effectMarker().isPresent()
        && Files.exists(setup.effectMarker().get(), LinkOption.NOFOLLOW_LINKS)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the effect marker `"
              + setup.effectMarker().get()
              + "` exists before any request; remove it first");
    }
    return new ConformanceRun(setup).execute(plan, scratch);
  }

  private static void validate(Setup setup) {
    if (setup.manifest().manifest().runtime().isEmpty()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the manifest of `"
              + setup.manifest().manifest().id()
              + "` declares no [runtime]: there is no provider to verify");
    }
    boolean implementer = !setup.manifest().manifest().implementations().isEmpty();
    if (implementer && setup.binding().isEmpty()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "`"
              + setup.manifest().manifest().id()
              + "` implements a capability: give the action and scope its envelope binds");
    }
    if (!implementer && setup.binding().isPresent()) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "`"
              + setup.manifest().manifest().id()
              + "` implements no capability: it receives no envelope, so no action or scope");
    }
    if (setup.request().has(ExecutionEnvelope.REQUEST_KEY)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the request already holds `"
              + ExecutionEnvelope.REQUEST_KEY
              + "`: give the bare request, the check binds the envelope");
    }
  }

  private List<ConformanceCheck> execute(Map<Check, Optional<String>> plan, Path scratch) {
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
            new ConformanceCheck(
                c.id(), CheckStatus.FAILED, "the runtime does not resolve: " + resolution));
      }
      return ordered();
    }
    ProviderLaunch launch =
        new ProviderLaunch(OsProcessLauncher.create(), environment, searchPath, true);
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
    record(Check.DOCTOR_EXITS_ZERO, zero, describe(r));
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
      refusalProblem(r).ifPresent(p -> accepted.add(m.description() + ": " + p));
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

    Optional<String> why = refusalProblem(missing);
    if (why.isEmpty()) {
      why = workerMissing;
    }
    record(Check.ENVELOPE_MISSING_REFUSED, why.isEmpty(), why.orElse(refused(missing) + both));
    why = refusalProblem(forged);
    if (why.isEmpty()) {
      why = workerForged;
    }
    record(Check.ENVELOPE_CALLER_MADE_REFUSED, why.isEmpty(), why.orElse(refused(forged) + both));

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
    Optional<String> problem = answerProblem(r);
    record(Check.REQUEST_ONE_JSON_OBJECT, problem.isEmpty(), problem.orElse(describe(r)));
    Optional<String> encoding = utf8Problem(r.stdout());
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
    Optional<String> problem = answerProblem(r);
    record(
        Check.REQUEST_AT_SIZE_CAP,
        problem.isEmpty(),
        problem.map(p -> cap + " bytes: " + p).orElse(cap + " bytes answered: " + describe(r)));
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
        exited ? "exit 0 after stdin end-of-file" : "after stdin end-of-file: " + describe(r));
  }

  // ------------------------------------------------------------------ classification

  /** Why {@code r} is not exit 0 with exactly one JSON object without {@code ok:false}. */
  private static Optional<String> answerProblem(LaunchResult r) {
    if (r.outcome() != LaunchOutcome.EXITED || !r.exitedWithZero()) {
      return Optional.of(describe(r));
    }
    ObjectNode answer;
    try {
      answer = StrictJson.parseObject(r.stdout());
    } catch (InvalidJsonException e) {
      return Optional.of("stdout is not exactly one JSON object: " + e.getMessage());
    }
    JsonNode ok = answer.get("ok");
    if (ok != null && ok.isBoolean() && !ok.booleanValue()) {
      return Optional.of("the answer says ok:false: " + preview(r.stdout()));
    }
    return Optional.empty();
  }

  /** Why {@code r} is not a refusal: a non-zero exit and one JSON object with {@code ok:false}. */
  private static Optional<String> refusalProblem(LaunchResult r) {
    if (r.outcome() != LaunchOutcome.EXITED) {
      return Optional.of("not refused: " + describe(r));
    }
    if (r.exitedWithZero()) {
      return Optional.of("accepted (exit 0): " + preview(r.stdout()));
    }
    ObjectNode answer;
    try {
      answer = StrictJson.parseObject(r.stdout());
    } catch (InvalidJsonException e) {
      return Optional.of("stdout is not exactly one JSON object: " + e.getMessage());
    }
    JsonNode ok = answer.get("ok");
    if (ok == null || !ok.isBoolean() || ok.booleanValue()) {
      return Optional.of("the answer's `ok` is not false: " + preview(r.stdout()));
    }
    return Optional.empty();
  }

  private static String refused(LaunchResult r) {
    return "refused: exit " + r.exitCode().orElse(-1) + ", " + preview(r.stdout());
  }

  private static Optional<String> utf8Problem(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return Optional.empty();
    } catch (CharacterCodingException e) {
      return Optional.of("stdout is not valid UTF-8: " + e.getMessage());
    }
  }

  /** A one-line description of a launch. */
  static String describe(LaunchResult r) {
    StringBuilder s =
        new StringBuilder(
            r.exitCode().isPresent()
                ? "exit " + r.exitCode().getAsInt()
                : r.outcome().toString().toLowerCase(Locale.ROOT).replace('_', ' '));
    r.startFailure().ifPresent(f -> s.append(" (").append(f).append(')'));
    s.append(" in ").append(r.duration().toMillis()).append(" ms, stdout: ");
    s.append(preview(r.stdout()));
    if (r.stderr().length > 0) {
      s.append(", stderr: ").append(preview(r.stderr()));
    }
    return s.toString();
  }

  static String preview(byte[] bytes) {
    return OutputPreview.of(bytes);
  }

  // ------------------------------------------------------------------ plumbing

  private void record(Check c, boolean passed, String evidence) {
    record(c, passed ? CheckStatus.PASSED : CheckStatus.FAILED, evidence);
  }

  private void record(Check c, CheckStatus status, String evidence) {
    results.put(c, new ConformanceCheck(c.id(), status, evidence));
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
