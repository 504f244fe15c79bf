package io.loopx.api.provider;

import io.loopx.api.TraceContext;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request handler of a {@code java_main} provider, run by {@link ProviderMain}.
 *
 * <p><b>Implemented by extension authors.</b> Evolution: new methods are only ever added as default
 * methods, so implementations never break. LoopX calls the methods of one instance from one thread,
 * once per process: {@link #doctor()} when the provider is probed, otherwise {@link
 * #handle(ObjectNode, Optional)} (whose default calls {@link #handle(ObjectNode)}); {@link
 * #responseSchemaVersion()} may be called in either case.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ProviderHandler {

  /**
   * Returns the {@code schema_version} of this provider's responses, for example {@code
   * loopx_text_stats_response_v0}. {@link ProviderMain} puts it into the {@code ok:false} object it
   * writes when the request cannot be read or the handler fails.
   */
  String responseSchemaVersion();

  /**
   * Handles one request and returns the response object, which {@link ProviderMain} writes to
   * stdout. The process exits 0 when the response holds {@code "ok": true}, else 1.
   *
   * <p>Validate the request before doing any work. To refuse it, throw a {@link ProviderException}
   * whose message names the problem; it becomes the {@code error} of an {@code ok:false} response.
   * Any other exception is reported the same way, with its type in the message.
   *
   * @param request the request read from stdin: one strict I-JSON object (see {@link
   *     io.loopx.api.json.StrictJson}), owned by the handler
   * @return the response object, never null
   */
  ObjectNode handle(ObjectNode request);

  /**
   * Handles one request as {@link #handle(ObjectNode)} does, knowing the caller's W3C trace context
   * when the host passed one (docs/contract/run.md#trace-context): a provider that traces its work
   * makes its spans children of {@code trace}. {@link ProviderMain} calls this method; the default
   * ignores the context and calls {@link #handle(ObjectNode)}.
   *
   * @param request the request, as for {@link #handle(ObjectNode)}
   * @param trace the caller's trace context: one-shot from the {@code TRACEPARENT} / {@code
   *     TRACESTATE} environment variables, for a warm worker from the request frame; empty when
   *     there is none (or the environment's is not valid)
   * @return the response object, never null
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  default ObjectNode handle(ObjectNode request, Optional<TraceContext> trace) {
    return handle(request);
  }

  /**
   * Checks that the provider can serve requests, without side effects: no files written, no
   * network, no stdout. Called instead of {@link #handle} when the process arguments contain
   * {@value ProviderMain#DOCTOR_FLAG}; stdin is not read. Throw to report the provider as not
   * ready. The default checks nothing.
   */
  default void doctor() {}
}
