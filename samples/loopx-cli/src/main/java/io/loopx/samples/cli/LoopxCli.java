package io.loopx.samples.cli;

/** The sample host's command line (grown into the full CLI by a later issue). */
public final class LoopxCli {
  private LoopxCli() {}

  /** Entry point. */
  public static void main(String[] args) {
    System.out.println("loopx");
  }
}
