package io.loopx.samples.cli;

/** Renders a command's result as readable text (the {@code --format text} output). */
@FunctionalInterface
interface TextView {
  /** Returns the text, ending with a line break, highlighted with {@code style}. */
  String render(Style style);
}
