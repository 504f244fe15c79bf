package io.loopx.samples.cli;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;

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

  /** Returns a usage error with {@code message}. */
  static LoopxException usage(String message) {
    return new LoopxException(ErrorKind.USAGE, message);
  }
}
