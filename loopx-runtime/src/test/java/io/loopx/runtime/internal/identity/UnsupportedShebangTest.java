package io.loopx.runtime.internal.identity;

import static io.loopx.runtime.internal.identity.TestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shebangs whose kernel or {@code env} reading could run other bytes than the ones hashed are
 * refused as {@link RuntimeResolution.Unsupported} (docs/contract/doctor.md, shebang interpreter).
 */
class UnsupportedShebangTest {
  private final FileSystem fs = TestFiles.unixFs();

  @AfterEach
  void closeFs() throws IOException {
    fs.close();
  }

  private RuntimeResolution resolve(String launcher) {
    return RuntimeResolver.of(
            new RuntimeEnvironment("/usr/bin:/bin", fs.getPath("/jdk/bin/java"), List.of()))
        .resolveSaved(new LaunchTarget.Executable("x/tool"), Optional.of(fs.getPath(launcher)));
  }

  private String unsupported(String launcher) {
    RuntimeResolution r = resolve(launcher);
    assertThat(r).as(launcher).isInstanceOf(RuntimeResolution.Unsupported.class);
    return ((RuntimeResolution.Unsupported) r).reason();
  }

  private void tools() {
    write(fs.getPath("/usr/bin/env"), "\u007fELF env", true);
    write(fs.getPath("/usr/bin/python3"), "\u007fELF python", true);
    write(fs.getPath("/usr/bin/decoy"), "\u007fELF decoy", true);
  }

  /** The kernel hands env one argument: {@code -S -u decoy python3}; env -S splits it. */
  @Test
  void envOptionsAreRefused() {
    tools();
    write(fs.getPath("/t/split"), "#!/usr/bin/env -S -u decoy python3\n", true);
    write(fs.getPath("/t/u"), "#!/usr/bin/env -u decoy python3\n", true);
    write(fs.getPath("/t/i"), "#!/usr/bin/env -i python3\n", true);
    write(fs.getPath("/t/dash"), "#!/usr/bin/env -\n", true);
    write(fs.getPath("/t/long-option"), "#!/usr/bin/env --split-string=python3\n", true);

    assertThat(unsupported("/t/split"))
        .isEqualTo(
            "entrypoint `/t/split` is unsupported: its `#!` line passes options to env"
                + " (`-S -u decoy python3`)");
    for (String name : List.of("u", "i", "dash", "long-option")) {
      assertThat(unsupported("/t/" + name)).contains("passes options to env");
    }
  }

  @Test
  void severalWordsOrAnAssignmentForEnvAreRefused() {
    tools();
    write(fs.getPath("/t/words"), "#!/usr/bin/env python3 -u\n", true);
    write(fs.getPath("/t/tab"), "#!/usr/bin/env python3\t-u\n", true);
    write(fs.getPath("/t/assign"), "#!/usr/bin/env LANG=C\n", true);

    assertThat(unsupported("/t/words"))
        .isEqualTo(
            "entrypoint `/t/words` is unsupported: its `#!` line passes more than one word to env"
                + " (`python3 -u`)");
    assertThat(unsupported("/t/tab")).contains("more than one word");
    assertThat(unsupported("/t/assign"))
        .isEqualTo(
            "entrypoint `/t/assign` is unsupported: its `#!` line passes an assignment to env"
                + " (`LANG=C`)");
  }

  @Test
  void aLineThatDoesNotEndWithinTheKernelsLimitIsRefused() {
    tools();
    // 256 bytes including `#!` and `\n` is the longest line the kernel reads whole.
    String fits = "#!/usr/bin/python3 " + "x".repeat(256 - 20) + "\n";
    assertThat(fits.length()).isEqualTo(256);
    write(fs.getPath("/t/fits"), fits + "body\n", true);
    String over = "#!/usr/bin/python3 " + "x".repeat(256 - 19) + "\n";
    write(fs.getPath("/t/over"), over, true);
    // A 256-byte file without a newline: the kernel drops its last byte.
    write(fs.getPath("/t/exact"), "#!/usr/bin/python3 " + "y".repeat(256 - 19), true);
    write(fs.getPath("/t/short"), "#!/usr/bin/python3 " + "y".repeat(255 - 19), true);

    assertThat(resolve("/t/fits")).isInstanceOf(RuntimeResolution.Resolved.class);
    assertThat(resolve("/t/short")).isInstanceOf(RuntimeResolution.Resolved.class);
    assertThat(unsupported("/t/over"))
        .isEqualTo(
            "entrypoint `/t/over` is unsupported: its `#!` line does not end within 256 bytes");
    assertThat(unsupported("/t/exact")).contains("does not end within 256 bytes");
  }

