package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void printsEveryAttemptAndPassesEveryCheck() {
    Path target = dir.resolve("demo");
    Cli.Result r = Cli.run("demo", target.toString());

    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("COMMIT ATTEMPTS", "HISTORY", "CHECKS", "CONFLICT", "COMMITTED")
        .doesNotContain("FAILED", "error:");
    assertThat(r.outLines()).last().asString().startsWith("All ").contains("checks passed");
    try (Table t = Table.open(target.toString())) {
      // v1 schema, v2 initial load, one version per transaction (8).
      assertThat(t.latest().version()).isEqualTo(10);
      assertThat(t.latest().manifest().schema().fields()).extracting(f -> f.name())
          .containsExactly("id", "value", "score");
    }
  }

  @Test
  void jsonListsTheAttemptsWithOneConflictPerCollidingWriterAndPassedChecks() throws Exception {
    Path target = dir.resolve("demo-json");
    Cli.Result r = Cli.run("demo", target.toString(), "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();

    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(r.out(), b);
    Map<String, Value> root = b.build().getFieldsMap();
    assertThat(root.get("passed").getBoolValue()).isTrue();
    assertThat(root.get("table").getStringValue()).isEqualTo(target.toAbsolutePath().toString());

    List<Struct> attempts = root.get("attempts").getListValue().getValuesList().stream()
        .map(Value::getStructValue).toList();
    Map<String, Long> conflicts = attempts.stream()
        .filter(a -> a.getFieldsOrThrow("outcome").getStringValue().equals("CONFLICT"))
        .collect(Collectors.groupingBy(a -> a.getFieldsOrThrow("transaction").getStringValue(),
            Collectors.counting()));
    assertThat(conflicts).isEqualTo(Map.of("B2", 1L, "G1", 1L));
    long committed = attempts.stream()
        .filter(a -> a.getFieldsOrThrow("outcome").getStringValue().equals("COMMITTED")).count();
    assertThat(committed).isEqualTo(8);

    List<Struct> checks = root.get("checks").getListValue().getValuesList().stream()
        .map(Value::getStructValue).toList();
    assertThat(checks).isNotEmpty()
        .allSatisfy(c -> assertThat(c.getFieldsOrThrow("passed").getBoolValue()).as(c.toString()).isTrue());
    Struct total = checks.stream()
        .filter(c -> c.getFieldsOrThrow("name").getStringValue().startsWith("total live rows"))
        .findFirst().orElseThrow();
    // 300 - 10 (D1) - 20 (F1 and G1) + 50 (A1) + 50 (B1) + 49 (B2 without the colliding key)
    assertThat(total.getFieldsOrThrow("expected").getStringValue()).isEqualTo("419");
    assertThat(total.getFieldsOrThrow("actual").getStringValue()).isEqualTo("Lancet 419, lance-core 419");

    // Every acknowledged uuid is the transaction of the version it was acknowledged at.
    com.fasterxml.jackson.databind.JsonNode strict = StrictJson.parse(r.out());
    try (Table t = Table.open(target.toString())) {
      StrictJson.assertInteger(strict.get("finalVersion"), t.latest().version());
      strict.get("attempts").forEach(a -> assertThat(a.get("readVersion").isIntegralNumber()).isTrue());
      for (Value v : root.get("acknowledged").getListValue().getValuesList()) {
        Struct k = v.getStructValue();
        long version = (long) k.getFieldsOrThrow("version").getNumberValue();
        assertThat(t.version(version).transaction().orElseThrow().getUuid())
            .isEqualTo(k.getFieldsOrThrow("uuid").getStringValue());
      }
    }
  }

  @Test
  void refusesANonEmptyDirectory() throws Exception {
    Files.writeString(dir.resolve("something.txt"), "x");
    Cli.Result r = Cli.run("demo", dir.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("is not empty");
    assertThat(Files.exists(dir.resolve("_versions"))).isFalse();
  }
}
