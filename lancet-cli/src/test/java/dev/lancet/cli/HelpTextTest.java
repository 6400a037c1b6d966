package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's help renders cleanly, and every table command takes storage options. */
class HelpTextTest {
  @Test
  void everyCommandsHelpRendersWithoutPicocliWarnings() {
    Map<String, CommandLine> commands = Main.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands();
    assertThat(commands).containsKeys("delete", "scan", "update", "merge-insert", "txn");
    PrintStream saved = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    try {
      // picocli reports a description it cannot format (e.g. an unescaped '%') on System.err.
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      for (String name : commands.keySet()) {
        Cli.Result help = Cli.run(name, "--help");
        assertThat(help.exitCode()).as(name).isZero();
        assertThat(help.out()).as(name).contains("Usage: lancet " + name);
      }
    } finally {
      System.setErr(saved);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void everyCommandThatTakesATableTakesStorageOptions() {
    Map<String, CommandLine> commands = Main.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands();
    for (Map.Entry<String, CommandLine> c : commands.entrySet()) {
      boolean takesTable = c.getValue().getCommandSpec().positionalParameters().stream()
          .anyMatch(p -> p.paramLabel().equals("TABLE"));
      if (takesTable) {
        assertThat(c.getValue().getCommandSpec().findOption("--storage-option"))
            .as("lancet %s --storage-option", c.getKey()).isNotNull();
      }
    }
  }
}
