package dev.lancet.interop.mixed;

import java.util.Arrays;

/**
 * The entry point of every worker JVM of the mixed-writers test ({@code WorkerProcesses} starts
 * one main class): the first argument names the role, the rest are that role's arguments.
 */
public final class MixedWorkerMain {
  private MixedWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "lance-ingest" -> LanceIngestMain.main(rest);
      case "lance-maintenance" -> LanceMaintenanceMain.main(rest);
      case "lancet" -> LancetWriterMain.main(rest);
      default -> throw new IllegalArgumentException("unknown worker role " + args[0]);
    }
  }
}
