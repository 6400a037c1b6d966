package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir
  Path dir;

  @Test
  void saysItIsNotImplemented() {
    Cli.Result r = Cli.run("demo");

    assertThat(r.exitCode()).isZero();
    assertThat(r.outLines()).containsExactly(DemoCommand.NOT_IMPLEMENTED);
  }

  @Test
  void inspectsATable() {
    TableFixture t = TableFixture.history(dir.resolve("t"));

    Cli.Result r = Cli.run("demo", t.location());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines().get(0)).isEqualTo(DemoCommand.NOT_IMPLEMENTED);
    assertThat(r.outLines()).anyMatch(l -> l.matches("version:\\s+7"));
    assertThat(r.outLines()).contains("SCHEMA (5 fields)", "FRAGMENTS (3)");
  }

  @Test
  void aDirectoryWithoutTableIsNotAnError() {
    Cli.Result r = Cli.run("demo", dir.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.outLines()).containsExactly(DemoCommand.NOT_IMPLEMENTED,
        dir + " is not a Lance table (it has no _versions/ directory).");
  }
}
