package dev.lancet.cli;

import dev.lancet.cli.table.Progress;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet delete}: deletes the rows a SQL filter selects. */
@Command(name = "delete",
    description = {"Delete the rows a SQL filter selects (Lance's filter syntax), as one "
        + "Transaction V2 commit; nothing is committed when no row matches.",
        "Exit codes: 0 done, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class DeleteCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--where", required = true, paramLabel = "PRED",
      description = "The rows to delete, e.g. \"id %% 10 = 0\" (\"true\": every row).")
  String where;

  @Mixin
  StatementOptions options;

  @Override
  public Integer call() {
    try (LanceTable table = target.open();
        Progress p = new Progress(spec.commandLine().getErr(), options.progress, "read")) {
      StatementResult r = options.apply(table.newDelete().where(where).onProgress(p)).commit();
      p.close();
      StatementOutput.print(spec, options.json, "delete", r);
    }
    return ExitCodes.OK;
  }
}