  /** Decoding with replacement characters would hash one file and run another. */
  @Test
  void aNonUtf8InterpreterPathIsRefused() {
    tools();
    byte[] line = "#!/usr/bin/py\u00fe\n".getBytes(StandardCharsets.ISO_8859_1);
    write(fs.getPath("/t/latin1"), line, true);
    write(fs.getPath("/usr/bin/py\ufffd"), "\u007fELF replacement", true);
    byte[] overlong = {'#', '!', '/', 'b', 'i', 'n', '/', (byte) 0xC0, (byte) 0xAF, 's', 'h', '\n'};
    write(fs.getPath("/t/overlong"), overlong, true);

    assertThat(unsupported("/t/latin1"))
        .isEqualTo(
            "entrypoint `/t/latin1` is unsupported: its `#!` interpreter path is not valid UTF-8");
    assertThat(unsupported("/t/overlong")).contains("not valid UTF-8");
  }

  @Test
  void aNonUtf8EnvProgramIsRefused() {
    tools();
    byte[] line = "#!/usr/bin/env py\u00fe\n".getBytes(StandardCharsets.ISO_8859_1);
    write(fs.getPath("/t/latin1"), line, true);

    assertThat(unsupported("/t/latin1")).contains("program name for env is not valid UTF-8");
  }

  @Test
  void anInterpreterThatIsItselfAScriptIsRefused() {
    tools();
    write(fs.getPath("/usr/local/bin/wrapper"), "#!/usr/bin/python3\nprint(1)\n", true);
    write(fs.getPath("/shims/python3"), "#!/bin/bash\nexec real \"$@\"\n", true);
    write(fs.getPath("/t/direct"), "#!/usr/local/bin/wrapper\n", true);
    write(fs.getPath("/t/shim"), "#!/usr/bin/env python3\n", true);
    write(fs.getPath("/t/env-script"), "#!/shims/env python3\n", true);
    write(fs.getPath("/shims/env"), "#!/bin/sh\n", true);

    assertThat(unsupported("/t/direct"))
        .isEqualTo(
            "entrypoint `/t/direct` is unsupported: its interpreter `/usr/local/bin/wrapper` is"
                + " itself a `#!` script: start the entrypoint with an absolute `#!` naming a"
                + " binary interpreter");
    RuntimeResolution viaShim =
        RuntimeResolver.of(
                new RuntimeEnvironment("/shims:/usr/bin", fs.getPath("/jdk/bin/java"), List.of()))
            .resolveSaved(
                new LaunchTarget.Executable("x/tool"), Optional.of(fs.getPath("/t/shim")));
    assertThat(viaShim).isInstanceOf(RuntimeResolution.Unsupported.class);
    // The way forward: a PATH whose python3 is a binary, or an absolute #! line.
    assertThat(((RuntimeResolution.Unsupported) viaShim).reason())
        .isEqualTo(
            "entrypoint `/t/shim` is unsupported: its interpreter `/shims/python3` is itself a `#!`"
                + " script: give providers a PATH on which `python3` is a binary, or start the"
                + " entrypoint with an absolute `#!` naming a binary interpreter");
    assertThat(unsupported("/t/env-script"))
        .isEqualTo(
            "entrypoint `/t/env-script` is unsupported: its interpreter `/shims/env` is itself a"
                + " `#!` script: start the entrypoint with an absolute `#!` naming a binary"
                + " interpreter");
  }

  @Test
  void aPlainEnvProgramStillResolves() {
    tools();
    write(fs.getPath("/t/ok"), "#!/usr/bin/env python3  \t\nbody\n", true);

    assertThat(resolve("/t/ok")).isInstanceOf(RuntimeResolution.Resolved.class);
  }
}
