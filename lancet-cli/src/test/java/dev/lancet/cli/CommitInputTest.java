package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 10, parts 1 and 4: what {@code lancet commit} does with operation files and read versions
 * it cannot use: one line naming the file and the defect, exit 2 on the first attempt, nothing
 * written to the table.
 */
class CommitInputTest {
  @TempDir Path dir;
  Path table;

  @BeforeEach
  void createTable() {
    table = TableFixture.createSmallTable(dir.resolve("t"));
  }

  private SortedMap<String, Long> tableFiles() throws Exception {
    SortedMap<String, Long> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(table)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p)) {
          out.put(table.relativize(p).toString(), Files.size(p));
        }
      }
    }
    return out;
  }

  private Cli.Result commit(Path file, String... more) throws Exception {
    SortedMap<String, Long> before = tableFiles();
    String[] args = new String[3 + more.length + 1];
    args[0] = "commit";
    args[1] = table.toString();
    args[2] = "--file";
    args[3] = file.toString();
    System.arraycopy(more, 0, args, 4, more.length);
    Cli.Result r = Cli.run(args);
    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.errLines()).as("one line").hasSize(1);
    assertThat(r.err().length()).as("bounded").isLessThan(2_200);
    assertThat(tableFiles()).as("nothing written").isEqualTo(before);
    return r;
  }

  private Path json(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  private static final String SET_CONFIG = "{\"actions\": [{\"description\": \"c\", \"actions\": [{\"configUpdate\": "
      + "{\"config\": {\"updateEntries\": [{\"key\": \"k\", \"value\": \"v\"}]}}}]}]}";

  @Test
  void aDirectoryIsNamedAsADirectory() throws Exception {
    Path d = Files.createDirectories(dir.resolve("ops"));
    assertThat(commit(d).err()).contains("is a directory");
  }

  @Test
  void aFifoIsRefusedWithoutBeingOpened() throws Exception {
    Path fifo = dir.resolve("op.fifo");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(p.waitFor()).isZero();
    // Opening a FIFO for reading would block until a writer comes: the command must not.
    assertThat(commit(fifo).err()).contains("is not a regular file");
  }

  @Test
  void invalidUtf8NamesTheByteOffset() throws Exception {
    Path f = dir.resolve("latin1.json");
    byte[] text = "{\"actions\": [{\"description\": \"caf\u00e9\"}]}".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(f, text);
    int offset = new String(text, StandardCharsets.ISO_8859_1).indexOf('\u00e9');
    assertThat(commit(f).err()).contains("is not valid UTF-8").contains("byte offset " + offset)
        .doesNotContain("Input length");
  }

  @Test
  void aFileOverTheLimitIsRefusedUnread() throws Exception {
    Path f = json("big.json", SET_CONFIG + " ".repeat(2_000));
    assertThat(commit(f, "--max-file-bytes", "1000").err()).contains("more than the 1000 bytes read");
  }

  @Test
  void duplicateJsonKeysAreRefused() throws Exception {
    Path f = json("dup.json", "{\"uuid\": \"11111111-1111-4111-8111-111111111111\", \"readVersion\": \"2\", "
        + "\"readVersion\": \"1\", \"compositeOperation\": " + SET_CONFIG + "}");
    assertThat(commit(f).err()).contains("the key \"readVersion\" appears twice");
  }

  @Test
  void deepNestingGivesAShortMessage() throws Exception {
    Path f = json("deep.json", "[".repeat(20_000) + "]".repeat(20_000));
    assertThat(commit(f).err()).contains("nested more than 64 levels deep");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "0", "-9223372036854775808"})
  void aReadVersionThatIsNoVersionIsRefusedAtOnceAndPrintedUnsigned(String version) throws Exception {
    Path f = json("op.json", SET_CONFIG);
    long start = System.nanoTime();
    Cli.Result r = commit(f, "--read-version", version);
    assertThat(r.err()).contains("--read-version must be a version number").doesNotContain("version -");
    assertThat(System.nanoTime() - start).as("no retries").isLessThan(5_000_000_000L);
  }

  @Test
  void aReadVersionOfTwoToTheSixtyFourMinusOneInTheTransactionPrintsUnsigned() throws Exception {
    Path f = json("txn.json", "{\"readVersion\": \"18446744073709551615\", \"compositeOperation\": " + SET_CONFIG + "}");
    Cli.Result r = commit(f);
    assertThat(r.err()).contains("18446744073709551615").doesNotContain("version -1");
  }

  @Test
  void anAddBaseNamingAnyLocationNeedsTheCallersPermission() throws Exception {
    String addBase = "{\"actions\": [{\"description\": \"b\", \"actions\": [{\"addBase\": {\"local\": 0, "
        + "\"base\": {\"name\": \"etc\", \"path\": \"/etc\"}}}]}]}";
    Path f = json("base.json", addBase);
    assertThat(commit(f).err()).contains("base-path policy does not allow it").contains("--allow-base");
    Cli.Result allowed = Cli.run("commit", table.toString(), "--file", f.toString(), "--allow-base", "/etc");
    assertThat(allowed.exitCode()).as(allowed.err()).isZero();
  }

  @Test
  void aDataFileNamedOutsideTheTableIsRefusedAndTheTableStillOpens() throws Exception {
    // The first report: this committed version 11, which Lancet then refused to read.
    Path f = json("passwd.json", "{\"actions\": [{\"description\": \"x\", \"actions\": ["
        + "{\"addFragment\": {\"id\": {\"local\": 0}, \"physicalRows\": \"1\"}},"
        + "{\"addDataFile\": {\"fragment\": {\"local\": 0}, \"file\": {\"path\": \"../../../etc/passwd\", "
        + "\"fields\": [-1], \"columnIndices\": [0], \"fileMajorVersion\": 2, \"fileMinorVersion\": 1}, "
        + "\"fieldIds\": [{\"committed\": \"0\"}]}}]}]}");
    assertThat(commit(f).err()).contains("'../../../etc/passwd'").contains("'..' segments");
    assertThat(Cli.run("inspect", table.toString()).exitCode()).isZero();
  }
}
