package dev.lancet.cli;

import dev.lancet.cli.table.TypeSpecs;
import dev.lancet.table.AlterColumns;
import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet alter-columns}: renames, nullability changes and casts, in one commit. */
@Command(name = "alter-columns",
    description = {"Rename columns, change their nullability (false only if they hold no null) "
        + "or cast them (TYPE a Lance type: int32, float, large_string, "
        + "fixed_size_list:halffloat:128, ...), as one commit.",
        "Exit codes: 0 committed, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class AlterColumnsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--rename", paramLabel = "a=b", description = "Rename column a to b (repeatable).")
  List<String> renames;

  @Option(names = "--nullable", paramLabel = "a=true|false", description = "Change nullability (repeatable).")
  List<String> nullables;

  @Option(names = "--cast", paramLabel = "a=TYPE", description = "Cast column a (repeatable).")
  List<String> casts;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    CommitInfo info;
    try (LanceTable table = target.open()) {
      AlterColumns alter = table.alterColumns();
      for (String r : renames == null ? List.<String>of() : renames) {
        String[] kv = TypeSpecs.pair(r, "--rename");
        alter.rename(kv[0], kv[1]);
      }
      for (String n : nullables == null ? List.<String>of() : nullables) {
        String[] kv = TypeSpecs.pair(n, "--nullable");
        if (!kv[1].equals("true") && !kv[1].equals("false")) {
          throw new CliException("--nullable takes NAME=true or NAME=false, not '" + n + "'");
        }
        alter.nullable(kv[0], Boolean.parseBoolean(kv[1]));
      }
      for (String c : casts == null ? List.<String>of() : casts) {
        String[] kv = TypeSpecs.pair(c, "--cast");
        Field target = TypeSpecs.field(kv[0], kv[1], true);
        alter.cast(kv[0], target);
      }
      info = alter.commit();
    }
    Results.print(spec, json, "altered columns as version " + info.version(),
        Results.fields("version", info.version(), "attempts", info.attempts()));
    return ExitCodes.OK;
  }
}
