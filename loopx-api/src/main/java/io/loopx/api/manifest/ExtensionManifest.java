package io.loopx.api.manifest;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.json.CanonicalJson;
import java.lang.ref.WeakReference;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A validated, normalised extension manifest ({@code loopx_extension_manifest_v0}).
 *
 * <p>Instances come from a manifest loader (which reports rule violations with the file and key) or
 * from a lifecycle state snapshot. The canonical constructor re-checks the structural invariants
 * (runtime present when something needs it, required permissions declared, protocols consistent, no
 * duplicates, no {@code runtime.access} in a standalone extension), and the manifest records refuse
 * every value the manifest rules refuse (the API compatibility of {@code requires_loopx_api} aside,
 * which only a loaded file must have), so every instance is consistent and reads back from a state
 * it was written to. Immutable and thread-safe; never holds null.
 *
 * @param id the extension id
 * @param version the extension's own version text
 * @param requiresLoopxApi the admitted API range
 * @param permissions declared permissions, no duplicates
 * @param runtime the runtime, if the extension is executable
 * @param provides capabilities this extension adds
 * @param implementations capabilities this extension implements
 * @param presentationSurfaces read-only views this extension offers
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ExtensionManifest(
    ExtensionId id,
    String version,
    ApiRange requiresLoopxApi,
    List<Permission> permissions,
    Optional<RuntimeSpec> runtime,
    List<ProvidedCapability> provides,
    List<Implementation> implementations,
    List<PresentationSurface> presentationSurfaces) {

  /** The manifest schema version this model implements. */
  public static final String SCHEMA_VERSION = "loopx_extension_manifest_v0";

  /**
   * Validates the cross-field invariants and defensively copies. The version is trimmed, non-empty
   * Unicode text without control, separator or bidirectional control characters and the API range
   * text is trimmed, as the manifest loader requires.
   *
   * @throws InvalidValueException naming the field and the broken rule
   */
  public ExtensionManifest {
    Objects.requireNonNull(id, "id");
    Checks.text("version", version);
    Objects.requireNonNull(requiresLoopxApi, "requiresLoopxApi");
    Checks.text("requires_loopx_api", requiresLoopxApi.toString());
    permissions = Checks.unique("permissions", permissions);
    Objects.requireNonNull(runtime, "runtime");
    provides = List.copyOf(provides);
    implementations = List.copyOf(implementations);
    presentationSurfaces = List.copyOf(presentationSurfaces);
    if (runtime.isPresent()) {
      RuntimeSpec rt = runtime.get();
      Checks.rule(
          "runtime.required_permissions",
          rt.requiredPermissions().toString(),
          ManifestValues.undeclaredPermissions(rt.requiredPermissions(), permissions));
      for (Implementation impl : implementations) {
        Checks.rule(
            "implements.protocol",
            impl.protocol().value(),
            ManifestValues.implementsProtocol(impl.protocol(), rt.protocol()));
      }
    } else if (!implementations.isEmpty() || !presentationSurfaces.isEmpty()) {
      throw new InvalidValueException(
          "runtime", id.value(), "implements and presentation_surfaces need a runtime");
    }
    if (runtime.isPresent()
        && provides.isEmpty()
        && implementations.isEmpty()
        && !runtime.get().access().isNone()) {
      throw new InvalidValueException(
          "runtime.access",
          runtime.get().access().wireWords().toString(),
          ManifestValues.STANDALONE_ACCESS);
    }
    if (runtime.isEmpty() && provides.isEmpty() && implementations.isEmpty()) {
      throw new InvalidValueException("manifest", id.value(), ManifestValues.DECLARES_NOTHING);
    }
    Checks.unique("provides.id", provides.stream().map(ProvidedCapability::id).toList());
    Checks.unique(
        "presentation_surfaces.id",
        presentationSurfaces.stream().map(PresentationSurface::id).toList());
    Set<Implementation> seen = new HashSet<>();
    for (Implementation impl : implementations) {
      if (!seen.add(impl)) {
        throw new InvalidValueException(
            "implements", impl.capabilityId().value(), "must not repeat");
      }
    }
  }

  /** Returns whether this is a standalone extension: a runtime and no provides/implements. */
  public boolean isStandalone() {
    return runtime.isPresent() && provides.isEmpty() && implementations.isEmpty();
  }

  /**
   * Returns a new normalised JSON tree of this manifest (docs/contract/manifest.md, "Normalised
   * form"): defaults filled in, array order kept, absent tables as {@code null} / {@code []},
   * absent optional keys omitted.
   */
  public ObjectNode toNormalizedJson() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode root = f.objectNode();
    root.put("schema_version", SCHEMA_VERSION);
    root.put("id", id.value());
    root.put("version", version);
    root.put("requires_loopx_api", requiresLoopxApi.toString());
    ArrayNode perms = root.putArray("permissions");
    permissions.forEach(p -> perms.add(p.value()));
    if (runtime.isPresent()) {
      RuntimeSpec rt = runtime.get();
      ObjectNode r = root.putObject("runtime");
      r.put("protocol", rt.protocol().value());
      r.put(rt.launchTarget().manifestKey(), rt.launchTarget().value());
      if (rt.launchTarget() instanceof LaunchTarget.JavaMain javaMain
          && !javaMain.usesHostCodePath()) {
        ArrayNode classPath = r.putArray("java_class_path");
        javaMain.classPath().forEach(classPath::add);
      }
      ArrayNode args = r.putArray("args");
      rt.args().forEach(args::add);
      ArrayNode doctorArgs = r.putArray("doctor_args");
      rt.doctorArgs().forEach(doctorArgs::add);
      ArrayNode required = r.putArray("required_permissions");
      rt.requiredPermissions().forEach(p -> required.add(p.value()));
      r.put("timeout_seconds", rt.timeoutSeconds());
      if (rt.memoryMb().isPresent()) {
        r.put("memory_mb", rt.memoryMb().getAsInt());
      }
      if (!rt.access().isNone()) {
        ArrayNode access = r.putArray("access");
        rt.access().wireWords().forEach(access::add);
      }
      if (rt.worker().isPresent()) {
        WorkerSpec w = rt.worker().get();
        ObjectNode worker = r.putObject("worker");
        ArrayNode workerArgs = worker.putArray("args");
        w.args().forEach(workerArgs::add);
        worker.put("max_in_flight", w.maxInFlight());
        worker.put("max_processes", w.maxProcesses());
        worker.put("idle_seconds", w.idleSeconds());
        worker.put("max_requests", w.maxRequests());
      }
    } else {
      root.putNull("runtime");
    }
    ArrayNode prov = root.putArray("provides");
    for (ProvidedCapability c : provides) {
      ObjectNode o = prov.addObject();
      o.put("id", c.id().value());
      o.put("kind", c.kind().value());
      o.put("title", c.title());
      o.put("status", c.status());
      o.put("visibility", c.visibility().wireName());
      o.put("user_value", c.userValue());
      o.put("next_real_step", c.nextRealStep());
      c.realWorldAnchor().ifPresent(v -> o.put("real_world_anchor", v));
      c.entryCommand().ifPresent(v -> o.put("entry_command", v));
      c.metadata().forEach(o::set);
    }
    ArrayNode impls = root.putArray("implements");
    for (Implementation i : implementations) {
      ObjectNode o = impls.addObject();
      o.put("capability_id", i.capabilityId().value());
      o.put("protocol", i.protocol().value());
    }
    ArrayNode surfaces = root.putArray("presentation_surfaces");
    for (PresentationSurface s : presentationSurfaces) {
      ObjectNode o = surfaces.addObject();
      o.put("id", s.id());
      o.put("kind", s.kind().value());
      o.put("title", s.title());
      o.put("view_schema", s.viewSchema().value());
      o.put("view_validator", s.viewValidator());
      o.put("visibility", s.visibility().wireName());
      s.emptyStateTitle().ifPresent(v -> o.put("empty_state_title", v));
      s.emptyStateDetail().ifPresent(v -> o.put("empty_state_detail", v));
    }
    return root;
  }

  /** Returns the canonical JSON text (RFC 8785) of {@link #toNormalizedJson()}. */
  public String toCanonicalJson() {
    return CanonicalJson.toText(toNormalizedJson());
  }

  /**
   * Returns the revision id: the first 16 hex characters of the SHA-256 of the canonical JSON of
   * the normalised manifest.
   *
   * <p>The revision is a pure function of this immutable value; the most recent result is
   * remembered for its instance (weakly, by identity), so back-to-back calls on one manifest (a
   * loader that reports the revision, then a record that checks it) hash it once.
   */
  public Revision revision() {
    RevisionMemo memo = lastRevision;
    if (memo != null && memo.manifest().get() == this) {
      return memo.revision();
    }
    Revision revision = Revision.of(CanonicalJson.sha256Hex(toNormalizedJson()).substring(0, 16));
    lastRevision = new RevisionMemo(new WeakReference<>(this), revision);
    return revision;
  }

  /** The last revision computed, with its manifest (an immutable pair, published whole). */
  private record RevisionMemo(WeakReference<ExtensionManifest> manifest, Revision revision) {}

  private static volatile @Nullable RevisionMemo lastRevision;
}
