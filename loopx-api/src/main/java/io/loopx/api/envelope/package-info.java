/**
 * The execution envelope ({@code loopx_extension_execution_envelope_v0}) and its provider-side
 * verifier.
 *
 * <p>An effectful capability dispatch binds one envelope to one provider request: the action, the
 * structured effect scope, the extension id and active revision, and a digest of the exact request
 * without the envelope. The host creates it (never the caller); the provider re-verifies it with
 * {@link io.loopx.api.envelope.EnvelopeVerifier} before any effect.
 *
 * <p>The envelope binds a request to an operation. It is <b>not</b> a credential, not a security
 * token, not proof of who issued it, and no replacement for a service's own authentication and
 * authorization. Everything here is immutable, stateless and thread-safe.
 */
package io.loopx.api.envelope;
