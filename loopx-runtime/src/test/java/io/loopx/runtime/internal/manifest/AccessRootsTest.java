package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.RuntimeAccess;
import io.loopx.runtime.internal.isolation.IsolationBind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resolver from a manifest's {@code runtime.access} to the binds of an isolated launch. */
class AccessRootsTest {
  @TempDir Path tmp;

  private AccessRoots roots(Map<String, Path> mapping) {
    return AccessRoots.mapped(mapping, Optional.of(tmp.resolve("state")));
  }

  @Test
  void nothingDeclaredGrantsNothing() {
    AccessRoots.Resolution r = AccessRoots.NONE.resolve(RuntimeAccess.NONE);
    assertThat(r).isEqualTo(new AccessRoots.Granted(false, List.of(), Map.of()));
    assertThat(AccessRoots.NONE.resolve(RuntimeAccess.of(List.of("network"))))
        .isEqualTo(new AccessRoots.Granted(true, List.of(), Map.of()));
  }

  @Test
  void declaredRootsBecomeBindsParentsFirstWithTheirVariables() throws IOException {
    Path srv = Files.createDirectories(tmp.resolve("srv")).toRealPath();
    Path cache = Files.createDirectories(srv.resolve("cache")).toRealPath();
    Path models = Files.createDirectories(tmp.resolve("models")).toRealPath();
    Map<String, Path> mapping = new LinkedHashMap<>();
    mapping.put("model-cache", cache);
    mapping.put("data", srv);
    mapping.put("models", models);
    mapping.put("unused", models);
    AccessRoots roots = roots(mapping);
    AccessRoots.Resolution r =
        roots.resolve(RuntimeAccess.of(List.of("write:model-cache", "read:data", "read:models")));
    assertThat(r).isInstanceOf(AccessRoots.Granted.class);
    AccessRoots.Granted granted = (AccessRoots.Granted) r;
    assertThat(granted.network()).isFalse();
    // Sorted by host path: /…/models, /…/srv, /…/srv/cache (a directory before those inside it).
    assertThat(granted.binds())
        .containsExactly(
            new IsolationBind(models, false),
            new IsolationBind(srv, false),
            new IsolationBind(cache, true));
    assertThat(granted.environment())
        .containsExactly(
            Map.entry("LOOPX_ACCESS_DATA", srv.toString()),
            Map.entry("LOOPX_ACCESS_MODEL_CACHE", cache.toString()),
            Map.entry("LOOPX_ACCESS_MODELS", models.toString()));
  }

  @Test
  void oneDirectoryUnderTwoDeclaredNamesIsOneBindWritableWhenEitherIsWritten() throws IOException {
    Path shared = Files.createDirectories(tmp.resolve("shared")).toRealPath();
    AccessRoots roots = roots(Map.of("a", shared, "b", shared));
    AccessRoots.Granted granted =
        (AccessRoots.Granted) roots.resolve(RuntimeAccess.of(List.of("read:a", "write:b")));
    assertThat(granted.binds()).containsExactly(new IsolationBind(shared, true));
    assertThat(granted.environment()).containsOnlyKeys("LOOPX_ACCESS_A", "LOOPX_ACCESS_B");
  }

  @Test
  void anUnmappedRootIsTheTypedRefusal() throws IOException {
    Path data = Files.createDirectories(tmp.resolve("data"));
    AccessRoots roots = roots(Map.of("data", data));
    AccessRoots.Resolution r =
        roots.resolve(RuntimeAccess.of(List.of("read:data", "write:cache", "read:zeta")));
    assertThat(r).isInstanceOf(AccessRoots.UnknownRoots.class);
    AccessRoots.UnknownRoots unknown = (AccessRoots.UnknownRoots) r;
    assertThat(unknown.roots()).containsExactly("cache", "zeta");
    assertThat(unknown.message(ExtensionId.of("demo-ext")))
        .isEqualTo(
            "extension `demo-ext` declares access to roots [cache, zeta] that this host does not"
                + " map (Loopx.Builder.accessRoot)");
  }

  @Test
  void theVariableNameIsOneToOne() {
    assertThat(AccessRoots.variable("data")).isEqualTo("LOOPX_ACCESS_DATA");
    assertThat(AccessRoots.variable("model-cache-2")).isEqualTo("LOOPX_ACCESS_MODEL_CACHE_2");
  }
}
