package io.loopx.samples.cli;

import io.loopx.runtime.Mode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The global options of one invocation, merged over the command chain from {@code loopx} down to
 * the command that runs.
 *
 * @param stateFile the activation state file
 * @param mode preview or execute
 * @param format the output format
 */
record Settings(Path stateFile, Mode mode, Format format) {

  /** Rejects nulls. */
  Settings {
    Objects.requireNonNull(stateFile, "stateFile");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(format, "format");
  }

  /**
   * Merges the global options of {@code leaf} and its ancestors: for each option, the value given
   * deepest in the chain wins; {@code --execute} anywhere executes; {@code --state-file} overrides
   * {@code --runtime-root}, whose default is {@code .loopx} under {@code userHome}. Relative paths
   * are made absolute against the working directory.
   */
  static Settings of(CommandSpec leaf, Path userHome) {
    List<GlobalOptions> chain = new ArrayList<>();
    for (@Nullable CommandSpec s = leaf; s != null; s = s.parent()) {
      if (s.userObject() instanceof GlobalOptions.Holder holder) {
        chain.add(holder.globalOptions());
      }
    }
    Collections.reverse(chain); // root first, leaf last
    Path runtimeRoot = userHome.resolve(".loopx");
    @Nullable Path stateFile = null;
    boolean execute = false;
    Format format = Format.TEXT;
    for (GlobalOptions o : chain) {
      if (o.runtimeRoot != null) {
        runtimeRoot = o.runtimeRoot;
      }
      if (o.stateFile != null) {
        stateFile = o.stateFile;
      }
      if (o.format != null) {
        format = o.format;
      }
      execute |= o.execute;
    }
    Path file =
        stateFile != null ? stateFile : runtimeRoot.resolve("extensions").resolve("state.json");
    return new Settings(file.toAbsolutePath(), execute ? Mode.EXECUTE : Mode.PREVIEW, format);
  }
}
