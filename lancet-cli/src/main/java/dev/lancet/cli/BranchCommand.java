package dev.lancet.cli;

import dev.lancet.table.BranchInfo;
import dev.lancet.table.LanceTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet branch}: create, list and delete branches, in lance-core's layout. */
@Command(name = "branch",
    description = {"Branches in Lance's layout (_refs/branches, tree/NAME): lancet branch TABLE "
        + "create NAME [--version N | --tag T] | list | delete NAME. create starts the branch at "
        + "version N (default the latest) of --branch (default main), or at the version tag T "
        + "names; read and write it with --branch NAME on the other commands.",
        "Exit codes: 0 done, 2 invalid input (a branch that exists, a version, tag or branch that "
        + "does not, a branch others start from)."})
public final class BranchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Parameters(index = "1", paramLabel = "ACTION", description = "create, list or delete.")
  String action;

  @Parameters(index = "2", arity = "0..1", paramLabel = "NAME", description = "The branch.")
  String name;

  @Option(names = "--version", paramLabel = "N", description = "create: the version to start at.")
  Long version;

  @Option(names = "--tag", paramLabel = "T", description = "create: start at this tag's version.")
  String tag;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (LanceTable table = target.open()) {
      switch (action) {
        case "list" -> {
          List<BranchInfo> branches = table.branches().list();
          if (json) {
            List<Object> out = new ArrayList<>();
            branches.forEach(b -> out.add(fields(b)));
            Results.print(spec, true, "", out);
          } else {
            TextTable t = TextTable.of(TextTable.Column.left("branch"),
                TextTable.Column.left("parent"), TextTable.Column.right("from version"),
                TextTable.Column.left("created"));
            branches.forEach(b -> t.row(b.name(), b.parentBranch().orElse("main"),
                b.parentVersion(), b.createdAt()));
            t.print(spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
          }
        }
        case "create" -> {
          if (version != null && tag != null) {
            throw new CliException("branch create takes --version or --tag, not both");
          }
          BranchInfo b = tag != null ? table.branches().createFromTag(required(), tag)
              : version != null ? table.branches().create(required(), version)
              : table.branches().create(required());
          Results.print(spec, json, "created branch " + b.name() + " from "
              + b.parentBranch().orElse("main") + " version " + b.parentVersion(), fields(b));
        }
        case "delete" -> {
          table.branches().delete(required());
          Results.print(spec, json, "deleted branch " + name,
              Results.fields("name", name, "deleted", true));
        }
        default -> throw new CliException("unknown branch action '" + action + "'; use create, "
            + "list or delete");
      }
    }
    return ExitCodes.OK;
  }

  private static Object fields(BranchInfo b) {
    return Results.fields("name", b.name(), "parentBranch", b.parentBranch().orElse("main"),
        "parentVersion", b.parentVersion(), "createdAt", b.createdAt().toString());
  }

  private String required() {
    if (name == null) {
      throw new CliException("branch " + action + " needs the branch's NAME");
    }
    return name;
  }
}
