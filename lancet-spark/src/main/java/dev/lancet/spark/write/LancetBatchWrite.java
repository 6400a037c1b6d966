package dev.lancet.spark.write;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * A batch append, overwrite or row-level operation: the job's tasks write files, the driver
 * commits them once ({@link JobCommit}); after a failed commit Spark calls {@link #abort}.
 */
public class LancetBatchWrite implements BatchWrite {
  protected final JobCommit job;
  protected final StructType input;
  private final int retries;

  public LancetBatchWrite(JobCommit job, StructType input, int retries) {
    this.job = job;
    this.input = input;
    this.retries = retries;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new LancetWriterFactory(job.write().spec(), job.write().arrowSchema(), input);
  }

  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    job.commit(messages, retries, c -> { });
    job.close(); // after a failure Spark calls abort, which closes
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    try {
      job.abort(messages);
    } finally {
      job.close();
    }
  }
}
