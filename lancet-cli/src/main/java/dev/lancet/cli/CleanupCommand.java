package dev.lancet.cli;

import dev.lancet.cli.table.Durations;
import dev.lancet.table.CleanupReport;
import dev.lancet.table.LanceTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet cleanup}: removes old versions and files nothing references. */
@Command(name = "cleanup",
    description = {"Remove old versions (never the latest, a tagged one or one another branch "
        + "starts from) and the files no kept version of any branch references, never the files "
        + "of a write in flight. A version goes when it meets every criterion given. Run with "
        + "--dry-run first.", "DURATION: 14d, 12h, 30m, 0s or P14D."})
public final class CleanupCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--older-than", paramLabel = "DURATION", description = "Versions older than "
      + "this may go; files no version references go once this old (14d when not given).")
  String olderThan;

  @Option(names = "--retain-last", paramLabel = "N", description = "Keep the N newest versions.")
  Integer retainLast;

  @Option(names = "--before-version", paramLabel = "V", description = "Only versions below V may go.")
  Long beforeVersion;

  @Option(names = "--dry-run", description = "Show what would be removed, remove nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    if (olderThan == null && retainLast == null && beforeVersion == null) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "say which versions "
          + "may go: --older-than DURATION, --retain-last N and/or --before-version V");
    }
    CleanupReport r;
    try (LanceTable table = target.open()) {
      var cleanup = table.cleanup();
      if (olderThan != null) {
        cleanup.olderThan(Durations.parse(olderThan));
      }
      if (retainLast != null) {
        cleanup.retainLast(retainLast);
      }
      if (beforeVersion != null) {
        cleanup.beforeVersion(beforeVersion);
      }
      r = dryRun ? cleanup.dryRun() : cleanup.commit();
    }
    if (json) {
      Results.print(spec, true, "", Results.fields("dryRun", r.dryRun(), "versions", r.versionsRemoved(),
          "files", r.filesRemoved(), "bytes", r.bytesRemoved(), "kept", r.kept()));
      return ExitCodes.OK;
    }
    PrintWriter out = spec.commandLine().getOut();
    String verb = r.dryRun() ? "would remove" : "removed";
    out.println(verb + " " + r.versionsRemoved().size() + " version(s) " + r.versionsRemoved()
        + " and " + r.filesRemoved().size() + " file(s), " + r.bytesRemoved() + " bytes");
    for (String f : r.filesRemoved()) {
      out.println("  " + f);
    }
    for (String k : r.kept()) {
      out.println("kept " + k);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
