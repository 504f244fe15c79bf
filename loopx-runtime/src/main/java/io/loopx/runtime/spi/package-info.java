/**
 * The launcher SPI: {@link io.loopx.runtime.spi.ProcessLauncher} starts one provider process for a
 * {@link io.loopx.runtime.spi.LaunchRequest} and reports a {@link
 * io.loopx.runtime.spi.LaunchResult}. LoopX's own launcher (Linux: its own process group or cgroup,
 * bounded pipes, whole-tree termination) is the default; a host plugs in another with {@code
 * Loopx.Builder.processLauncher}, a test the testkit's {@code ScriptedProcessLauncher}. Transport
 * is bytes; decoding provider output is the caller's job (strict UTF-8, never the platform
 * charset). See docs/process.md.
 */
package io.loopx.runtime.spi;
