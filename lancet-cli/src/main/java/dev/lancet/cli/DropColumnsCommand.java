package dev.lancet.cli;

import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet drop-columns}: removes columns from the schema. */
@Command(name = "drop-columns",
    description = {"Drop columns (a.b for a struct member); their data stays in the files until "
        + "compaction and cleanup.",
        "Exit codes: 0 committed, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class DropColumnsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--columns", required = true, split = ",", paramLabel = "a,b",
      description = "The columns to drop.")
  List<String> columns;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    CommitInfo info;
    try (LanceTable table = target.open()) {
      info = table.dropColumns(columns.toArray(String[]::new));
    }
    Results.print(spec, json, "dropped " + String.join(", ", columns) + " as version " + info.version(),
        Results.fields("version", info.version(), "attempts", info.attempts()));
    return ExitCodes.OK;
  }
}
