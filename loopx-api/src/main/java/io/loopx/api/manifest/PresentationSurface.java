package io.loopx.api.manifest;

import io.loopx.api.KindToken;
import io.loopx.api.ProtocolId;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A {@code [[presentation_surfaces]]} entry: a read-only view an extension offers. Text fields are
 * plain text (the loader rejects line breaks, URLs, tags and path-like tokens).
 *
 * @param id lower-kebab id, unique within the manifest
 * @param kind the surface kind
 * @param title at most 80 code points
 * @param viewSchema the view schema token
 * @param viewValidator {@code fully.qualified.Class#method}
 * @param visibility public-safe or owner-only
 * @param emptyStateTitle at most 120 code points
 * @param emptyStateDetail at most 240 code points
 */
@API(status = API.Status.STABLE, since = "0.1")
public record PresentationSurface(
    String id,
    KindToken kind,
    String title,
    ProtocolId viewSchema,
    String viewValidator,
    SurfaceVisibility visibility,
    Optional<String> emptyStateTitle,
    Optional<String> emptyStateDetail) {
  /** Rejects nulls and blank text. */
  public PresentationSurface {
    Checks.nonBlank("presentation_surfaces.id", id);
    Objects.requireNonNull(kind, "kind");
    Checks.nonBlank("presentation_surfaces.title", title);
    Objects.requireNonNull(viewSchema, "viewSchema");
    Checks.nonBlank("presentation_surfaces.view_validator", viewValidator);
    Objects.requireNonNull(visibility, "visibility");
    Objects.requireNonNull(emptyStateTitle, "emptyStateTitle");
    Objects.requireNonNull(emptyStateDetail, "emptyStateDetail");
  }
}
