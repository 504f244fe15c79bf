package io.loopx.testkit;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * A real {@link Loopx} in a fake world, in one line: state in a {@link JimfsRuntimeRoot}, providers
 * started by a {@link ScriptedProcessLauncher}, runtimes resolved against the root's fake PATH,
 * {@code java} and code path, and a host environment holding only that PATH.
 *
 * <pre>{@code
 * try (TestLoopx t = TestLoopx.create()) {
 *   LoadedManifest m = t.stage(Manifests.standalone("demo-ext"), ProcessScript.doctorExits(0));
 *   assertThatReceipt(t.loopx().install(m, Mode.EXECUTE)).isOk().hasValue("doctor.status", "ready");
 * }
 * }</pre>
 *
 * <p>Closing it closes the file system.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class TestLoopx implements AutoCloseable {
  private final JimfsRuntimeRoot root;
  private final ScriptedProcessLauncher launcher;
  private final Loopx loopx;

  private TestLoopx(JimfsRuntimeRoot root, ScriptedProcessLauncher launcher, Loopx loopx) {
    this.root = root;
    this.launcher = launcher;
    this.loopx = loopx;
  }

  /** Creates a fresh fake world and a {@link Loopx} on it. */
  public static TestLoopx create() {
    return create(builder -> {});
  }

  /**
   * Creates a fresh fake world and a {@link Loopx} on it, letting {@code customizer} change the
   * builder after the testkit's settings (to add built-ins or bundled manifests, for example).
   */
  public static TestLoopx create(Consumer<Loopx.Builder> customizer) {
    Objects.requireNonNull(customizer, "customizer");
    JimfsRuntimeRoot root = JimfsRuntimeRoot.create();
    ScriptedProcessLauncher launcher = ScriptedProcessLauncher.create();
    Loopx.Builder builder =
        Loopx.builder()
            .runtimeRoot(root.runtimeRoot())
            .processLauncher(launcher)
            .runtimeEnvironment(root.runtimeEnvironment())
            .hostEnvironment(root.hostEnvironment());
    customizer.accept(builder);
    return new TestLoopx(root, launcher, builder.build());
  }

  /** Returns the facade under test. */
  public Loopx loopx() {
    return loopx;
  }

  /** Returns the fake file system. */
  public JimfsRuntimeRoot root() {
    return root;
  }

  /** Returns the scripted process launcher. */
  public ScriptedProcessLauncher launcher() {
    return launcher;
  }

  /** Returns the fake clock the launcher advances. */
  public FakeClock clock() {
    return launcher.clock();
  }

  /**
   * Writes the package of {@code manifest} ({@link JimfsRuntimeRoot#writePackage}), scripts its
   * launcher (or {@code java_main} class) with {@code script}, and loads the manifest from the fake
   * file system through {@link LoadedManifest#load}.
   */
  public LoadedManifest stage(ManifestBuilder manifest, ProcessScript script) {
    JimfsRuntimeRoot.ProviderPackage written = root.writePackage(manifest);
    written.launcher().ifPresent(l -> launcher.script(l, script));
    manifest.javaMain().ifPresent(c -> launcher.scriptJavaMain(c, script));
    return LoadedManifest.load(written.manifestFile());
  }

  /** Returns the state file's bytes, or empty when it does not exist. */
  public Optional<byte[]> stateBytes() {
    return root.stateBytes();
  }

  /** Closes the fake file system. */
  @Override
  public void close() {
    root.close();
  }
}
