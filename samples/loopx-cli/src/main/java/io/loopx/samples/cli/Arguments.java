package io.loopx.samples.cli;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Parses id arguments: one that breaks its grammar is a usage error naming the value. */
final class Arguments {
  private Arguments() {}

  /** Parses an extension id argument. */
  static ExtensionId extensionId(String value) {
    try {
      return ExtensionId.of(value);
    } catch (InvalidValueException e) {
      throw usage(e.getMessage());
    }
  }

  /** Parses a capability id argument. */
  static CapabilityId capabilityId(String value) {
    try {
      return CapabilityId.of(value);
    } catch (InvalidValueException e) {
      throw usage(e.getMessage());
    }
  }

  /** Parses an action argument. */
  static ActionToken action(String value) {
    try {
      return ActionToken.of(value);
    } catch (InvalidValueException e) {
      throw usage(e.getMessage());
    }
  }

  /** Parses a path argument; one the file system cannot represent is a usage error. */
  static Path path(String value) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw usage("invalid path `" + value.replace("\0", "\\0") + "`: " + e.getReason());
    }
  }

  /** Returns a usage error with {@code message}. */
  static UsageException usage(String message) {
    return new UsageException(message);
  }
}
