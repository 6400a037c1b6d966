package dev.lancet.cli;

import dev.lancet.table.LanceTable;
import dev.lancet.table.TagInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet tag}: create, move, delete and list tags. */
@Command(name = "tag",
    description = {"Tags name versions, in lance-core's _refs/tags format: lancet tag TABLE "
        + "create NAME --version N | move NAME --version N | delete NAME | list. With --branch, "
        + "create and move name a version of that branch.",
        "Exit codes: 0 done, 2 invalid input (a tag that exists, a version or tag that does not)."})
public final class TagCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Parameters(index = "1", paramLabel = "ACTION", description = "create, move, delete or list.")
  String action;

  @Parameters(index = "2", arity = "0..1", paramLabel = "NAME", description = "The tag.")
  String name;

  @Option(names = "--version", paramLabel = "N", description = "The version (create, move; default the latest).")
  Long version;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (LanceTable table = target.open()) {
      switch (action) {
        case "list" -> {
          List<TagInfo> tags = table.tags().list();
          if (json) {
            List<Object> out = new ArrayList<>();
            tags.forEach(t -> out.add(Results.fields("name", t.name(), "version", t.version(),
                "branch", t.branch().orElse("main"))));
            Results.print(spec, true, "", out);
          } else {
            TextTable t = TextTable.of(TextTable.Column.left("tag"), TextTable.Column.left("branch"),
                TextTable.Column.right("version"));
            tags.forEach(x -> t.row(x.name(), x.branch().orElse("main"), x.version()));
            t.print(spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
          }
        }
        case "create", "move" -> {
          long v = version != null ? version : table.version();
          TagInfo t = action.equals("create") ? table.tags().create(required(), v)
              : table.tags().move(required(), v);
          Results.print(spec, json, (action.equals("create") ? "created" : "moved") + " tag "
              + t.name() + " -> version " + t.version(), Results.fields("name", t.name(), "version", t.version()));
        }
        case "delete" -> {
          table.tags().delete(required());
          Results.print(spec, json, "deleted tag " + name, Results.fields("name", name, "deleted", true));
        }
        default -> throw new CliException("unknown tag action '" + action + "'; use create, move, "
            + "delete or list");
      }
    }
    return ExitCodes.OK;
  }

  private String required() {
    if (name == null) {
      throw new CliException("tag " + action + " needs the tag's NAME");
    }
    return name;
  }
}
