package io.loopx.runtime.internal.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Unsigned;

/**
 * The JFR events of LoopX (docs/observing.md#jfr-events), enabled by default in a recording; each
 * has its duration and the ids of what it did. Empty strings stand for "not known".
 */
public final class JfrEvents {
  private JfrEvents() {}

  /** A capability dispatch. */
  @Name("io.loopx.Dispatch")
  @Label("LoopX Dispatch")
  @Category("LoopX")
  @Description("A governed capability dispatch, from the call to its receipt or error")
  @StackTrace(false)
  static final class Dispatch extends Event {
    @Label("Capability")
    String capability = "";

    @Label("Protocol")
    String protocol = "";

    @Label("Action")
    String action = "";

    @Label("Provider")
    String provider = "";

    @Label("Revision")
    String revision = "";

    @Label("Preview")
    boolean preview;

    @Label("Outcome")
    String outcome = "";
  }

  /** A standalone run. */
  @Name("io.loopx.Run")
  @Label("LoopX Run")
  @Category("LoopX")
  @Description("A managed run of a standalone extension, from the call to its receipt or error")
  @StackTrace(false)
  static final class Run extends Event {
    @Label("Extension")
    String extension = "";

    @Label("Revision")
    String revision = "";

    @Label("Preview")
    boolean preview;

    @Label("Outcome")
    String outcome = "";
  }

  /** One doctor probe (a provider process started with the doctor arguments). */
  @Name("io.loopx.DoctorProbe")
  @Label("LoopX Doctor Probe")
  @Category("LoopX")
  @Description("One doctor probe of an extension runtime")
  @StackTrace(false)
  public static final class DoctorProbe extends Event {
    @Label("Extension")
    String extension = "";

    @Label("Revision")
    String revision = "";

    @Label("Outcome")
    String outcome = "";

    /** Sets the fields. */
    public void set(String extension, String revision, String outcome) {
      this.extension = extension;
      this.revision = revision;
      this.outcome = outcome;
    }
  }

  /** One compare-and-set write of the activation state. */
  @Name("io.loopx.LifecycleWrite")
  @Label("LoopX Lifecycle Write")
  @Category("LoopX")
  @Description("One locked compare-and-set write of the activation state")
  @StackTrace(false)
  static final class LifecycleWrite extends Event {
    @Label("Operation")
    String operation = "";

    @Label("Extensions")
    String extensions = "";

    @Label("Outcome")
    String outcome = "";
  }

  /** A warm worker's start, from its launch to its accepted handshake. */
  @Name("io.loopx.WorkerSpawn")
  @Label("LoopX Worker Spawn")
  @Category("LoopX")
  @Description("The start of a warm worker, from its launch to its accepted handshake")
  @StackTrace(false)
  static final class WorkerSpawn extends Event {
    @Label("Extension")
    String extension = "";

    @Label("Revision")
    String revision = "";

    @Label("Process Id")
    @Unsigned
    long pid;
  }

  /** A warm worker LoopX ended, from its launch until nothing of it was left. */
  @Name("io.loopx.WorkerRetire")
  @Label("LoopX Worker Retire")
  @Category("LoopX")
  @Description("The life of a warm worker LoopX ended, from its launch until nothing was left")
  @StackTrace(false)
  static final class WorkerRetire extends Event {
    @Label("Extension")
    String extension = "";

    @Label("Revision")
    String revision = "";

    @Label("Process Id")
    @Unsigned
    long pid;

    @Label("Reason")
    String reason = "";

    @Label("Requests Served")
    long served;
  }

  /** A warm worker that failed on its own, from its launch until nothing of it was left. */
  @Name("io.loopx.WorkerCrash")
  @Label("LoopX Worker Crash")
  @Category("LoopX")
  @Description("The life of a warm worker that failed its handshake or ended on its own")
  @StackTrace(false)
  static final class WorkerCrash extends Event {
    @Label("Extension")
    String extension = "";

    @Label("Revision")
    String revision = "";

    @Label("Process Id")
    @Unsigned
    long pid;

    @Label("Failure")
    String failure = "";

    @Label("Exit Code")
    @Description("-1 when not known (LoopX killed it)")
    int exitCode = -1;

    @Label("Requests Served")
    long served;
  }
}
