package dev.lancet.cli;

import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet restore}: makes an older version's content the newest version. */
@Command(name = "restore",
    description = {"Make version N's content the newest version (a new version; history is kept).",
        "Exit codes: 0 committed, 2 invalid input (no such version), 3 retryable conflict, "
            + "4 incompatible, 5 commit state unknown."})
public final class RestoreCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--version", required = true, paramLabel = "N", description = "The version to restore.")
  long version;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    CommitInfo info;
    try (LanceTable table = target.open()) {
      info = table.restore(version);
    }
    Results.print(spec, json, "restored version " + version + " as version " + info.version(),
        Results.fields("version", info.version(), "restored", version, "attempts", info.attempts()));
    return ExitCodes.OK;
  }
}
