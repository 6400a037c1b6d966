package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.RetryableConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Two MERGE INTO jobs planned against the same version and committing after each other
 * (upstream lance-spark #812: both inserted the same new key). Here the second sees the first's
 * key assertion and fails with a retryable conflict; run again, it updates instead.
 */
class ConcurrentMergeTest {
  private final SparkSession spark = SparkTestSession.get();
  /** Both jobs wait here, once they are executing, until the other one is executing too. */
  private static volatile CountDownLatch bothRunning;
  private static final Map<String, Boolean> started = new ConcurrentHashMap<>();

  ConcurrentMergeTest() {
    spark.udf().register("gate", (UDF2<String, Long, Boolean>) (job, id) -> {
      if (started.putIfAbsent(job, true) == null) {
        bothRunning.countDown();
      }
      if (!bothRunning.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other MERGE never started");
      }
      return true;
    }, DataTypes.BooleanType);
  }

  private String table() {
    String ns = "m" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    spark.sql("CREATE NAMESPACE lancet." + ns);
    String t = "lancet." + ns + ".kv";
    spark.sql("CREATE TABLE " + t + " (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primaryKey' = 'id')");
    spark.sql("INSERT INTO " + t + " SELECT id, concat('v', id) FROM range(0, 20)");
    return t;
  }

  private String merge(String table, String job, long[] keys) {
    StringBuilder values = new StringBuilder();
    for (long k : keys) {
      values.append(values.length() == 0 ? "" : ", ").append("(").append(k).append("L, '").append(job)
          .append(k).append("')");
    }
    return "MERGE INTO " + table + " t USING (SELECT * FROM VALUES " + values + " AS s(id, v) "
        + "WHERE gate('" + job + "', id)) s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)";
  }

  /** Runs both merges at once; returns the error of each (null when it committed). */
  private List<Throwable> race(String table, long[] a, long[] b) throws Exception {
    bothRunning = new CountDownLatch(2);
    started.clear();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> fa = pool.submit(() -> spark.sql(merge(table, "A", a)));
      Future<?> fb = pool.submit(() -> spark.sql(merge(table, "B", b)));
      List<Throwable> out = new ArrayList<>();
      for (Future<?> f : List.of(fa, fb)) {
        try {
          f.get(180, TimeUnit.SECONDS);
          out.add(null);
        } catch (java.util.concurrent.ExecutionException e) {
          out.add(e.getCause());
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private Map<Long, Long> keyCounts(String table) {
    Map<Long, Long> out = new TreeMap<>();
    for (Row r : spark.sql("SELECT id, count(*) FROM " + table + " GROUP BY id").collectAsList()) {
      out.put(r.getLong(0), r.getLong(1));
    }
    return out;
  }

  private static boolean isConflict(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RetryableConflictException) {
        return true;
      }
    }
    return false;
  }

  @Test
  void overlappingNewKeysNeverLandTwice() throws Exception {
    String table = table();
    List<Throwable> errors = race(table, new long[] {100, 101, 102}, new long[] {102, 103});
    long failed = errors.stream().filter(e -> e != null).count();
    assertThat(failed).as("exactly one MERGE loses: %s", errors).isEqualTo(1);
    Throwable lost = errors.stream().filter(e -> e != null).findFirst().orElseThrow();
    assertThat(isConflict(lost)).as("a retryable conflict: %s", lost).isTrue();
    assertThat(lost).hasStackTraceContaining("unique-key assertion");
    // the loser runs again against the new version: key 102 is now an update
    boolean aLost = errors.get(0) != null;
    spark.sql(merge(table, aLost ? "A2" : "B2", aLost ? new long[] {100, 101, 102}
        : new long[] {102, 103}).replace("gate('A2', id)", "true").replace("gate('B2', id)", "true"));
    Map<Long, Long> counts = keyCounts(table);
    for (long k = 0; k < 20; k++) {
      assertThat(counts).containsEntry(k, 1L);
    }
    for (long k = 100; k <= 103; k++) {
      assertThat(counts).containsEntry(k, 1L);
    }
    assertThat(counts).hasSize(24);
  }

  @Test
  void disjointNewKeysBothLand() throws Exception {
    String table = table();
    List<Throwable> errors = race(table, new long[] {200, 201}, new long[] {300, 301});
    assertThat(errors).containsExactly(null, null);
    Map<Long, Long> counts = keyCounts(table);
    assertThat(counts).hasSize(24).allSatisfy((k, n) -> assertThat(n).isEqualTo(1L));
  }
}
