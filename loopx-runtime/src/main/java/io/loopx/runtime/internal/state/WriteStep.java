package io.loopx.runtime.internal.state;

/** The durability steps of one state write, in order (package-private; a crash-test hook). */
enum WriteStep {
  TEMP_WRITTEN,
  TEMP_FSYNCED,
  RENAMED,
  DIRECTORY_FSYNCED
}
