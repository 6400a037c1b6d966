package dev.lancet.cli;

import dev.lancet.cli.table.InputFiles;
import dev.lancet.cli.table.TypeSpecs;
import dev.lancet.table.AddColumns;
import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet add-columns}: new columns, all-null or from a file aligned with the table. */
@Command(name = "add-columns",
    description = {"Add columns: all-null (--null NAME:TYPE, TYPE a Lance type such as int64, "
        + "string, fixed_size_list:float:128), computed by SQL expressions of existing columns "
        + "(--sql NAME=EXPR, e.g. --sql pct='score * 100'), or from an Arrow IPC or CSV file with "
        + "one row per live row of the table in scan order (--from FILE).",
        "Exit codes: 0 committed, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class AddColumnsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  static final class Source {
    @Option(names = "--from", paramLabel = "FILE", description = "The new columns' values.")
    Path from;

    @Option(names = "--null", paramLabel = "NAME:TYPE", description = "An all-null column (repeatable).")
    List<String> nulls;

    @Option(names = "--sql", paramLabel = "NAME=EXPR", description = "A column computed by a SQL "
        + "expression of existing columns, the same as update's SET values (repeatable).")
    List<String> sql;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--input-format", paramLabel = "F", description = "arrow-file, arrow-stream or csv.")
  String inputFormat;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    CommitInfo info;
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable table = target.open()) {
      if (source.nulls != null) {
        List<Field> fields = new ArrayList<>();
        for (String spec : source.nulls) {
          int colon = spec.indexOf(':');
          if (colon <= 0 || colon == spec.length() - 1) {
            throw new CliException("--null takes NAME:TYPE, not '" + spec + "'");
          }
          fields.add(TypeSpecs.field(spec.substring(0, colon), spec.substring(colon + 1), true));
        }
        info = table.addColumns().nulls(fields.toArray(Field[]::new)).commit();
      } else if (source.sql != null) {
        AddColumns add = table.addColumns();
        for (String s : source.sql) {
          String[] pair = TypeSpecs.pair(s, "--sql");
          add.sql(pair[0], pair[1]);
        }
        info = add.commit();
      } else {
        try (ArrowReader reader = InputFiles.open(source.from, Optional.ofNullable(inputFormat)
            .map(InputFiles::parseFormat), Optional.empty(), alloc)) {
          AddColumns add = table.addColumns().from(reader);
          info = add.commit();
        }
      }
    }
    Results.print(spec, json, "added columns as version " + info.version(),
        Results.fields("version", info.version(), "attempts", info.attempts()));
    return ExitCodes.OK;
  }
}
