package dev.lancet.core.transaction;

import dev.lancet.core.action.Ref;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.ReserveRowIds;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;

/**
 * Fragment ids and stable row ids set aside by a committed reservation, for a later operation
 * that must know them before it applies (the seed's wire-format caveats; decision 0019): a
 * deletion file, an index segment or a moved row's copy names real fragment ids and row ids,
 * while ids minted for Local tokens are assigned only at apply and move on a rebase. Commit the
 * reservation first ({@link #reserve}); then add fragments as {@link #fragment(long)}
 * (Committed ids, claimed by AddFragment) and give their rows {@link #rowIds(long, long)}.
 *
 * <p>The ranges are read off the published manifest of the reservation commit, so they are
 * right however it was rebased: {@code ReserveFragmentIds(n)} raises the fragment high-water
 * mark by {@code n} and reserves the {@code n} ids ending at it; {@code ReserveRowIds(m)} raises
 * the row-id counter by {@code m} and reserves the {@code m} ids below it.
 *
 * @param version the version the reservation was published as
 * @param firstFragmentId the first reserved fragment id (meaningless when {@code fragmentCount} is 0)
 * @param fragmentCount how many fragment ids were reserved
 * @param firstRowId the first reserved row id (meaningless when {@code rowIdCount} is 0)
 * @param rowIdCount how many row ids were reserved
 */
public record Reservation(long version, long firstFragmentId, long fragmentCount, long firstRowId, long rowIdCount) {

  public Reservation {
    if (fragmentCount < 0 || rowIdCount < 0) {
      throw new IllegalArgumentException("a reservation holds a non-negative number of ids");
    }
  }

  /**
   * Commits a reservation of {@code fragmentIds} fragment ids and {@code rowIds} stable row ids
   * (the table must use stable row ids for the latter) as the next version of the table
   * {@code builder} targets, and returns what it reserved.
   */
  public static Reservation reserve(TransactionBuilder builder, long fragmentIds, long rowIds) {
    if (fragmentIds <= 0 && rowIds <= 0) {
      throw new IllegalArgumentException("reserve at least one fragment id or row id (asked for "
          + fragmentIds + " and " + rowIds + ")");
    }
    builder.step("reserve " + Math.max(fragmentIds, 0) + " fragment id(s) and " + Math.max(rowIds, 0)
        + " row id(s)", s -> {
          if (fragmentIds > 0) {
            s.action(new ReserveFragmentIds(fragmentIds));
          }
          if (rowIds > 0) {
            s.action(new ReserveRowIds(rowIds));
          }
        });
    return of(builder.commit(), Math.max(fragmentIds, 0), Math.max(rowIds, 0));
  }

  /** The ranges a pure reservation of {@code fragmentIds} and {@code rowIds} published as {@code result}. */
  public static Reservation of(CommitResult result, long fragmentIds, long rowIds) {
    Manifest m = result.manifest();
    long highWater = m.effectiveMaxFragmentId().orElse(-1);
    return new Reservation(result.version(), highWater - fragmentIds + 1, fragmentIds,
        m.nextRowId() - rowIds, rowIds);
  }

  /** The {@code i}-th reserved fragment id, as AddFragment claims it. */
  public Ref fragment(long i) {
    if (i < 0 || i >= fragmentCount) {
      throw new IndexOutOfBoundsException("fragment id " + i + " of a reservation of " + fragmentCount);
    }
    return Ref.committed(firstFragmentId + i);
  }

  /** The {@code i}-th reserved row id. */
  public long rowId(long i) {
    if (i < 0 || i >= rowIdCount) {
      throw new IndexOutOfBoundsException("row id " + i + " of a reservation of " + rowIdCount);
    }
    return firstRowId + i;
  }

  /** An inline row-id sequence of the {@code count} reserved row ids from the {@code from}-th, for an AddFragment. */
  public StoredSequence rowIds(long from, long count) {
    if (from < 0 || count < 0 || from + count > rowIdCount) {
      throw new IndexOutOfBoundsException("row ids " + from + ".." + (from + count) + " of a reservation of "
          + rowIdCount);
    }
    return StoredSequence.inline(RowIdSequence.ofRange(firstRowId + from, count).encode());
  }
}
