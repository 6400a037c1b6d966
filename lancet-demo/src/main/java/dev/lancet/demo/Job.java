package dev.lancet.demo;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * One transaction a writer commits: its label, its planner, what it means and how its commit
 * should go. {@code after} (when present) is a job whose commit must finish before this one
 * starts committing; {@code done} opens when this one has finished, landed or not. The latches
 * only order the racing pairs: every transaction is planned before any commit starts.
 */
public record Job(String label, Planner planner, Intent intent, Expectation expectation,
    Optional<Job> after, CountDownLatch done) {

  static Job of(String label, Planner planner, Intent intent, Expectation expectation) {
    return new Job(label, planner, intent, expectation, Optional.empty(), new CountDownLatch(1));
  }

  Job after(Job first) {
    return new Job(label, planner, intent, expectation, Optional.of(first), done);
  }
}
