package dev.lancet.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs the {@code lancet} command in-process with captured stdout and stderr. */
final class Cli {
  /** The outcome of one run. */
  record Result(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }

    List<String> outLines() {
      return out.lines().toList();
    }
  }

  private Cli() {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Result(code, out.toString(), err.toString());
  }
}
