package dev.lancet.spark.stream;

import dev.lancet.spark.SparkSchemas;
import dev.lancet.spark.TableState;
import dev.lancet.spark.write.JobCommit;
import dev.lancet.spark.write.LancetWriterFactory;
import dev.lancet.spark.write.TaskFiles;
import dev.lancet.table.AlreadyExistsException;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.FragmentWriteSpec;
import dev.lancet.table.LanceTable;
import dev.lancet.table.RetryableConflictException;
import dev.lancet.table.spi.WrittenFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exactly-once streaming sink: each micro-batch (epoch) commits its data files and the
 * query's watermark, table config key {@code lancet.streaming.<query id>} = the epoch id, in one
 * composite commit. The watermark lives in the table's current config, so it survives cleanup of
 * old versions. An epoch whose id is not above the watermark already landed (Spark replays the
 * last epoch after a failure between the sink's commit and its own commit log): it is skipped
 * and its files deleted. Two runs of one query committing the same epoch at once collide on the
 * watermark key; the loser re-reads it and skips.
 *
 * <p>The query id is Spark's, which persists across restarts from the same checkpoint. Data
 * files of an epoch in progress are protected from cleanup by the age threshold only.
 */
public final class LancetStreamingWrite implements StreamingWrite {
  private static final Logger LOG = LoggerFactory.getLogger(LancetStreamingWrite.class);
  public static final String WATERMARK_PREFIX = "lancet.streaming.";

  private final TableState state;
  private final LogicalWriteInfo info;
  private final String key;
  private FragmentWriteSpec spec;
  private Schema arrow;

  public LancetStreamingWrite(TableState state, LogicalWriteInfo info) {
    this.state = state;
    this.info = info;
    this.key = WATERMARK_PREFIX + info.queryId();
  }

  /** The watermark key of this query in the table config. */
  public String watermarkKey() {
    return key;
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo p) {
    if (spec == null) {
      ensureTable();
      try (LanceTable table = state.open();
          DistributedWrite w = table.newDistributedWrite(state.options().createOptions(), List.of())) {
        spec = w.detachedSpec(); // used by every epoch, each committed by a write of its own
        arrow = w.arrowSchema();
      }
    }
    return new LancetWriterFactory(spec, arrow, info.schema());
  }

  /** A streaming query into a path with no table yet starts by creating the empty table. */
  private void ensureTable() {
    if (state.exists()) {
      return;
    }
    try (LanceTable created = LanceTable.create(state.uri(), SparkSchemas.toArrow(info.schema()),
        state.options().createOptions())) {
      LOG.info("created the empty table {} for streaming query {}", state.uri(), info.queryId());
    } catch (AlreadyExistsException e) {
      // another run created it first
    }
  }

  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void commit(long epochId, WriterCommitMessage[] messages) {
    List<TaskFiles> tasks = JobCommit.messages(messages);
    int retries = state.options().commitRetries();
    for (int attempt = 1; ; attempt++) {
      LanceTable table = state.open();
      Optional<Long> watermark = Optional.ofNullable(table.config().get(key)).map(Long::parseLong);
      if (watermark.isPresent() && watermark.get() >= epochId) {
        List<WrittenFile> files = new ArrayList<>();
        tasks.forEach(t -> files.addAll(t.files()));
        try (DistributedWrite w = table.newDistributedWrite(state.options().createOptions(), List.of())) {
          w.abort(files);
        } finally {
          table.close();
        }
        LOG.info("epoch {} of query {} already committed (watermark {}); skipped, {} files deleted",
            epochId, info.queryId(), watermark.get(), files.size());
        return;
      }
      JobCommit job;
      try {
        job = new JobCommit(table.newDistributedWrite(state.options().createOptions(), List.of()),
            table, "spark streaming query " + info.queryId() + " epoch " + epochId);
      } catch (RuntimeException e) {
        table.close();
        throw e;
      }
      try {
        job.commit(messages, retries,
            c -> c.setConfig(key, Long.toString(epochId)).property(key, Long.toString(epochId)));
        job.close();
        return;
      } catch (dev.lancet.table.CommitStateUnknownException e) {
        lastUnknown = true;
        job.close();
        throw e;
      } catch (RetryableConflictException e) {
        job.close();
        if (attempt >= 3) {
          throw e;
        }
        LOG.info("epoch {}: {}; re-reading the watermark", epochId, e.getMessage());
      } catch (RuntimeException e) {
        job.close();
        throw e;
      }
    }
  }

  @Override
  public void abort(long epochId, WriterCommitMessage[] messages) {
    List<WrittenFile> files = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof TaskFiles t) {
        files.addAll(t.files());
      }
    }
    // Only files of an epoch that did not commit reach here: commit() throws only before
    // publishing, after a definite failure, or with an unknown outcome (then keep them).
    if (lastUnknown) {
      LOG.warn("epoch {}: abort after a commit with an unknown outcome; no file deleted", epochId);
      return;
    }
    try (LanceTable table = state.open();
        DistributedWrite w = table.newDistributedWrite(state.options().createOptions(), List.of())) {
      w.abort(files);
    }
  }

  private volatile boolean lastUnknown;
}
