package dev.lancet.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * One local[2] SparkSession for every test class of the module (started on first use, stopped
 * when the JVM exits), with the Lancet catalog {@code lancet} over a temporary directory. Tasks
 * may fail up to 3 times ({@code local[2,3]}), so a failed attempt is retried as on a cluster.
 */
public final class SparkTestSession {
  private static SparkSession spark;
  private static Path root;

  private SparkTestSession() {}

  public static synchronized SparkSession get() {
    if (spark == null) {
      try {
        root = Files.createTempDirectory("lancet-spark-test");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      spark = SparkSession.builder()
          .master("local[2,3]")
          .appName("lancet-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.sql.session.timeZone", "UTC")
          .config("spark.sql.catalog.lancet", LancetCatalog.class.getName())
          .config("spark.sql.catalog.lancet.root", root.resolve("catalog").toString())
          .config("spark.sql.streaming.stopTimeout", "10s")
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> spark.stop()));
    }
    return spark;
  }

  /** A fresh directory for a test's tables. */
  public static Path newDir(String name) {
    get();
    try {
      return Files.createTempDirectory(root, name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
