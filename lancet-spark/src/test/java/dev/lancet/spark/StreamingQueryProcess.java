package dev.lancet.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The streaming query of {@link StreamingKillIT}, run in its own JVM so the test can kill it
 * with SIGKILL: a local[2] session reads the JSON files of {@code <in>} (two per micro-batch),
 * writes them with {@code format("lancet")} to {@code <table>} from the checkpoint
 * {@code <checkpoint>}, and once every file is processed writes {@code <done>} and exits 0.
 *
 * <p>Arguments: {@code <in> <checkpoint> <table> <done>}.
 */
public final class StreamingQueryProcess {
  static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType, false)
      .add("name", DataTypes.StringType, true);

  private StreamingQueryProcess() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: StreamingQueryProcess <in> <checkpoint> <table> <done>");
      System.exit(2);
    }
    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("lancet-streaming-kill")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    // The default trigger starts the next micro-batch as soon as the last one is done, so a
    // kill at any moment lands in some batch's planning, tasks, sink commit or commit log.
    StreamingQuery q = spark.readStream().schema(SCHEMA).option("maxFilesPerTrigger", 2)
        .json(args[0])
        .writeStream().format("lancet").outputMode("append")
        .option("checkpointLocation", args[1])
        .start(args[2]);
    q.processAllAvailable();
    q.stop();
    spark.stop();
    Files.writeString(Path.of(args[3]), q.id().toString());
    System.exit(0);
  }
}
