package dev.lancet.spark.write;

import dev.lancet.table.CommitInfo;
import dev.lancet.table.CommitStateUnknownException;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.spi.WrittenFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of one Spark job's write: turns the messages of the task attempts Spark's
 * commit protocol committed into the one commit of a {@link DistributedWrite}, and cleans up
 * after a failure only when nothing can have landed.
 *
 * <p>Only what Spark passes to {@code commit} is committed, one message per partition (a second
 * message for a partition, which Spark's output commit coordinator never lets through, is
 * refused rather than landing a fragment twice); files of attempts that were denied or failed
 * are deleted by their own writers' {@code abort}. When the commit outcome is unknown, Spark's
 * following {@code abort} deletes nothing.
 */
public final class JobCommit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobCommit.class);

  private final DistributedWrite write;
  private final AutoCloseable table;
  private final String what;
  private java.util.Optional<String> statement = java.util.Optional.empty();
  private boolean unknownOutcome;
  private boolean committed;
  private CommitInfo info;

  /** {@code table}: what to close with the write (the open table it was started from). */
  public JobCommit(DistributedWrite write, AutoCloseable table, String what) {
    this.write = write;
    this.table = table;
    this.what = what;
  }

  /** What the table's history calls this job's commit ("delete", "merge into"). */
  public JobCommit statement(String name) {
    this.statement = java.util.Optional.of(name);
    return this;
  }

  public DistributedWrite write() {
    return write;
  }

  /** The commit's result, once committed. */
  public CommitInfo info() {
    return info;
  }

  /** The committed attempts' messages, checked: one per partition, none missing content. */
  public static List<TaskFiles> messages(WriterCommitMessage[] messages) {
    Map<Integer, TaskFiles> byPartition = new HashMap<>();
    List<TaskFiles> out = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m == null) {
        throw new IllegalStateException("a task reported no commit message; nothing was committed");
      }
      TaskFiles t = (TaskFiles) m;
      TaskFiles earlier = byPartition.putIfAbsent(t.partitionId(), t);
      if (earlier != null) {
        throw new IllegalStateException("two task attempts of partition " + t.partitionId()
            + " (tasks " + earlier.taskId() + " and " + t.taskId() + ") reported committed "
            + "output; committing both would land its rows twice, so nothing was committed");
      }
      out.add(t);
    }
    return out;
  }

  /**
   * Commits the messages' files, deletions and key hashes, with {@code extra} adding to the same
   * commit (a watermark, for example).
   */
  public synchronized CommitInfo commit(WriterCommitMessage[] messages, int retries,
      Consumer<DistributedWrite.Commit> extra) {
    List<TaskFiles> tasks = messages(messages);
    DistributedWrite.Commit c = write.newCommit().maxRetries(retries);
    boolean keys = !write.spec().keyColumns().isEmpty();
    for (TaskFiles t : tasks) {
      c.addFiles(t.files());
      for (Map.Entry<Long, RoaringBitmap> d : t.deletedRows().entrySet()) {
        c.deleteRows(d.getKey(), d.getValue());
      }
      if (keys) {
        c.assertUniqueKeys(t.keyHashes());
      }
    }
    extra.accept(c);
    c.property("lancet.engine", "spark").property("lancet.spark.job", what);
    statement.ifPresent(s -> c.property(dev.lancet.core.transaction.StatementName.PROPERTY, s));
    try {
      info = c.commit();
      committed = true;
      LOG.info("{}: committed version {} ({} rows, {} files, {} attempts)", what, info.version(),
          info.rowsWritten(), info.filesWritten(), info.attempts());
      return info;
    } catch (CommitStateUnknownException e) {
      unknownOutcome = true;
      LOG.error("{}: the commit's outcome is unknown; keeping every data file (a landed commit "
          + "references them): {}", what, e.getMessage());
      throw e;
    }
  }

  /** Deletes the files of {@code messages} unless a commit may have landed. */
  public synchronized void abort(WriterCommitMessage[] messages) {
    if (unknownOutcome || committed) {
      LOG.warn("{}: abort after a commit that {}; no file deleted", what,
          committed ? "landed" : "may have landed");
      return;
    }
    List<WrittenFile> files = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof TaskFiles t) {
        files.addAll(t.files());
      }
    }
    int unreported = write.abort(files);
    LOG.info("{}: aborted, {} data files deleted ({} of them of tasks whose report never reached "
        + "the driver)", what, files.size() + unreported, unreported);
  }

  @Override
  public void close() {
    try {
      write.close();
    } finally {
      try {
        table.close();
      } catch (Exception e) {
        LOG.warn("{}: closing the table: {}", what, e.toString());
      }
    }
  }
}
