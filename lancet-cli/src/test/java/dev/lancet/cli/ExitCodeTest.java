package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit codes and the one-line error messages on stderr. */
class ExitCodeTest {
  @TempDir
  Path dir;

  /** Exit 2, nothing on stdout, and a single {@code lancet: } line on stderr. */
  private static void assertOneLineError(Cli.Result r, String containing) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines().get(0)).startsWith("lancet: ").contains(containing);
  }

  /** Exit 2, the message line and then the usage hint. */
  private static void assertUsageError(Cli.Result r, String message, String command) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).containsExactly(
        "lancet: " + message, "Try '" + command + " --help' for more information.");
  }

  @Test
  void missingTableDirectory() {
    String missing = dir.resolve("nope").toString();
    for (String command : new String[] {"inspect", "log", "show-txn"}) {
      Cli.Result r = Cli.run(command, missing);
      assertOneLineError(r, "no Lance table at " + missing);
    }
  }

  @Test
  void aRegularFileIsNoTable() throws Exception {
    Path file = Files.writeString(dir.resolve("file.txt"), "hello");
    assertOneLineError(Cli.run("inspect", file.toString()), "is not a directory");
  }

  @Test
  void missingVersion() {
    TableFixture t = TableFixture.history(dir.resolve("t"));
    assertOneLineError(Cli.run("inspect", t.location(), "--version", "99"),
        "version 99 does not exist; the table has 7 version(s) from 1 to 7");
    assertOneLineError(Cli.run("show-txn", t.location(), "--version", "99"), "version 99 does not exist");
  }

  @Test
  void missingTag() {
    TableFixture t = TableFixture.history(dir.resolve("t"));
    assertOneLineError(Cli.run("inspect", t.location(), "--tag", "nope"), "tag 'nope' does not exist");
  }

  @Test
  void truncatedManifest() throws Exception {
    TableFixture t = TableFixture.history(dir.resolve("t"));
    Path latest = dir.resolve("t/_versions/7.manifest");
    byte[] bytes = Files.readAllBytes(latest);
    Files.write(latest, Arrays.copyOf(bytes, bytes.length - 5));

    Cli.Result r = Cli.run("inspect", t.location());

    assertOneLineError(r, "_versions/7.manifest");
    assertThat(r.err()).doesNotContain("\tat ");
  }

  @Test
  void verbosePrintsTheStackTrace() throws Exception {
    TableFixture t = TableFixture.history(dir.resolve("t"));
    Path latest = dir.resolve("t/_versions/7.manifest");
    Files.write(latest, new byte[] {1, 2, 3});

    Cli.Result r = Cli.run("--verbose", "inspect", t.location());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).startsWith("lancet: _versions/7.manifest: file is 3 bytes");
    assertThat(r.err()).contains("dev.lancet.format.FormatException").contains("\tat ");

    Cli.Result after = Cli.run("inspect", t.location(), "--verbose");
    assertThat(after.exitCode()).isEqualTo(2);
    assertThat(after.err()).contains("\tat ");
  }

  @Test
  void missingTableArgument() {
    assertUsageError(Cli.run("inspect"), "Missing required parameter: 'TABLE'", "lancet inspect");
    assertUsageError(Cli.run("log"), "Missing required parameter: 'TABLE'", "lancet log");
  }

  @Test
  void versionMustBeANumber() {
    assertUsageError(Cli.run("inspect", "t", "--version", "abc"),
        "Invalid value for option '--version': 'abc' is not a long", "lancet inspect");
  }

  @Test
  void versionAndTagExcludeEachOther() {
    TableFixture t = TableFixture.history(dir.resolve("t"));
    assertUsageError(Cli.run("inspect", t.location(), "--version", "1", "--tag", "x"),
        "--version and --tag both select a version; give only one", "lancet inspect");
  }

  @Test
  void unknownOptionAndCommand() {
    Cli.Result option = Cli.run("log", "t", "--bogus");
    assertThat(option.exitCode()).isEqualTo(2);
    assertThat(option.errLines().get(0)).startsWith("lancet: Unknown option: '--bogus'");

    Cli.Result command = Cli.run("frobnicate");
    assertThat(command.exitCode()).isEqualTo(2);
    assertThat(command.errLines().get(0)).startsWith("lancet: ");
    assertThat(command.errLines()).hasSize(2);
  }

  @Test
  void noCommand() {
    assertUsageError(Cli.run(), "no command given; use one of: inspect, log, show-txn, commit, demo", "lancet");
  }

  @Test
  void helpAndVersion() {
    Cli.Result help = Cli.run("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("inspect", "log", "show-txn", "demo", "--verbose");

    Cli.Result sub = Cli.run("inspect", "--help");
    assertThat(sub.exitCode()).isZero();
    assertThat(sub.out()).contains("--version=N", "--tag=NAME", "--json", "--indices", "--all");

    Cli.Result helpCommand = Cli.run("help", "log");
    assertThat(helpCommand.exitCode()).isZero();
    assertThat(helpCommand.out()).contains("--limit");

    Cli.Result version = Cli.run("--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.out().strip()).isEqualTo("lancet 0.1.0");
  }

  @Test
  void unsupportedLocationScheme() {
    assertOneLineError(Cli.run("inspect", "gs://bucket/t"), "scheme 'gs' is not supported");
  }
}
