package io.loopx.runtime;

import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link System.Logger} that keeps every line it is given, at every level. */
final class CapturingLogger implements System.Logger {
  /** One logged line. */
  record Line(Level level, String message, boolean withThrowable) {}

  final List<Line> lines = new CopyOnWriteArrayList<>();

  @Override
  public String getName() {
    return "io.loopx";
  }

  @Override
  public boolean isLoggable(Level level) {
    return true;
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    lines.add(new Line(level, msg, thrown != null));
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    lines.add(new Line(level, format, false));
  }

  List<String> at(Level level) {
    return lines.stream().filter(l -> l.level() == level).map(Line::message).toList();
  }
}
