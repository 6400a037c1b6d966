package dev.lancet.core.conflict.legacy;

import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.TableProtos;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Work a provisional OK leaves for the commit loop (seed §9.6). The conflicting ones are decided
 * by {@link LegacySecondPhase}; the rewriting ones are carried out by {@link LegacyRebase} (the
 * deletion files) or by the caller (the index-metadata rewrites, which never conflict).
 */
public sealed interface SecondPhaseObligation {

  /**
   * Our Delete/Update and their Delete/Update changed the same fragments: the rows each side
   * deleted or moved there must not intersect, and when they do not, our deletion file must be
   * rewritten to the union of both.
   */
  record IntersectDeletions(Set<Long> fragments) implements SecondPhaseObligation {
    public IntersectDeletions {
      fragments = Collections.unmodifiableSet(new TreeSet<>(fragments));
    }

    @Override
    public String toString() {
      return "intersect the deletion vectors of fragments " + fragments;
    }
  }

  /**
   * Our DataOverlay covers fragments a concurrent row-moving Update changed: the rows it moved
   * out (current deletion vector minus the one at our read version) must not meet our overlay
   * coverage.
   */
  record MovedRowsAgainstOurOverlay(Set<Long> fragments) implements SecondPhaseObligation {
    public MovedRowsAgainstOurOverlay {
      fragments = Collections.unmodifiableSet(new TreeSet<>(fragments));
    }

    @Override
    public String toString() {
      return "check the rows moved out of fragments " + fragments + " against our overlay coverage";
    }
  }

  /**
   * Our row-moving Update moves rows out of {@code fragment}, which their DataOverlay covers at
   * {@code coverage}: the rows we moved (our deletion vector minus the read version's) must not
   * meet it, or our moved copies would drop the overlaid values.
   */
  record OurMovedRowsAgainstTheirOverlay(long fragment, DeletionVector coverage)
      implements SecondPhaseObligation {
    public OurMovedRowsAgainstTheirOverlay {
      Objects.requireNonNull(coverage, "coverage");
    }

    @Override
    public String toString() {
      return "check the rows we moved out of fragment " + Long.toUnsignedString(fragment)
          + " against the committed overlay coverage (" + coverage.cardinality() + " rows)";
    }
  }

  /**
   * Our CreateIndex installs the MemWAL index while a concurrent UpdateMemWalState recorded
   * compaction progress: the progress must be merged into our index details before publishing
   * (never a conflict).
   */
  record MergeMemWalProgress(List<TableProtos.CompactedSsTable> compacted)
      implements SecondPhaseObligation {
    public MergeMemWalProgress {
      compacted = List.copyOf(compacted);
    }

    @Override
    public String toString() {
      return "merge " + compacted.size() + " compacted SSTable record(s) into our MemWAL index";
    }
  }

  /**
   * Our CreateIndex runs concurrently with an Update that rewrote {@code fields} in
   * {@code fragments}: those fragments must be pruned from our new indices over those fields
   * before publishing (never a conflict).
   */
  record PruneUpdatedFieldsFromIndices(Set<Long> fragments, Set<Integer> fields)
      implements SecondPhaseObligation {
    public PruneUpdatedFieldsFromIndices {
      fragments = Collections.unmodifiableSet(new TreeSet<>(fragments));
      fields = Collections.unmodifiableSet(new TreeSet<>(fields));
    }

    @Override
    public String toString() {
      return "prune fragments " + fragments + " from our new indices over fields " + fields;
    }
  }
}
