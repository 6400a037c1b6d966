package dev.lancet.table;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a compaction did: the version it committed (empty when there was nothing to compact), the
 * fragments it removed and wrote, the live rows it rewrote and the deleted rows it dropped for
 * good, the fragments it would have rewritten but left alone to keep an index's coverage, what
 * it did to each index whose fragments it rewrote or left alone ({@link IndexCoverage},
 * docs/decisions/0026), how many times it was planned and every commit attempt. The counts are
 * those of the last plan.
 */
public record CompactionResult(OptionalLong version, int fragmentsRemoved, int fragmentsAdded,
    long rowsRewritten, long deletionsMaterialized, int fragmentsSkipped,
    List<IndexCoverage> indexCoverage, int plans, List<Attempt> attempts) {
  public CompactionResult {
    indexCoverage = List.copyOf(indexCoverage);
    attempts = List.copyOf(attempts);
  }

  public boolean committed() {
    return version.isPresent();
  }
}
