package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.assertFails;
import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.identity.IdentityCacheCodec;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two facades on one runtime root, each with its identity cache, on the real file system: the cache
 * is kept private beside the state file, a same-size change of the launcher with its modification
 * time set back (by "another process") is seen by the next call of either facade, and a corrupt
 * cache file is ignored by a third facade and rebuilt.
 */
class IdentityCacheAcrossFacadesTest {
  @TempDir Path tmp;

  @Test
  void twoFacadesOnOneRootSeeAChangeOnDiskAndShareAPrivateCacheFile() throws IOException {
    RunFixture f = new RunFixture(tmp);
    ExtensionId id = f.install(RunFixture.Spec.of("cached", "echo '{\"ok\":true}'"));
    Loopx other = RunFixture.loopx(f.stateFile, RunFixture.HOST_ENV);

    assertThat(other.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
    assertThat(f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
    assertThat(f.loopx.registry().providers()).isNotEmpty();
    Path cacheFile = f.stateFile.resolveSibling("identity-cache");
    assertThat(Files.isRegularFile(cacheFile, LinkOption.NOFOLLOW_LINKS)).isTrue();
    assertThat(Files.getPosixFilePermissions(cacheFile))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(IdentityCacheCodec.decode(Files.readAllBytes(cacheFile))).isPresent();

    Path launcher = f.script("cached");
    String text = Files.readString(launcher, StandardCharsets.UTF_8);
    FileTime mtime = Files.getLastModifiedTime(launcher);
    Files.writeString(launcher, text.replace("true", "null"), StandardCharsets.UTF_8);
    Files.setLastModifiedTime(launcher, mtime);

    assertFails(
        () -> other.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE),
        ErrorKind.DOCTOR_STALE,
        "stale");
    assertFails(
        () -> f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE),
        ErrorKind.DOCTOR_STALE,
        "stale");
    assertThat(f.loopx.doctor(id, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    assertThat(other.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);

    Files.writeString(cacheFile, "loopx_identity_cache_v1\n/bin/sh\tgarbage\n");
    Loopx third = RunFixture.loopx(f.stateFile, RunFixture.HOST_ENV);
    assertThat(third.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
    assertThat(IdentityCacheCodec.decode(Files.readAllBytes(cacheFile))).isPresent();
  }
}
