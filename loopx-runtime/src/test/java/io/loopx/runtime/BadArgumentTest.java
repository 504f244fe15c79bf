package io.loopx.runtime;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public builder and factory of the root, process and state packages refuses a bad argument,
 * a missing one included, with one exception type: {@link InvalidValueException}.
 */
class BadArgumentTest {
  private static final Duration D = Duration.ofMillis(1);

  static Stream<Arguments> badArguments() {
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("A", null);
    ExtensionRecord alpha =
        ExtensionRecords.installed(snapshot("alpha-ext", "1"), Optional.of(identity(1)));
    TreeMap<ExtensionId, ExtensionRecord> misfiled = new TreeMap<>();
    misfiled.put(ExtensionId.of("beta-ext"), alpha);
    Path absolute = Path.of("/usr/bin/java");
    return Stream.of(
        bad(
            "listener",
            () -> Loopx.builder().listener((io.loopx.runtime.events.LoopxListener) null)),
        bad("domainPolicy", () -> Loopx.builder().domainPolicy(null)),
        bad("runtimeRoot", () -> Loopx.builder().runtimeRoot(null)),
        bad("stateFile", () -> Loopx.builder().stateFile(null)),
        bad("activationStore", () -> Loopx.builder().activationStore(null)),
        bad("builtin", () -> Loopx.builder().builtin(null)),
        bad("processLauncher", () -> Loopx.builder().processLauncher(null)),
        bad("providerPidsLimit", () -> Loopx.builder().providerPidsLimit(0)),
        bad("providerMemoryLimit", () -> Loopx.builder().providerMemoryLimit(1)),
        bad("runtimeEnvironment", () -> Loopx.builder().runtimeEnvironment(null)),
        bad("hostEnvironment", () -> Loopx.builder().hostEnvironment(null)),
        bad("hostEnvironment value", () -> Loopx.builder().hostEnvironment(nullValue)),
        bad("providerEnvironment", () -> Loopx.builder().providerEnvironment(null)),
        bad("bundledManifest id", () -> Loopx.builder().bundledManifest(null, new byte[0])),
        bad("bundledManifest toml", () -> Loopx.builder().bundledManifest("x", null)),
        bad("build without state", () -> Loopx.builder().build()),
        bad("allowList array", () -> ProviderEnvironment.allowList((String[]) null)),
        bad("allowList name", () -> ProviderEnvironment.allowList("OK", null)),
        bad("allowList =", () -> ProviderEnvironment.allowList("A=B")),
        bad("RuntimeEnvironment path", () -> new RuntimeEnvironment(null, absolute, List.of())),
        bad("RuntimeEnvironment java", () -> new RuntimeEnvironment("", null, List.of())),
        bad(
            "RuntimeEnvironment relative",
            () -> new RuntimeEnvironment("", Path.of("java"), List.of())),
        bad("RuntimeEnvironment code path", () -> new RuntimeEnvironment("", absolute, null)),
        bad("notStarted reason", () -> LaunchResult.notStarted(null, D)),
        bad("notStarted duration", () -> LaunchResult.notStarted("x", Duration.ofMillis(-1))),
        bad("exited stdout", () -> LaunchResult.exited(0, null, new byte[0], D)),
        bad("exited duration", () -> LaunchResult.exited(0, new byte[0], new byte[0], null)),
        bad(
            "stopped outcome",
            () -> LaunchResult.stopped(LaunchOutcome.EXITED, new byte[0], new byte[0], D)),
        bad("stopped null", () -> LaunchResult.stopped(null, new byte[0], new byte[0], D)),
        bad("ActivationState null", () -> new ActivationState(null)),
        bad("ActivationState key", () -> new ActivationState(misfiled)),
        bad("EntryChange id", () -> new EntryChange(null, Optional.empty(), Optional.empty())),
        bad(
            "EntryChange replacement",
            () ->
                new EntryChange(ExtensionId.of("beta-ext"), Optional.empty(), Optional.of(alpha))),
        bad(
            "ExtensionRecord id",
            () ->
                new ExtensionRecord(
                    null,
                    true,
                    alpha.activeRevision(),
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    alpha.revisions())),
        bad("RevisionSnapshot.of manifest", () -> RevisionSnapshot.of(null, Optional.empty())),
        bad(
            "RevisionSnapshot manifest",
            () -> new RevisionSnapshot(alpha.activeRevision(), null, Optional.empty(), List.of())));
  }

  private static Arguments bad(String name, ThrowingCallable call) {
    return Arguments.of(name, call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArguments")
  void aBadArgumentRaisesInvalidValueException(String name, ThrowingCallable call) {
    assertThatThrownBy(call).isExactlyInstanceOf(InvalidValueException.class);
  }
}
