package dev.lancet.demo;

/**
 * How a transaction's commit is expected to go: how many typed conflicts it meets (each one
 * makes the writer re-read and re-plan), and whether it must have rebased over concurrent
 * commits (committed at a version later than read version + 1) without conflicting.
 */
public record Expectation(int conflicts, boolean rebases, String why) {
  static Expectation lands(String why) {
    return new Expectation(0, false, why);
  }

  static Expectation rebases(String why) {
    return new Expectation(0, true, why);
  }

  static Expectation conflictsOnce(String why) {
    return new Expectation(1, false, why);
  }
}
