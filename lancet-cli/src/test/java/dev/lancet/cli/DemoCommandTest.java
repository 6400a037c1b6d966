package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void createsATableAndPrintsIt() {
    Path target = dir.resolve("demo");
    Cli.Result r = Cli.run("demo", target.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines().get(0)).isEqualTo(DemoCommand.PREVIEW_NOTE);
    assertThat(r.out()).contains("Created a Lance table", "HISTORY", "Overwrite", "UpdateConfig");
    try (Table t = Table.open(target.toString())) {
      assertThat(t.latest().version()).isEqualTo(2);
      assertThat(t.latest().manifest().config()).containsEntry("lancet.demo", "true");
      assertThat(t.latest().manifest().schema().fields()).hasSize(2);
    }
  }

  @Test
  void reusesAnExistingTable() {
    Path target = dir.resolve("demo");
    Cli.run("demo", target.toString());
    Cli.Result r = Cli.run("demo", target.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("Reusing the table");
  }

  @Test
  void refusesANonEmptyDirectoryWithoutTable() throws Exception {
    Files.writeString(dir.resolve("something.txt"), "x");
    Cli.Result r = Cli.run("demo", dir.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("is not empty");
  }
}
