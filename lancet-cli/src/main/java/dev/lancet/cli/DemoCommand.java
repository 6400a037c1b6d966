package dev.lancet.cli;

import dev.lancet.core.Table;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lancet demo}: a placeholder until the concurrent-writers demo exists. Given the
 * directory of a Lance table, it prints that table's {@code inspect} summary.
 */
@Command(name = "demo",
    description = {"The concurrent-writers demo (not implemented yet).",
        "Given DIR holding a Lance table, prints its inspect summary."})
public final class DemoCommand implements Callable<Integer> {
  static final String NOT_IMPLEMENTED =
      "lancet demo: the full concurrent-writers demo is not implemented yet.";

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "A directory.")
  String dir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.println(NOT_IMPLEMENTED);
    if (dir != null) {
      if (Files.isDirectory(Path.of(dir, "_versions"))) {
        out.println();
        try (Table table = Table.open(dir)) {
          new ManifestReport(dir, table.latest(), false, false).print(out);
        }
      } else {
        out.println(dir + " is not a Lance table (it has no _versions/ directory).");
      }
    }
    out.flush();
    return ExitCodes.OK;
  }
}
