package io.loopx.api.manifest;

import io.loopx.api.KindToken;
import io.loopx.api.ProtocolId;
import io.loopx.api.internal.ManifestValues;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A {@code [[presentation_surfaces]]} entry: a read-only view an extension offers. Text fields are
 * trimmed, non-empty plain text: the constructor rejects control, separator and bidirectional
 * control characters, line breaks, URLs, tags, path-like tokens and lone surrogates, as the
 * manifest loader does.
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
@API(status = API.Status.STABLE, since = "1.0")
public record PresentationSurface(
    String id,
    KindToken kind,
    String title,
    ProtocolId viewSchema,
    String viewValidator,
    SurfaceVisibility visibility,
    Optional<String> emptyStateTitle,
    Optional<String> emptyStateDetail) {
  /**
   * Rejects nulls and every value the manifest rules refuse.
   *
   * @throws io.loopx.api.InvalidValueException naming the field and the broken rule
   */
  public PresentationSurface {
    Checks.rule("presentation_surfaces.id", id, ManifestValues.surfaceId(id));
    Objects.requireNonNull(kind, "kind");
    Checks.plainText("presentation_surfaces.title", title, ManifestValues.MAX_SURFACE_TITLE);
    Objects.requireNonNull(viewSchema, "viewSchema");
    Checks.rule(
        "presentation_surfaces.view_validator",
        viewValidator,
        ManifestValues.unsafeCharacter(viewValidator)
            .or(() -> ManifestValues.viewValidator(viewValidator)));
    Objects.requireNonNull(visibility, "visibility");
    emptyStateTitle.ifPresent(
        v ->
            Checks.plainText(
                "presentation_surfaces.empty_state_title",
                v,
                ManifestValues.MAX_EMPTY_STATE_TITLE));
    emptyStateDetail.ifPresent(
        v ->
            Checks.plainText(
                "presentation_surfaces.empty_state_detail",
                v,
                ManifestValues.MAX_EMPTY_STATE_DETAIL));
  }
}
