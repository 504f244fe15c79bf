/**
 * The host side of the execution envelope: {@link
 * io.loopx.runtime.internal.envelope.EnvelopeBinder} binds a {@code
 * loopx_extension_execution_envelope_v0} to a provider request after resolution and policy checks.
 * Providers verify it with {@link io.loopx.api.envelope.EnvelopeVerifier}.
 */
package io.loopx.runtime.internal.envelope;
