package io.loopx.api.spi;

import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-process implementation of a capability protocol, registered by a {@link
 * BuiltinContribution} through {@link RegistrationContext#addImplementation}.
 *
 * <p><b>Implemented by hosts.</b> It receives exactly what a subprocess provider of the same
 * protocol would read on stdin: the caller's JSON object plus the {@code execution_envelope} key
 * bound by the dispatcher, and returns the JSON object a subprocess provider would write on stdout.
 * It should verify the envelope before any effect, as a subprocess provider does.
 *
 * <p><b>Thread safety:</b> LoopX may call {@link #handle} from several threads at once;
 * implementations must be thread-safe. <b>Nulls:</b> the request is never null and {@code handle}
 * must not return null. The request object is a fresh copy owned by the callee; the caller copies
 * the response before it keeps it.
 *
 * <p>In-process code is trusted: it runs in the host's process with no isolation, output cap or
 * kill guarantee. Evolution: new methods are only added as default methods.
 */
@FunctionalInterface
@API(status = API.Status.STABLE, since = "1.0")
public interface BuiltinProvider {

  /**
   * Handles one request and returns the response object.
   *
   * @param request the caller's object including the {@code execution_envelope} key
   * @return the provider's response object
   */
  ObjectNode handle(ObjectNode request);
}
