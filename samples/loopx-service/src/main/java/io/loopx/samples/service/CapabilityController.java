package io.loopx.samples.service;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.run.ProviderOutcome;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /capabilities/{id}}: the JSON body is dispatched, governed, to the enabled provider
 * of the capability (a warm worker when its manifest declares one); the answer is the provider's
 * JSON object. Refusals are JSON objects {@code {"ok":false,"kind":<wire word>,"error":<message>}}
 * with the HTTP status of {@link #status(ErrorKind)} (README.md#errors).
 */
@RestController
public class CapabilityController {
  private final Loopx loopx;
  private final ServiceProperties properties;

  /**
   * Creates the controller.
   *
   * @param loopx the starter's {@code Loopx}
   * @param properties the routes
   */
  public CapabilityController(Loopx loopx, ServiceProperties properties) {
    this.loopx = loopx;
    this.properties = properties;
  }

  /**
   * Dispatches one request.
   *
   * @param id the capability id
   * @param body the request, a JSON object
   * @return the provider's JSON object (200), or a refusal
   */
  @PostMapping(
      path = "/capabilities/{id}",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<String> dispatch(@PathVariable("id") String id, @RequestBody byte[] body) {
    ServiceProperties.Route route = properties.capabilities().get(id);
    if (route == null) {
      return refusal(
          HttpStatus.NOT_FOUND,
          ErrorKind.RESOLUTION_FAILED.wireName(),
          "unknown capability `" + id + "`");
    }
    CapabilityId capability = CapabilityId.of(id);
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", capability.value());
    scope.put("operation", route.operation());
    DispatchRequest.Builder request =
        DispatchRequest.builder(
                capability, ProtocolId.of(route.protocol()), ActionToken.of(route.action()))
            .scope(scope)
            .permission(Permission.of(route.permission()))
            .input(body);
    Duration deadline = properties.deadline();
    if (deadline != null) {
      request.deadline(deadline);
    }
    DispatchReceipt receipt = loopx.dispatch(request.build(), Mode.EXECUTE);
    ProviderOutcome outcome = receipt.outcome();
    if (receipt.ok() && outcome.providerResult().isPresent()) {
      return ResponseEntity.ok()
          .contentType(MediaType.APPLICATION_JSON)
          .body(outcome.providerResult().get().toString());
    }
    // the provider ran and failed: its own answer ({"ok":false,...}) when it wrote one
    ObjectNode failed = JsonNodeFactory.instance.objectNode();
    failed.put("ok", false);
    failed.put("kind", outcome.status().wireName());
    failed.put("failure_kind", outcome.failure().map(f -> f.wireName()).orElse(null));
    outcome.providerResult().ifPresent(result -> failed.set("provider_result", result));
    return ResponseEntity.status(HttpStatus.BAD_GATEWAY)
        .contentType(MediaType.APPLICATION_JSON)
        .body(failed.toString());
  }

  /**
   * Answers a typed LoopX refusal: its kind's status and wire word.
   *
   * @param e the refusal
   * @return the JSON refusal
   */
  @ExceptionHandler(LoopxException.class)
  public ResponseEntity<String> refused(LoopxException e) {
    ResponseEntity<String> refusal =
        refusal(status(e.kind()), e.kind().wireName(), String.valueOf(e.getMessage()));
    if (e.kind() == ErrorKind.PROVIDER_BUSY) {
      return ResponseEntity.status(refusal.getStatusCode())
          .contentType(MediaType.APPLICATION_JSON)
          .header(HttpHeaders.RETRY_AFTER, "1")
          .body(refusal.getBody());
    }
    return refusal;
  }

  /**
   * The HTTP status of a LoopX error kind: the caller's fault (400, 403), the installation's state
   * (409: an operator must enable, doctor or install), a transient lack of capacity or store (503)
   * and anything else (500).
   *
   * @param kind the error kind
   * @return its HTTP status
   */
  static HttpStatus status(ErrorKind kind) {
    switch (kind) {
      case REQUEST_INVALID:
      case INVALID_VALUE:
        return HttpStatus.BAD_REQUEST;
      case PERMISSION_DENIED:
      case POLICY_DENIED:
        return HttpStatus.FORBIDDEN;
      case RESOLUTION_FAILED:
      case EXTENSION_DISABLED:
      case NOT_INSTALLED:
      case DOCTOR_STALE:
        return HttpStatus.CONFLICT;
      case PROVIDER_BUSY:
      case PROVIDER_UNAVAILABLE:
      case STATE_CONFLICT:
      case STATE_LOCKED:
      case STATE_UNREADABLE:
      case IO_FAILED:
        return HttpStatus.SERVICE_UNAVAILABLE;
      default:
        return HttpStatus.INTERNAL_SERVER_ERROR;
    }
  }

  private static ResponseEntity<String> refusal(HttpStatus status, String kind, String message) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("ok", false);
    body.put("kind", kind);
    body.put("error", message);
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .body(body.toString());
  }
}
