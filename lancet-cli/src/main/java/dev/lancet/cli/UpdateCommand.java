package dev.lancet.cli;

import dev.lancet.cli.table.Progress;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import dev.lancet.table.Update;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet update}: sets columns of the rows a SQL filter selects. */
@Command(name = "update",
    description = {"Update the rows a SQL filter selects: --set COLUMN=EXPRESSION (a SQL "
        + "expression of the row, cast to the column's type), as one Transaction V2 commit. "
        + "Updated rows move to new fragments; with stable row ids they keep their row ids.",
        "Exit codes: 0 done, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class UpdateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--where", paramLabel = "PRED", description = "The rows to update (default: all).")
  String where;

  @Option(names = "--set", required = true, paramLabel = "COL=EXPR",
      description = "A column and its new value, e.g. --set 'score=score * 2'; repeatable.")
  List<String> sets;

  @Mixin
  StatementOptions options;

  @Override
  public Integer call() {
    try (LanceTable table = target.open();
        Progress p = new Progress(spec.commandLine().getErr(), options.progress, "read")) {
      Update u = table.newUpdate().onProgress(p);
      if (where != null) {
        u.where(where);
      }
      for (String s : sets) {
        String[] kv = StatementOutput.assignment(s, "--set");
        u.set(kv[0], kv[1]);
      }
      StatementResult r = options.apply(u).commit();
      p.close();
      StatementOutput.print(spec, options.json, "update", r);
    }
    return ExitCodes.OK;
  }
}
