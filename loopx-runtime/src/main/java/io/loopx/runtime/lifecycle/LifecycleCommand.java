package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import java.util.Objects;

/**
 * A lifecycle command. Sealed; {@link #kind()} lets the planner switch exhaustively over commands
 * on Java 17 (an enum switch expression without a default branch fails to compile when a kind is
 * added and not handled).
 */
public sealed interface LifecycleCommand {

  /** The kinds of command, one per record. */
  enum Kind {
    INSTALL,
    UPGRADE,
    ENABLE,
    DISABLE,
    ROLLBACK,
    DOCTOR,
    DOCTOR_ALL_ENABLED,
    LIST
  }

  /** Returns this command's kind. */
  Kind kind();

  /** Returns the operation name used in receipts and conflict messages. */
  default String operation() {
    return switch (kind()) {
      case INSTALL -> "install";
      case UPGRADE -> "upgrade";
      case ENABLE -> "enable";
      case DISABLE -> "disable";
      case ROLLBACK -> "rollback";
      case DOCTOR, DOCTOR_ALL_ENABLED -> "doctor";
      case LIST -> "list";
    };
  }

  /**
   * Install a new extension from a validated manifest.
   *
   * @param manifest the candidate manifest
   */
  record Install(ExtensionManifest manifest) implements LifecycleCommand {
    /** Rejects null. */
    public Install {
      Objects.requireNonNull(manifest, "manifest");
    }

    @Override
    public Kind kind() {
      return Kind.INSTALL;
    }
  }

  /**
   * Upgrade an installed extension to a new manifest revision.
   *
   * @param manifest the candidate manifest
   */
  record Upgrade(ExtensionManifest manifest) implements LifecycleCommand {
    /** Rejects null. */
    public Upgrade {
      Objects.requireNonNull(manifest, "manifest");
    }

    @Override
    public Kind kind() {
      return Kind.UPGRADE;
    }
  }

  /**
   * Enable an extension after a fresh doctor probe.
   *
   * @param id the extension
   */
  record Enable(ExtensionId id) implements LifecycleCommand {
    /** Rejects null. */
    public Enable {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public Kind kind() {
      return Kind.ENABLE;
    }
  }

  /**
   * Disable an extension (reversible; history and proofs are kept).
   *
   * @param id the extension
   */
  record Disable(ExtensionId id) implements LifecycleCommand {
    /** Rejects null. */
    public Disable {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public Kind kind() {
      return Kind.DISABLE;
    }
  }

  /**
   * Switch an extension back to its rollback revision after probing it.
   *
   * @param id the extension
   */
  record Rollback(ExtensionId id) implements LifecycleCommand {
    /** Rejects null. */
    public Rollback {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public Kind kind() {
      return Kind.ROLLBACK;
    }
  }

  /**
   * Run the doctor of one extension.
   *
   * @param id the extension
   */
  record Doctor(ExtensionId id) implements LifecycleCommand {
    /** Rejects null. */
    public Doctor {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public Kind kind() {
      return Kind.DOCTOR;
    }
  }

  /** Run the doctor of every enabled extension. */
  record DoctorAllEnabled() implements LifecycleCommand {
    @Override
    public Kind kind() {
      return Kind.DOCTOR_ALL_ENABLED;
    }
  }

  /** List installed extensions. */
  record ListExtensions() implements LifecycleCommand {
    @Override
    public Kind kind() {
      return Kind.LIST;
    }
  }
}
