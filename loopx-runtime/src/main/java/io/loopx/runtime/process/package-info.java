/**
 * The bounded process runner: the {@link io.loopx.runtime.process.ProcessLauncher} seam, its value
 * types, the production {@link io.loopx.runtime.internal.process.OsProcessLauncher} (Linux; each
 * provider in its own process group, bounded pipes, group termination) and a strict UTF-8 codec.
 *
 * <p>Transport is bytes. Decoding provider output is the caller's job; use {@link
 * io.loopx.api.internal.StrictUtf8}, never the platform charset.
 */
package io.loopx.runtime.process;
