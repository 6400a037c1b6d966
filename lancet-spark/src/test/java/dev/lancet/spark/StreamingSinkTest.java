package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.spark.stream.LancetStreamingWrite;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The exactly-once sink: a file source feeds a query; the query is stopped mid-stream and
 * restarted from its checkpoint, and the last epoch is replayed as after a crash between the
 * sink's commit and Spark's commit log (its commit log entry removed), also after the old
 * versions were cleaned up. Every input row lands exactly once.
 */
class StreamingSinkTest {
  private final SparkSession spark = SparkTestSession.get();
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType, false)
      .add("name", DataTypes.StringType, true);

  private void writeInput(Path in, int file, long from, long to) {
    spark.range(from, to, 1, 1).selectExpr("id", "concat('n', cast(id as string)) as name")
        .write().mode("append").json(in.resolve("batch-" + file).toString());
  }

  private StreamingQuery start(Path in, Path checkpoint, String uri) throws Exception {
    Dataset<Row> source = spark.readStream().schema(SCHEMA).option("maxFilesPerTrigger", 1)
        .json(in.toString() + "/*");
    return source.writeStream().format("lancet").outputMode("append")
        .option("checkpointLocation", checkpoint.toString())
        .trigger(Trigger.ProcessingTime(100L))
        .start(uri);
  }

  private List<Long> ids(String uri) {
    return spark.read().format("lancet").load(uri).select("id").as(Encoders.LONG()).orderBy("id")
        .collectAsList();
  }

  private static List<Long> range(long to) {
    return java.util.stream.LongStream.range(0, to).boxed().toList();
  }

  private static long lastCommitLog(Path checkpoint) throws Exception {
    try (Stream<Path> s = Files.list(checkpoint.resolve("commits"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+"))
          .mapToLong(Long::parseLong).max().orElseThrow();
    }
  }

  @Test
  void stoppedRestartedAndReplayedEpochsLandExactlyOnce() throws Exception {
    Path dir = SparkTestSession.newDir("stream");
    Path in = dir.resolve("in");
    Path checkpoint = dir.resolve("checkpoint");
    String uri = dir.resolve("t.lance").toString();
    for (int f = 0; f < 4; f++) {
      writeInput(in, f, f * 100L, f * 100L + 100);
    }
    StreamingQuery q = start(in, checkpoint, uri);
    q.processAllAvailable();
    String queryId = q.id().toString();
    // Stop abruptly while new input keeps arriving, then restart from the checkpoint.
    writeInput(in, 4, 400, 500);
    writeInput(in, 5, 500, 600);
    q.stop();
    q = start(in, checkpoint, uri);
    q.processAllAvailable();
    q.stop();
    assertThat(ids(uri)).isEqualTo(range(600));
    long epoch = lastCommitLog(checkpoint);
    try (LanceTable t = LanceTable.open(uri)) {
      Map<String, String> config = t.config();
      assertThat(config).containsEntry(LancetStreamingWrite.WATERMARK_PREFIX + queryId,
          Long.toString(epoch));
      // Old versions go; the watermark lives in the newest version's config.
      t.cleanup().olderThan(Duration.ZERO).commit();
      assertThat(t.history()).hasSize(1);
    }
    // A crash after the sink committed epoch N but before Spark logged it: N is replayed.
    Files.delete(checkpoint.resolve("commits").resolve(Long.toString(epoch)));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve("." + epoch + ".crc"));
    long versionBefore;
    try (LanceTable t = LanceTable.open(uri)) {
      versionBefore = t.version();
    }
    q = start(in, checkpoint, uri);
    q.processAllAvailable();
    writeInput(in, 6, 600, 700);
    q.processAllAvailable();
    q.stop();
    assertThat(ids(uri)).isEqualTo(range(700));
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.version()).as("the replayed epoch committed nothing").isEqualTo(versionBefore + 1);
    }
    assertThat(lastCommitLog(checkpoint)).isEqualTo(epoch + 1);
    assertThat(TableFiles.orphans(Path.of(uri))).isEmpty();
  }
}
