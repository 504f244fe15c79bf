package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.spi.Isolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Declared access meets isolation (docs/access.md, docs/process.md#isolation), end to end through
 * {@link Loopx#dispatch} with a real {@code sh} provider under bubblewrap: a {@code read:} root is
 * visible and read-only, a {@code write:} root is writable, both named in {@code
 * LOOPX_ACCESS_<ROOT>}; and a host that no longer maps a declared root refuses the call with {@code
 * access_root_unknown} before anything starts.
 */
class AccessIsolationTest {
  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();
  private final List<Loopx> opened = new ArrayList<>();
  private Path data;
  private Path out;
  private Path pkg;

  @BeforeEach
  void setUp() throws IOException {
    host.tmp = tmp;
    // The isolated provider runs as an unprivileged uid: the package and roots must be reachable.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    data = Files.createDirectories(tmp.resolve("data"));
    Files.writeString(data.resolve("in.txt"), "from the data root");
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));
    out = Files.createDirectories(tmp.resolve("out"));
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
    pkg = Files.createDirectories(tmp.resolve("pkg").resolve("bin")).getParent();
    Files.setPosixFilePermissions(pkg, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path script = pkg.resolve("bin").resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = \"--doctor\" ] && exit 0\n"
            + "cat > /dev/null\n"
            + "read=$(cat \"$LOOPX_ACCESS_DATA/in.txt\")\n"
            + "if echo x > \"$LOOPX_ACCESS_DATA/written.txt\" 2>/dev/null;"
            + " then d=written; else d=refused; fi\n"
            + "if echo hello > \"$LOOPX_ACCESS_OUT/out.txt\" 2>/dev/null;"
            + " then o=written; else o=refused; fi\n"
            + "printf '{\"ok\":true,\"read\":\"%s\",\"data\":\"%s\",\"out\":\"%s\"}\\n'"
            + " \"$read\" \"$d\" \"$o\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        pkg.resolve("extension.toml"),
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "access-ext"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        permissions = ["demo.read"]
        [runtime]
        protocol = "demo_recall_v0"
        entrypoint = "bin/provider"
        doctor_args = ["--doctor"]
        required_permissions = ["demo.read"]
        access = ["read:data", "write:out"]
        [[implements]]
        capability_id = "demo-recall"
        protocol = "demo_recall_v0"
        """);
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx loopx(boolean mapOut) {
    Loopx.Builder b =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchTest.Contract())
            .domainPolicy(DomainPolicy.allowAll())
            .isolation(IsolationPolicy.REQUIRED)
            .accessRoot("data", data);
    if (mapOut) {
      b.accessRoot("out", out);
    }
    Loopx loopx = b.build();
    opened.add(loopx);
    return loopx;
  }

  private static DispatchReceipt dispatch(Loopx loopx) {
    return loopx.dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE);
  }

  @Test
  void declaredRootsAreBoundAsDeclaredAndNamedToTheProvider() throws IOException {
    Loopx loopx = loopx(true);
    host.install(loopx, pkg);

    DispatchReceipt receipt = dispatch(loopx);

    assertThat(receipt.ok()).as(receipt.toJson().toString()).isTrue();
    assertThat(receipt.isolation()).hasValue(Isolation.BUBBLEWRAP);
    JsonNode result = receipt.outcome().providerResult().orElseThrow();
    assertThat(result.get("read").asString()).isEqualTo("from the data root");
    assertThat(result.get("data").asString()).isEqualTo("refused");
    assertThat(result.get("out").asString()).isEqualTo("written");
    assertThat(data.resolve("written.txt")).doesNotExist();
    assertThat(Files.readString(out.resolve("out.txt"), UTF_8)).isEqualTo("hello\n");
  }

  @Test
  void aHostThatNoLongerMapsADeclaredRootRefusesTheCallBeforeAnythingStarts() throws IOException {
    Loopx mapped = loopx(true);
    host.install(mapped, pkg);
    mapped.close();
    Loopx unmapped = loopx(false);

    DispatchTest.assertFails(
        () -> dispatch(unmapped), ErrorKind.ACCESS_ROOT_UNKNOWN, "declares access to root [out]");

    assertThat(out.resolve("out.txt")).doesNotExist();
  }
}
