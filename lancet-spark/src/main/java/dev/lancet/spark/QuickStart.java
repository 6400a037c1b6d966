package dev.lancet.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;

/**
 * What the README's Spark section does, as one program for {@code spark-submit}: write, read
 * (with time travel), MERGE INTO through the catalog, and a streaming append, into tables under
 * the directory given as the only argument. Prints one line per step; exits non-zero on a wrong
 * result.
 *
 * <pre>
 * spark-submit --class dev.lancet.spark.QuickStart \
 *   --conf spark.sql.catalog.lancet=dev.lancet.spark.LancetCatalog \
 *   --conf spark.sql.catalog.lancet.root=/tmp/lake \
 *   --jars lance-core-7.0.0.jar,... lancet-spark-bundle.jar /tmp/lake
 * </pre>
 */
public final class QuickStart {
  private QuickStart() {}

  public static void main(String[] args) throws Exception {
    String root = args[0];
    SparkSession spark = SparkSession.builder().appName("lancet-quickstart").getOrCreate();
    String events = root + "/events.lance";
    Dataset<Row> rows = spark.range(0, 1000).selectExpr("id", "concat('user', id % 7) AS name",
        "id * 0.5 AS score");
    rows.write().format("lancet").mode("append").save(events);
    rows.limit(10).selectExpr("id + 1000 AS id", "name", "score").write().format("lancet")
        .mode("append").save(events);
    long now = spark.read().format("lancet").load(events).count();
    long v1 = spark.read().format("lancet").option("version", 1).load(events).count();
    System.out.println("write+read: " + now + " rows now, " + v1 + " at version 1");
    check(now == 1010 && v1 == 1000, "write/read");

    spark.sql("CREATE NAMESPACE IF NOT EXISTS lancet.demo");
    spark.sql("CREATE TABLE lancet.demo.users (id BIGINT NOT NULL, name STRING) "
        + "TBLPROPERTIES ('primaryKey' = 'id')");
    spark.sql("INSERT INTO lancet.demo.users VALUES (1, 'ann'), (2, 'bob')");
    spark.sql("MERGE INTO lancet.demo.users t USING (SELECT * FROM VALUES (2L, 'bobby'), (3L, 'cy') "
        + "AS s(id, name)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name "
        + "WHEN NOT MATCHED THEN INSERT *");
    List<String> users = spark.sql("SELECT * FROM lancet.demo.users ORDER BY id").collectAsList()
        .stream().map(Row::toString).toList();
    System.out.println("merge: " + users);
    check(users.equals(List.of("[1,ann]", "[2,bobby]", "[3,cy]")), "merge");

    String stream = root + "/stream.lance";
    StreamingQuery q = spark.readStream().format("rate").option("rowsPerSecond", 100).load()
        .selectExpr("value AS id", "timestamp AS ts")
        .writeStream().format("lancet").option("checkpointLocation", root + "/checkpoint")
        .start(stream);
    while (q.lastProgress() == null || spark.read().format("lancet").load(stream).count() < 100) {
      q.awaitTermination(500);
    }
    q.stop();
    long streamed = spark.read().format("lancet").load(stream).count();
    long distinct = spark.read().format("lancet").load(stream).select("id").distinct().count();
    System.out.println("stream: " + streamed + " rows, " + distinct + " distinct ids");
    check(streamed == distinct && streamed >= 100, "stream");
    spark.stop();
    System.out.println("quickstart: all steps passed");
  }

  private static void check(boolean ok, String step) {
    if (!ok) {
      System.err.println("quickstart: step '" + step + "' gave a wrong result");
      System.exit(1);
    }
  }
}
