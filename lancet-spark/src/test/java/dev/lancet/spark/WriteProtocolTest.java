package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.HistoryEntry;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Spark's commit protocol against the table: retried tasks, speculative duplicates, aborted
 * jobs, concurrent jobs, and the read version a job is planned against.
 */
class WriteProtocolTest {
  private final SparkSession spark = SparkTestSession.get();

  private Dataset<Row> ids(long from, long to, int partitions) {
    return spark.range(from, to, 1, partitions).toDF("id")
        .selectExpr("id", "concat('n', cast(id as string)) as name");
  }

  private static long count(String uri) {
    try (LanceTable t = LanceTable.open(uri)) {
      return t.countRows();
    }
  }

  private List<Long> sortedIds(String uri) {
    return spark.read().format("lancet").load(uri).select("id").as(Encoders.LONG())
        .orderBy("id").collectAsList();
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  /** Passes rows through; partition {@code failing} throws after 50 rows on attempts below {@code upTo}. */
  static final class FailAfter implements MapPartitionsFunction<Row, Row> {
    private final int failing;
    private final int upTo;

    FailAfter(int failing, int upTo) {
      this.failing = failing;
      this.upTo = upTo;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> in) {
      TaskContext tc = TaskContext.get();
      boolean fail = tc.partitionId() == failing && tc.attemptNumber() < upTo;
      return new Iterator<>() {
        int n;

        @Override
        public boolean hasNext() {
          if (fail && n == 50) {
            throw new IllegalStateException("injected failure of attempt " + tc.attemptNumber());
          }
          return in.hasNext();
        }

        @Override
        public Row next() {
          n++;
          return in.next();
        }
      };
    }
  }

  @Test
  void aFailedTaskIsRetriedAndItsRowsLandOnceWithNoOrphanFile() {
    Path table = SparkTestSession.newDir("retry").resolve("t.lance");
    String uri = table.toString();
    ids(0, 10, 1).write().format("lancet").mode("append").save(uri);
    Dataset<Row> df = ids(10, 410, 4).mapPartitions(new FailAfter(1, 1),
        org.apache.spark.sql.catalyst.encoders.ExpressionEncoder.apply(ids(0, 1, 1).schema()));
    df.write().format("lancet").mode("append").option("maxRowsPerFile", 20).save(uri);
    assertThat(sortedIds(uri)).isEqualTo(range(0, 410));
    assertThat(TableFiles.orphans(table)).isEmpty();
  }

  @Test
  void anAbortedJobLeavesTheTableAndItsDirectoryAsTheyWere() throws Exception {
    Path table = SparkTestSession.newDir("abort").resolve("t.lance");
    String uri = table.toString();
    ids(0, 10, 1).write().format("lancet").mode("append").save(uri);
    long before;
    try (LanceTable t = LanceTable.open(uri)) {
      before = t.version();
    }
    Dataset<Row> df = ids(10, 410, 4).mapPartitions(new FailAfter(2, 99),
        org.apache.spark.sql.catalyst.encoders.ExpressionEncoder.apply(ids(0, 1, 1).schema()));
    TaskEnds tasks = new TaskEnds();
    SparkTestSession.get().sparkContext().addSparkListener(tasks);
    try {
      assertThatThrownBy(() -> df.write().format("lancet").mode("append")
          .option("maxRowsPerFile", 20).save(uri)).hasStackTraceContaining("injected failure");
      // save() fails as soon as one task fails; Spark kills the others asynchronously, and each
      // cleans up in its DataWriter.abort. The directory is judged once every task has ended.
      SparkTestSession.get().sparkContext().listenerBus().waitUntilEmpty(); // every start seen
      tasks.awaitAllEnded();
    } finally {
      SparkTestSession.get().sparkContext().removeSparkListener(tasks);
    }
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.version()).isEqualTo(before);
    }
    assertThat(TableFiles.orphans(table)).isEmpty();
    assertThat(sortedIds(uri)).isEqualTo(range(0, 10));
  }

  /** Counts task starts and ends so a test can wait until no task of its jobs is running. */
  private static final class TaskEnds extends org.apache.spark.scheduler.SparkListener {
    private int running;

    @Override
    public synchronized void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart start) {
      running++;
    }

    @Override
    public synchronized void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
      running--;
      notifyAll();
    }

    synchronized void awaitAllEnded() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (running > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(running + " Spark task(s) still running 60 s after the job failed");
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  /** What Spark hands the writer factory and the batch write, driven the way Spark drives them. */
  private static final class Job {
    final BatchWrite batch;
    final DataWriterFactory factory;

    Job(String uri) {
      StructType schema = new StructType().add("id", DataTypes.LongType, false)
          .add("name", DataTypes.StringType, true);
      LancetDataSource source = new LancetDataSource();
      SupportsWrite table = (SupportsWrite) source.getTable(schema, new Transform[0],
          Map.of("path", uri));
      LogicalWriteInfo info = new LogicalWriteInfo() {
        @Override
        public CaseInsensitiveStringMap options() {
          return new CaseInsensitiveStringMap(Map.of("path", uri, "maxRowsPerFile", "10"));
        }

        @Override
        public String queryId() {
          return "speculation-test";
        }

        @Override
        public StructType schema() {
          return schema;
        }
      };
      batch = table.newWriteBuilder(info).build().toBatch();
      factory = batch.createBatchWriterFactory(new PhysicalWriteInfo() {
        @Override
        public int numPartitions() {
          return 2;
        }
      });
    }

    /** One task attempt writing ids [from, to). */
    DataWriter<InternalRow> attempt(int partition, long taskId, long from, long to)
        throws java.io.IOException {
      DataWriter<InternalRow> w = factory.createWriter(partition, taskId);
      for (long i = from; i < to; i++) {
        w.write(new GenericInternalRow(new Object[] {i, UTF8String.fromString("n" + i)}));
      }
      return w;
    }
  }

  @Test
  void aSpeculativeDuplicateThatLostTheCommitRaceLandsNothing() throws Exception {
    Path table = SparkTestSession.newDir("spec").resolve("t.lance");
    String uri = table.toString();
    ids(0, 1, 1).write().format("lancet").mode("append").save(uri);
    Job job = new Job(uri);
    // Partition 0 runs twice (an original and its speculative copy); the coordinator lets the
    // copy commit and denies the original, whose task then aborts its writer.
    DataWriter<InternalRow> original = job.attempt(0, 1, 100, 150);
    DataWriter<InternalRow> copy = job.attempt(0, 2, 100, 150);
    DataWriter<InternalRow> other = job.attempt(1, 3, 150, 200);
    WriterCommitMessage fromCopy = copy.commit();
    copy.close();
    original.abort(); // commit denied
    original.close();
    WriterCommitMessage fromOther = other.commit();
    other.close();
    job.batch.commit(new WriterCommitMessage[] {fromCopy, fromOther});
    List<Long> want = new ArrayList<>(List.of(0L));
    want.addAll(range(100, 200));
    assertThat(sortedIds(uri)).isEqualTo(want);
    assertThat(TableFiles.orphans(table)).isEmpty();
  }

  @Test
  void twoCommittedAttemptsOfOnePartitionAreRefusedAndNothingLands() throws Exception {
    Path table = SparkTestSession.newDir("spec2").resolve("t.lance");
    String uri = table.toString();
    ids(0, 1, 1).write().format("lancet").mode("append").save(uri);
    Job job = new Job(uri);
    DataWriter<InternalRow> a = job.attempt(0, 1, 100, 150);
    DataWriter<InternalRow> b = job.attempt(0, 2, 100, 150);
    WriterCommitMessage ma = a.commit();
    WriterCommitMessage mb = b.commit();
    a.close();
    b.close();
    WriterCommitMessage[] both = {ma, mb};
    assertThatThrownBy(() -> job.batch.commit(both)).hasMessageContaining("land its rows twice");
    job.batch.abort(both); // what Spark does after a failed commit
    assertThat(sortedIds(uri)).containsExactly(0L);
    assertThat(TableFiles.orphans(table)).isEmpty();
  }

  @Test
  void concurrentJobsBothLand() throws Exception {
    Path table = SparkTestSession.newDir("conc").resolve("t.lance");
    String uri = table.toString();
    ids(0, 1, 1).write().format("lancet").mode("append").save(uri);
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Void>> jobs = new ArrayList<>();
    for (int j = 0; j < 3; j++) {
      long from = 1000L * (j + 1);
      jobs.add(CompletableFuture.runAsync(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        ids(from, from + 300, 2).write().format("lancet").mode("append").save(uri);
      }));
    }
    go.countDown();
    for (CompletableFuture<Void> f : jobs) {
      f.get(120, TimeUnit.SECONDS);
    }
    List<Long> want = new ArrayList<>(List.of(0L));
    for (int j = 0; j < 3; j++) {
      want.addAll(range(1000L * (j + 1), 1000L * (j + 1) + 300));
    }
    assertThat(sortedIds(uri)).isEqualTo(want);
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.version()).isEqualTo(4);
    }
  }

  /** Appends 5 rows with the table API from inside the job, once, after the job was planned. */
  static final class ConcurrentWriter implements MapPartitionsFunction<Row, Row> {
    private final String uri;

    ConcurrentWriter(String uri) {
      this.uri = uri;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> in) throws Exception {
      if (TaskContext.get().partitionId() == 0) {
        org.apache.arrow.vector.types.pojo.Schema schema;
        try (LanceTable t = LanceTable.open(uri)) {
          schema = t.schema();
          try (org.apache.arrow.memory.RootAllocator a = new org.apache.arrow.memory.RootAllocator();
              org.apache.arrow.vector.VectorSchemaRoot root =
                  org.apache.arrow.vector.VectorSchemaRoot.create(schema, a)) {
            org.apache.arrow.vector.BigIntVector id = (org.apache.arrow.vector.BigIntVector) root.getVector("id");
            org.apache.arrow.vector.VarCharVector name = (org.apache.arrow.vector.VarCharVector) root.getVector("name");
            for (int i = 0; i < 5; i++) {
              id.setSafe(i, 9000 + i);
              name.setSafe(i, ("n" + (9000 + i)).getBytes());
            }
            root.setRowCount(5);
            try (dev.lancet.datafile.lance.ReplayReader one = new dev.lancet.datafile.lance.ReplayReader(a, root.getSchema(), java.util.List.of(root), false)) {
              t.append(one);
            }
          }
        }
      }
      return in;
    }
  }

  @Test
  void theCommitIsPlannedAgainstTheVersionTheJobReadAndRebasesOverAConcurrentWriter() {
    Path table = SparkTestSession.newDir("readver").resolve("t.lance");
    String uri = table.toString();
    ids(0, 10, 1).write().format("lancet").mode("append").save(uri); // version 1
    Dataset<Row> df = ids(10, 110, 2).mapPartitions(new ConcurrentWriter(uri),
        org.apache.spark.sql.catalyst.encoders.ExpressionEncoder.apply(ids(0, 1, 1).schema()));
    df.write().format("lancet").mode("append").save(uri);
    try (LanceTable t = LanceTable.open(uri)) {
      List<HistoryEntry> h = t.history();
      assertThat(h).hasSize(3);
      HistoryEntry spark = h.get(2);
      assertThat(spark.readVersion()).contains(1L); // planned against version 1, not 2
      assertThat(spark.version()).isEqualTo(3);
    }
    List<Long> want = range(0, 110);
    want.addAll(range(9000, 9005));
    assertThat(sortedIds(uri)).isEqualTo(want);
  }
}
