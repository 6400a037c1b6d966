package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.lance.ipc.ScanOptions;

class ReadWriteFeaturesTest {
  private final SparkSession spark = SparkTestSession.get();

  private Dataset<Row> ids(long from, long to) {
    return spark.range(from, to, 1, 2).toDF("id")
        .withColumn("name", functions.concat(functions.lit("n"), functions.col("id").cast("string")))
        .withColumn("score", functions.col("id").multiply(0.5));
  }

  /** ids and names as lance-core 7.0.0 reads them at {@code version}. */
  private static List<String> lanceCoreRows(Path table, long version) {
    return LanceDatasets.withDataset(table, Optional.of(version), ds -> {
      List<String> out = new ArrayList<>();
      LanceDatasets.scanBatches(ds, new ScanOptions.Builder().columns(List.of("id", "name")).build(),
          root -> {
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector name = (VarCharVector) root.getVector("name");
            for (int i = 0; i < root.getRowCount(); i++) {
              out.add(id.get(i) + ":" + new String(name.get(i)));
            }
          });
      out.sort(null);
      return out;
    });
  }

  private static List<String> expected(long from, long to) {
    List<String> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i + ":n" + i);
    }
    out.sort(null);
    return out;
  }

  @Test
  void appendsAndOverwritesTimeTravelAndLanceCoreReadsEveryVersion() throws Exception {
    Path table = SparkTestSession.newDir("tt").resolve("t.lance");
    String uri = table.toString();
    ids(0, 100).write().format("lancet").mode("append").save(uri);          // creates: version 1
    ids(100, 150).write().format("lancet").mode("append").save(uri);        // version 2
    Instant afterTwo = Instant.now();
    try (LanceTable t = LanceTable.open(uri)) {
      t.tags().create("two", 2);
    }
    Thread.sleep(5); // commit timestamps are in milliseconds: keep version 3 strictly later
    ids(1000, 1030).write().format("lancet").mode("overwrite").save(uri);   // version 3

    assertThat(spark.read().format("lancet").load(uri).count()).isEqualTo(30);
    assertThat(spark.read().format("lancet").option("version", 1).load(uri).count()).isEqualTo(100);
    assertThat(spark.read().format("lancet").option("tag", "two").load(uri).count()).isEqualTo(150);
    assertThat(spark.read().format("lancet").option("timestamp", afterTwo.toString()).load(uri)
        .count()).isEqualTo(150);
    assertThat(lanceCoreRows(table, 1)).isEqualTo(expected(0, 100));
    List<String> two = expected(0, 150);
    assertThat(lanceCoreRows(table, 2)).isEqualTo(two);
    assertThat(lanceCoreRows(table, 3)).isEqualTo(expected(1000, 1030));
    assertThat(LanceDatasets.latestVersion(table)).isEqualTo(3);
  }

  @Test
  void aWriteToAnOldVersionIsRefused() {
    String uri = SparkTestSession.newDir("old").resolve("t.lance").toString();
    ids(0, 10).write().format("lancet").mode("append").save(uri);
    ids(10, 20).write().format("lancet").mode("append").save(uri);
    assertThatThrownBy(() -> ids(0, 1).write().format("lancet").option("version", 1)
        .mode("append").save(uri)).hasMessageContaining("older version");
  }

  @Test
  void rowIdsAndRowAddressesAreMetadataColumns() {
    String uri = SparkTestSession.newDir("rowid").resolve("t.lance").toString();
    ids(0, 100).write().format("lancet").mode("append").option("maxRowsPerFile", 30).save(uri);
    List<Row> rows = spark.read().format("lancet").load(uri)
        .select("id", "_rowid", "_rowaddr").collectAsList();
    assertThat(rows).hasSize(100);
    Set<Long> addrs = new HashSet<>();
    for (Row r : rows) {
      long addr = r.getLong(2);
      addrs.add(addr);
      assertThat(addr & 0xFFFFFFFFL).isLessThan(30);
      assertThat(r.getLong(1)).isEqualTo(addr); // no stable row ids: the row id is the address
    }
    assertThat(addrs).hasSize(100);
    assertThat(addrs.stream().map(a -> a >>> 32).distinct().count()).isEqualTo(4);
  }

  @Test
  void pushedFiltersSelectWhatSparkSelectsAndUnpushableOnesStillApply() {
    String uri = SparkTestSession.newDir("filter").resolve("t.lance").toString();
    ids(0, 1000).write().format("lancet").mode("append").option("maxRowsPerFile", 300).save(uri);
    Dataset<Row> t = spark.read().format("lancet").load(uri);
    Dataset<Row> pushed = t.filter("id >= 100 AND id < 200 AND name LIKE 'n1%' AND id IN (100, 150, 199, 5000)");
    String plan = pushed.queryExecution().executedPlan().toString();
    assertThat(plan).contains("filter=");
    assertThat(pushed.select("id").as(org.apache.spark.sql.Encoders.LONG()).collectAsList())
        .containsExactlyInAnyOrder(100L, 150L, 199L);
    // a float comparison is not pushed (NaN and -0.0 differ) but applies
    Dataset<Row> floats = t.filter("score = 0.0 OR score > 499.0");
    assertThat(floats.queryExecution().executedPlan().toString()).doesNotContain("filter=(");
    assertThat(floats.count()).isEqualTo(2);
    // null-safe and IS NULL
    assertThat(t.filter("name <=> 'n7' OR name IS NULL").count()).isEqualTo(1);
  }

  @Test
  void aNewTableThroughDataFrameWriterV2AndStorageOptionsPassThrough() {
    String uri = SparkTestSession.newDir("opts").resolve("t.lance").toString();
    ids(0, 10).write().format("lancet").option("storage.some_key", "v")
        .option("storageVersion", "2.1").mode("append").save(uri);
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.storageVersion()).isEqualTo("2.1");
      assertThat(t.countRows()).isEqualTo(10);
    }
  }
}
