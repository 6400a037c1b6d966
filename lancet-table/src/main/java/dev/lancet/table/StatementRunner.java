package dev.lancet.table;

import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.version.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs one statement as its own commit: plan against the newest version, commit through the
 * commit loop (which rebases over concurrent commits that do not collide), and when a concurrent
 * commit does collide (a retryable conflict), plan the statement again against the new version,
 * up to {@code maxReplans} times, as lance-core's conflict retries do; at once, or when asked
 * after a randomised wait ({@link ReplanBackoff}). Files of a plan that did not commit are
 * deleted; nothing is committed when the statement changes nothing.
 */
final class StatementRunner {
  /** Re-plans after a retryable conflict unless told otherwise (lance-core's default is 10). */
  static final int DEFAULT_MAX_REPLANS = 10;

  private StatementRunner() {}

  /** The key hashes a conflict's key collisions share (exact filters name them, Bloom ones not). */
  private static java.util.Set<Long> sharedKeyHashes(ConflictingCommitException e) {
    java.util.Set<Long> out = new java.util.HashSet<>();
    for (dev.lancet.core.conflict.Collision c : e.conflicts()) {
      if (c instanceof dev.lancet.core.conflict.Collision.KeyAssertion k) {
        out.addAll(k.sharedKeyHashes());
      }
    }
    return out;
  }

  /** Sleeps before a re-plan; an interrupt ends the statement with the conflict that led here. */
  private static void wait(java.time.Duration d, RetryableConflictException cause) {
    try {
      Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      cause.addSuppressed(ie);
      throw cause;
    }
  }

  static StatementResult run(TableContext ctx, Supplier<Snapshot> latest, Statement statement,
      int maxReplans, int maxRetries, Consumer<Attempt> onAttempt,
      java.util.function.LongConsumer onProgress, boolean backoff) {
    long start = System.nanoTime();
    ReplanBackoff waits = new ReplanBackoff(java.util.concurrent.ThreadLocalRandom.current());
    List<Attempt> attempts = new ArrayList<>();
    Consumer<Attempt> observer = a -> {
      attempts.add(a);
      onAttempt.accept(a);
    };
    int plans = 0;
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      while (true) {
        plans++;
        TableView view = new TableView(ctx, latest.get());
        view.onProgress(onProgress);
        TxnPlan plan = new TxnPlan(ctx, view, TxnPlan.noReservations());
        Statement.Counts counts;
        int files;
        try {
          TxnPlan.Step step = plan.step(statement.kind(), statement.describe());
          counts = statement.plan(plan, step);
          files = plan.view().pending().size();
          if (step.isEmpty()) {
            plan.deleteWritten();
            return new StatementResult(OptionalLong.empty(), counts.deleted(), counts.updated(),
                counts.inserted(), 0, plans, attempts);
          }
        } catch (RuntimeException e) {
          plan.deleteWritten();
          throw Commits.translate(e);
        }
        try {
          CommitResult r = plan.commit(observer, maxRetries);
          return new StatementResult(OptionalLong.of(r.version()), counts.deleted(),
              counts.updated(), counts.inserted(), files, plans, attempts);
        } catch (CommitStateUnknownException e) {
          throw e; // the files stay: the commit may have landed
        } catch (IncompatibleCommitException e) {
          // A statement committed in legacy form (docs/decisions/0023) meets Lance's legacy
          // rules, where a concurrent Overwrite or Restore makes it incompatible as written;
          // planned again against the new version, it is a new statement.
          plan.deleteWritten();
          if (plans > maxReplans) {
            throw e;
          }
        } catch (RetryableConflictException e) {
          plan.deleteWritten();
          if (!(e.getCause() instanceof ConflictingCommitException)) {
            throw e;
          }
          if (plans > maxReplans) {
            List<String> keys = statement.keysWithHashes(sharedKeyHashes(
                (ConflictingCommitException) e.getCause()));
            throw new RetryableConflictException(statement.describe() + ": planned " + plans
                + " time(s), and a concurrent commit collided every time (the re-plan budget, "
                + maxReplans + ", is spent); the last: " + e.getMessage()
                + (keys.isEmpty() ? "" : " Colliding keys: " + briefKeys(keys) + "."),
                e.winnerVersion(), e.collisions(), keys, e.getCause());
          }
          if (backoff) {
            wait(waits.next(System.nanoTime() - start), e);
          }
        } catch (RuntimeException e) {
          plan.deleteWritten();
          throw e;
        }
      }
    }
  }

  /** The first few keys of a collision, and how many more; the exception carries them all. */
  private static String briefKeys(List<String> keys) {
    int shown = Math.min(5, keys.size());
    return String.join(", ", keys.subList(0, shown)) + (keys.size() > shown
        ? " and " + (keys.size() - shown) + " more (collidingKeys() lists every one)" : "");
  }
}
