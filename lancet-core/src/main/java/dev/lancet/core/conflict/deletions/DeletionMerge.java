package dev.lancet.core.conflict.deletions;

import dev.lancet.format.deletion.DeletionVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * The row-level rebase of one fragment's deletions over concurrent ones, shared by legacy
 * Delete/Update (seed §9.6) and composite SetDeletionFile (docs/decisions/0016): the rows each
 * side deleted are what its deletion vector has that the fragment's vector at our read version
 * lacked; when ours and theirs do not meet, the fragment's new deletion vector is the union of
 * the newest one and ours. Pure: the caller reads the vectors and writes the merged one.
 */
public final class DeletionMerge {
  private static final int SAMPLE = 5;

  private DeletionMerge() {}

  /** Why ours cannot be merged over the newest deletions: the rows concerned and a sentence. */
  public record RowConflict(DeletionVector rows, String reason) {
    public RowConflict {
      Objects.requireNonNull(rows, "rows");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** The merged deletions; {@code emptied} when they delete every physical row of the fragment. */
  public record Merged(DeletionVector deletions, boolean emptied) {
    public Merged {
      Objects.requireNonNull(deletions, "deletions");
    }
  }

  /**
   * Why {@code affected}, the rows our change affects in a fragment, cannot be merged over the
   * fragment's newest deletions {@code now}, given its deletions {@code read} at our read version
   * and {@code ours}, our post-image: rows the newest version deleted since we read (a second
   * delete or move of the same rows), or a side that takes deletions back (a vector that lacks
   * rows {@code read} had), which a union would silently undo. Empty when they merge.
   */
  public static Optional<RowConflict> conflict(DeletionVector read, DeletionVector now, DeletionVector ours,
      DeletionVector affected) {
    RoaringBitmap before = read.toBitmap();
    RoaringBitmap restoredByThem = RoaringBitmap.andNot(before, now.toBitmap());
    if (!restoredByThem.isEmpty()) {
      return Optional.of(new RowConflict(DeletionVector.fromBitmap(restoredByThem), "the newest version no longer "
          + "deletes rows " + sample(restoredByThem) + " that were deleted when this transaction read, so its "
          + "deletions cannot be merged into it"));
    }
    RoaringBitmap restoredByUs = RoaringBitmap.andNot(before, ours.toBitmap());
    if (!restoredByUs.isEmpty()) {
      return Optional.of(new RowConflict(DeletionVector.fromBitmap(restoredByUs), "this transaction's deletion "
          + "file no longer deletes rows " + sample(restoredByUs) + " that were deleted when it read (it is not "
          + "a delete of more rows), so it cannot be merged with a concurrent delete"));
    }
    RoaringBitmap theirs = RoaringBitmap.andNot(now.toBitmap(), before);
    RoaringBitmap hit = RoaringBitmap.and(affected.toBitmap(), theirs);
    if (!hit.isEmpty()) {
      return Optional.of(new RowConflict(DeletionVector.fromBitmap(hit), "rows " + sample(hit)
          + " were also deleted or moved by a concurrent transaction"));
    }
    return Optional.empty();
  }

  /** The rows {@code ours} deletes that {@code read} did not: what a post-image adds. */
  public static DeletionVector added(DeletionVector read, DeletionVector ours) {
    return DeletionVector.fromBitmap(RoaringBitmap.andNot(ours.toBitmap(), read.toBitmap()));
  }

  /**
   * The fragment's deletions after both sides: the newest ones and ours. {@code physicalRows}
   * of 0 means "unknown" (a legacy fragment that does not record it): never emptied.
   */
  public static Merged merge(DeletionVector now, DeletionVector ours, long physicalRows) {
    DeletionVector union = now.union(ours);
    return new Merged(union, physicalRows > 0 && union.cardinality() >= physicalRows);
  }

  /** The first few offsets of {@code rows}, and how many there are when that is more. */
  public static String sample(RoaringBitmap rows) {
    List<Long> first = new ArrayList<>();
    var it = rows.getIntIterator();
    while (it.hasNext() && first.size() < SAMPLE) {
      first.add(Integer.toUnsignedLong(it.next()));
    }
    return first + (rows.getLongCardinality() > SAMPLE ? " (of " + rows.getLongCardinality() + ")" : "");
  }
}
