package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCommandTest {
  @TempDir
  Path dir;

  TableFixture table;

  @BeforeEach
  void setUp() {
    table = TableFixture.history(dir.resolve("t"));
  }

  /** The data rows of the log table (after the header and rule lines). */
  private static List<String> rows(Cli.Result r) {
    return r.outLines().subList(2, r.outLines().size());
  }

  @Test
  void oneRowPerVersionNewestFirst() {
    Cli.Result r = Cli.run("log", table.location());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines().get(0)).matches(
        "VERSION\\s+COMMITTED\\s+STATEMENT\\s+TAGS\\s+TXN\\s+DETAIL");
    List<String> rows = rows(r);
    assertThat(rows).hasSize(7);
    assertThat(rows.get(0)).matches("\\s*7\\s+2024-05-01T12:07:00Z\\s+\\?\\s+-\\s+\\?\\s+error: "
        + "_transactions/6-" + TableFixture.uuid(7) + "\\.txn: not a valid Transaction message.*");
    assertThat(rows.get(1)).matches("\\s*6\\s+2024-05-01T12:06:00Z\\s+\\?\\s+-\\s+\\?\\s+error: "
        + "_transactions/5-" + TableFixture.uuid(6) + "\\.txn: version 6 names this transaction "
        + "file, but it does not exist");
    assertThat(rows.get(2)).matches("\\s*5\\s+2024-05-01T12:05:00Z\\s+-\\s+-\\s+-\\s+no transaction recorded");
    assertThat(rows.get(3)).matches("\\s*4\\s+2024-05-01T12:04:00Z\\s+composite operation\\s+-\\s+"
        + TableFixture.uuid(4).substring(0, 8) + "\\s+CompositeOperation: append batch 7; set owner");
    assertThat(rows.get(4)).matches("\\s*3\\s+2024-05-01T12:03:00Z\\s+delete\\s+-\\s+"
        + TableFixture.uuid(3).substring(0, 8) + "\\s+Delete: 1 updated, 0 removed fragments; predicate: id < 10");
    assertThat(rows.get(5)).matches("\\s*2\\s+2024-05-01T12:02:00Z\\s+append\\s+-\\s+"
        + TableFixture.uuid(2).substring(0, 8) + "\\s+Append: 1 fragment, 50 rows");
    assertThat(rows.get(6)).matches("\\s*1\\s+2024-05-01T12:01:00Z\\s+create\\s+-\\s+"
        + TableFixture.uuid(1).substring(0, 8) + "\\s+Overwrite: 1 fragment, 100 rows, 5 fields");
  }

  @Test
  void limitKeepsTheNewest() {
    Cli.Result r = Cli.run("log", table.location(), "--limit", "2");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(rows(r)).hasSize(2);
    assertThat(rows(r).get(0)).matches("\\s*7\\s.*");
    assertThat(rows(r).get(1)).matches("\\s*6\\s.*");
  }

  @Test
  void jsonHasOneObjectPerVersion() throws Exception {
    Cli.Result r = Cli.run("log", table.location(), "--json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    Value.Builder parsed = Value.newBuilder();
    JsonFormat.parser().merge(r.out(), parsed);
    ListValue list = parsed.getListValue();
    assertThat(list.getValuesCount()).isEqualTo(7);

    Struct v7 = list.getValues(0).getStructValue();
    assertThat(v7.getFieldsMap().get("version").getNumberValue()).isEqualTo(7);
    assertThat(v7.getFieldsMap().get("operation").hasNullValue()).isTrue();
    assertThat(v7.getFieldsMap().get("error").getStringValue()).contains("not a valid Transaction");
    assertThat(v7.getFieldsMap().get("manifestPath").getStringValue()).isEqualTo("_versions/7.manifest");

    Struct v5 = list.getValues(2).getStructValue();
    assertThat(v5.getFieldsMap().get("operation").hasNullValue()).isTrue();
    assertThat(v5.getFieldsMap().get("uuid").hasNullValue()).isTrue();
    assertThat(v5.getFieldsMap()).doesNotContainKey("error");

    Struct v4 = list.getValues(3).getStructValue();
    assertThat(v4.getFieldsMap().keySet()).containsExactly("version", "timestamp", "statement",
        "operation", "readVersion", "uuid", "steps", "tags", "manifestPath");
    assertThat(v4.getFieldsMap().get("statement").getStringValue()).isEqualTo("composite operation");
    assertThat(v4.getFieldsMap().get("version").getNumberValue()).isEqualTo(4);
    assertThat(v4.getFieldsMap().get("timestamp").getStringValue()).isEqualTo("2024-05-01T12:04:00Z");
    assertThat(v4.getFieldsMap().get("operation").getStringValue()).isEqualTo("CompositeOperation");
    assertThat(v4.getFieldsMap().get("readVersion").getNumberValue()).isEqualTo(3);
    assertThat(v4.getFieldsMap().get("uuid").getStringValue()).isEqualTo(TableFixture.uuid(4));
    assertThat(v4.getFieldsMap().get("steps").getListValue().getValuesList())
        .extracting(Value::getStringValue).containsExactly("append batch 7", "set owner");

    Struct v2 = list.getValues(5).getStructValue();
    assertThat(v2.getFieldsMap().get("operation").getStringValue()).isEqualTo("Append");
    assertThat(v2.getFieldsMap().get("steps").getListValue().getValuesCount()).isZero();
  }

  @Test
  void aCorruptManifestIsOneBadRowNotAFailure() throws Exception {
    Path manifest = dir.resolve("t/_versions/3.manifest");
    byte[] bytes = Files.readAllBytes(manifest);
    Files.write(manifest, java.util.Arrays.copyOf(bytes, bytes.length / 2));

    Cli.Result r = Cli.run("log", table.location());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(rows(r)).hasSize(7);
    assertThat(rows(r).get(4)).matches("\\s*3\\s+\\?\\s+\\?\\s+-\\s+\\?\\s+error: _versions/3\\.manifest: .*");
    assertThat(rows(r).get(3)).contains("CompositeOperation");
  }

  @Test
  void limitMustBePositive() {
    Cli.Result r = Cli.run("log", table.location(), "--limit", "0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).isEqualTo("lancet: --limit must be at least 1, not 0");
    assertThat(r.out()).isEmpty();
  }
}
