package dev.lancet.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

/**
 * {@link PrintWriter} and {@link PrintStream} keep their write errors to themselves (a full
 * disk, a closed pipe); a command that printed data asks here and fails, so a script is never
 * told that output it lost was written.
 */
final class Outputs {
  private Outputs() {}

  static void check(PrintWriter out, String what) {
    if (out.checkError()) {
      throw new CliException(what + " failed (the device is full, or the reader closed it); "
          + "the output is incomplete");
    }
  }

  static void check(PrintStream out, String what) {
    if (out.checkError()) {
      throw new CliException(what + " failed (the device is full, or the reader closed it); "
          + "the output is incomplete");
    }
  }
}
