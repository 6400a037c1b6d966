package dev.lancet.demo;

import dev.lancet.core.Table;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * One concurrent writer: plans all its transactions against the version it reads, waits at the
 * start barrier with the other writers, then commits them in order. A typed conflict makes it
 * do what an application should: re-read the table, plan the change again, commit again.
 */
final class Writer implements Runnable {
  /** Plans per transaction before the writer gives up (a conflict per plan). */
  static final int MAX_PLANS = 3;
  private static final long WAIT_SECONDS = 120;

  private final String name;
  private final DemoLocation dir;
  private final List<Job> jobs;
  private final CyclicBarrier start;
  private final DemoLog log;

  Writer(String name, DemoLocation dir, List<Job> jobs, CyclicBarrier start, DemoLog log) {
    this.name = name;
    this.dir = dir;
    this.jobs = List.copyOf(jobs);
    this.start = start;
    this.log = log;
  }

  String name() {
    return name;
  }

  @Override
  public void run() {
    try (Table table = dir.open()) {
      List<TransactionBuilder> planned = new ArrayList<>();
      boolean ready = false;
      try {
        Snapshot read = table.latest();
        for (Job job : jobs) {
          planned.add(job.planner().plan(table, read));
        }
        ready = true;
      } finally {
        // Always reach the barrier, so one failed plan cannot hang the other writers.
        start.await(WAIT_SECONDS, TimeUnit.SECONDS);
      }
      if (ready) {
        for (int i = 0; i < jobs.size(); i++) {
          Job job = jobs.get(i);
          if (job.after().isPresent()
              && !job.after().get().done().await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(job.label() + " waited too long for " + job.after().get().label());
          }
          try {
            commit(table, job, planned.get(i));
          } finally {
            job.done().countDown();
          }
        }
      }
    } catch (Exception e) {
      log.error(name + ": " + e);
    } finally {
      jobs.forEach(j -> j.done().countDown());
    }
  }

  private void commit(Table table, Job job, TransactionBuilder first) {
    TransactionBuilder txn = first;
    for (int plan = 1; ; plan++) {
      final int p = plan;
      final long readVersion = txn.readVersion();
      final List<String> steps = txn.operation().steps().stream().map(UserStep::description).toList();
      txn.onAttempt(a -> log.attempt(name, job.label(), p, steps, readVersion, a));
      try {
        CommitResult result = txn.tableWriteForm().commit(); // the table's write form
        log.acknowledged(new Acknowledged(name, job.label(), result.transactionUuid(), result.version()));
        return;
      } catch (ConflictingCommitException e) {
        if (plan == MAX_PLANS) {
          log.error(name + " " + job.label() + ": still conflicting after " + plan + " plans: " + e.getMessage());
          return;
        }
        // What a real application does on a retryable conflict: re-read, plan again.
        txn = job.planner().plan(table, table.latest());
      }
    }
  }
}
