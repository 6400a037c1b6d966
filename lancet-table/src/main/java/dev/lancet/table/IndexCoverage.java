package dev.lancet.table;

import java.util.Objects;

/**
 * What a compaction did to one index's coverage (docs/decisions/0026): the index's name, what
 * happened ({@link Outcome}), how many fragments it covered that the compaction rewrote or left
 * alone for its sake, and why, in words (empty when the coverage was kept).
 */
public record IndexCoverage(String index, Outcome outcome, int fragments, String reason) {

  /** What a compaction did to the fragments an index covers. */
  public enum Outcome {
    /**
     * Rewritten, and the index covers the new fragments: with stable row ids an index keyed by
     * row ids stays valid when rows move.
     */
    KEPT,
    /** Not rewritten: the index could not follow its rows, and losing coverage was not allowed. */
    SKIPPED,
    /**
     * Rewritten because {@code allowIndexCoverageLoss(true)} asked for it: the rows are unindexed
     * (queries scan them, answers stay right) until the index is optimized or rebuilt.
     */
    LOST,
    /**
     * {@link #LOST}, and the index covers no other fragment, so it is gone from the table
     * (lance-core drops a vector index that covers nothing): build it again.
     */
    DROPPED
  }

  public IndexCoverage {
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    if (fragments < 0) {
      throw new IllegalArgumentException("fragments must not be negative, not " + fragments);
    }
  }

  /** One line for people: "index 'vec_idx': 4 fragment(s) skipped: the table has no ...". */
  public String describe() {
    String what = switch (outcome) {
      case KEPT -> "rewritten, still covered";
      case SKIPPED -> "skipped";
      case LOST -> "rewritten, coverage lost";
      case DROPPED -> "rewritten, coverage lost and the index dropped";
    };
    return "index '" + index + "': " + fragments + " fragment(s) " + what
        + (reason.isEmpty() ? "" : ": " + reason);
  }
}
