package dev.lancet.table;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a compaction did: the version it committed (empty when there was nothing to compact), the
 * fragments it removed and wrote, the live rows it rewrote and the deleted rows it dropped for
 * good, how many times it was planned and every commit attempt.
 */
public record CompactionResult(OptionalLong version, int fragmentsRemoved, int fragmentsAdded,
    long rowsRewritten, long deletionsMaterialized, int plans, List<Attempt> attempts) {
  public CompactionResult {
    attempts = List.copyOf(attempts);
  }

  public boolean committed() {
    return version.isPresent();
  }
}
