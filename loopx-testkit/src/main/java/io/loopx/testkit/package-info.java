/**
 * Fakes that run the real LoopX lifecycle code in a fake world: {@link
 * io.loopx.testkit.JimfsRuntimeRoot} (an in-memory runtime root), {@link
 * io.loopx.testkit.ScriptedProcessLauncher} (providers whose behaviour a test scripts), {@link
 * io.loopx.testkit.Manifests} and {@link io.loopx.testkit.ManifestBuilder} (manifest text), {@link
 * io.loopx.testkit.FakeClock}, {@link io.loopx.testkit.ReceiptAssert} and {@link
 * io.loopx.testkit.TestLoopx}, which wires them into a real {@link io.loopx.runtime.Loopx}.
 *
 * <p>Nothing here re-implements LoopX: manifests go through the real loader, state through the real
 * file store (on Jimfs), runtimes through the real resolver; only the operating system's processes
 * and file system are replaced.
 */
package io.loopx.testkit;
