package dev.lancet.table;

import dev.lancet.core.version.Snapshot;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every row-level statement takes besides its own clauses: how often a retryable conflict
 * re-plans it, the commit loop's retry budget for lost races, the observer of its attempts and
 * the rows per batch it reads.
 */
abstract class StatementBuilder<B extends StatementBuilder<B>> {
  final TableContext ctx;
  final Supplier<Snapshot> latest;
  int maxReplans = StatementRunner.DEFAULT_MAX_REPLANS;
  int maxRetries = 20;
  Consumer<Attempt> onAttempt = a -> { };
  int batchSize = Scan.DEFAULT_BATCH_SIZE;
  boolean replanBackoff = false;
  java.util.function.LongConsumer onProgress = rows -> { };

  StatementBuilder(TableContext ctx, Supplier<Snapshot> latest) {
    this.ctx = ctx;
    this.latest = latest;
  }

  abstract B self();

  /**
   * How many times a retryable conflict (a concurrent commit that collided) re-plans the
   * statement against the new version before it fails (default 10; 0 never re-plans).
   */
  public B maxReplans(int replans) {
    if (replans < 0) {
      throw new InvalidInputException("max re-plans must not be negative, not " + replans);
    }
    this.maxReplans = replans;
    return self();
  }

  /**
   * Whether a re-plan waits first (default {@code false}: it re-plans at once). With
   * {@code true} it waits a random slot of a window that doubles with each re-plan, each slot
   * about as long as the statement's first attempt took, as lance-core's merge insert does: fewer
   * re-plans when writers keep colliding on the same rows (each re-plan costs reads, and on an
   * object store requests), at the price of idle time (docs/decisions/0024 has the figures).
   */
  public B replanBackoff(boolean wait) {
    this.replanBackoff = wait;
    return self();
  }

  /** How many lost races one commit retries (default 20). */
  public B maxRetries(int retries) {
    if (retries < 0) {
      throw new InvalidInputException("max retries must not be negative, not " + retries);
    }
    this.maxRetries = retries;
    return self();
  }

  /** Reports every commit attempt of every plan. */
  public B onAttempt(Consumer<Attempt> observer) {
    this.onAttempt = Objects.requireNonNull(observer, "observer");
    return self();
  }

  /** Reports the table rows read so far, in each plan (for progress displays). */
  public B onProgress(java.util.function.LongConsumer rowsRead) {
    this.onProgress = Objects.requireNonNull(rowsRead, "rowsRead");
    return self();
  }

  /** Rows per batch read from the table (default 8,192). */
  public B batchSize(int rows) {
    if (rows <= 0) {
      throw new InvalidInputException("a batch size must be positive, not " + rows);
    }
    this.batchSize = rows;
    return self();
  }

  StatementResult run(Statement s) {
    return StatementRunner.run(ctx, latest, s, maxReplans, maxRetries, onAttempt, onProgress,
        replanBackoff);
  }
}
