package dev.lancet.cli.table;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Rows done and rows per second, on one line of stderr redrawn at most every 200 ms: shown on a
 * terminal (a console is attached) or when asked for, never in a pipe by default.
 */
public final class Progress implements LongConsumer, AutoCloseable {
  private final PrintWriter err;
  private final boolean on;
  private final String verb;
  private final long start = System.nanoTime();
  private long lastDraw;
  private long rows;
  private boolean closed;

  public Progress(PrintWriter err, boolean forced, String verb) {
    this.err = err;
    this.on = forced || System.console() != null;
    this.verb = verb;
  }

  @Override
  public void accept(long rowsSoFar) {
    rows = rowsSoFar;
    long now = System.nanoTime();
    if (on && now - lastDraw > 200_000_000L) {
      lastDraw = now;
      draw(false);
    }
  }

  private void draw(boolean last) {
    double seconds = Math.max((System.nanoTime() - start) / 1e9, 1e-9);
    err.print(String.format(Locale.ROOT, "\r%s %,d rows (%,.0f rows/s)%s", verb, rows,
        rows / seconds, last ? "\n" : ""));
    err.flush();
  }

  @Override
  public void close() {
    // Commands close it before printing their result and again on leaving: draw the end once.
    if (closed) {
      return;
    }
    closed = true;
    if (on && rows > 0) {
      draw(true);
    }
  }
}
