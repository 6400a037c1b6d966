package dev.lancet.core.conflict;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * The row- and cell-granular part of a footprint: which rows of committed fragments a set
 * deletes, moves, overlays, rewrites in place or read and copied. Coordinates are too coarse for
 * these (two deletes of disjoint rows of one fragment, an overlay and a move of other rows, an
 * update and a column rewrite of a column it did not read all commute). Only committed fragments
 * and fields appear: nothing a set mints can be named by a concurrent writer. Bitmaps hold
 * physical offsets; they are copied in and never handed to code that could change them.
 *
 * @param deletedRows committed fragments whose deletion file the set replaces by a new file
 *     (SetDeletionFile with a file, a legacy Delete): which rows it deletes is derived at
 *     conflict time by diffing against the read version (docs/decisions/0011), so two such
 *     sets on one fragment are checked row by row instead of colliding
 * @param relocatedRows per committed fragment, the rows the set moves out of it (RelocateRows)
 * @param overlaidCells per committed fragment and committed field, the offsets the set overlays
 * @param rewrittenFields per committed fragment, the committed fields whose values the set
 *     replaces in place for every row (a data-changing column rewrite: TombstoneFieldData or
 *     AddDataFile with {@code data_change}, a legacy DataReplacement)
 * @param newFieldData committed fragments that get data for a field the set mints (a new
 *     column's backfill): a concurrent move of their rows would leave the new values behind
 * @param readCells per committed fragment and committed field, the offsets whose cells the set
 *     read and copied into what it writes (AssertCellsUnchanged, docs/decisions/0013)
 */
public record CellFootprint(
    Set<Long> deletedRows,
    Map<Long, RoaringBitmap> relocatedRows,
    Map<Long, Map<Integer, RoaringBitmap>> overlaidCells,
    Map<Long, Set<Integer>> rewrittenFields,
    Set<Long> newFieldData,
    Map<Long, Map<Integer, RoaringBitmap>> readCells) {

  public CellFootprint {
    deletedRows = Collections.unmodifiableSet(new LinkedHashSet<>(deletedRows));
    relocatedRows = frozen(relocatedRows);
    overlaidCells = frozenCells(overlaidCells);
    Map<Long, Set<Integer>> rewritten = new LinkedHashMap<>();
    rewrittenFields.forEach((f, fields) -> rewritten.put(f, Collections.unmodifiableSet(new TreeSet<>(fields))));
    rewrittenFields = Collections.unmodifiableMap(rewritten);
    newFieldData = Collections.unmodifiableSet(new LinkedHashSet<>(newFieldData));
    readCells = frozenCells(readCells);
  }

  /** Every offset of {@code fragment} the set overlays, in any field (empty when none). */
  RoaringBitmap overlaidRows(long fragment) {
    Map<Integer, RoaringBitmap> byField = overlaidCells.get(fragment);
    if (byField == null) {
      return new RoaringBitmap();
    }
    return RoaringBitmap.or(byField.values().iterator());
  }

  /** Whether the set changes values of {@code fragment}'s existing rows in place, in any field. */
  boolean writesInPlace(long fragment) {
    return rewrittenFields.containsKey(fragment) || newFieldData.contains(fragment);
  }

  private static Map<Long, RoaringBitmap> frozen(Map<Long, RoaringBitmap> rows) {
    Map<Long, RoaringBitmap> copy = new LinkedHashMap<>();
    rows.forEach((f, r) -> copy.put(f, r.clone()));
    return Collections.unmodifiableMap(copy);
  }

  private static Map<Long, Map<Integer, RoaringBitmap>> frozenCells(Map<Long, Map<Integer, RoaringBitmap>> cells) {
    Map<Long, Map<Integer, RoaringBitmap>> copy = new LinkedHashMap<>();
    cells.forEach((f, byField) -> {
      Map<Integer, RoaringBitmap> inner = new LinkedHashMap<>();
      byField.forEach((field, rows) -> inner.put(field, rows.clone()));
      copy.put(f, Collections.unmodifiableMap(inner));
    });
    return Collections.unmodifiableMap(copy);
  }

  /** Collects a set's cell facts in action order. */
  static final class Builder {
    private final Set<Long> deletedRows = new LinkedHashSet<>();
    private final Map<Long, RoaringBitmap> relocatedRows = new LinkedHashMap<>();
    private final Map<Long, Map<Integer, RoaringBitmap>> overlaidCells = new LinkedHashMap<>();
    private final Map<Long, Set<Integer>> rewrittenFields = new LinkedHashMap<>();
    private final Set<Long> newFieldData = new LinkedHashSet<>();
    private final Map<Long, Map<Integer, RoaringBitmap>> readCells = new LinkedHashMap<>();

    void deleteRows(long fragment) {
      deletedRows.add(fragment);
    }

    void relocate(long fragment, RoaringBitmap rows) {
      relocatedRows.computeIfAbsent(fragment, f -> new RoaringBitmap()).or(rows);
    }

    void overlay(long fragment, int field, RoaringBitmap rows) {
      cell(overlaidCells, fragment, field).or(rows);
    }

    void rewrite(long fragment, int field) {
      rewrittenFields.computeIfAbsent(fragment, f -> new LinkedHashSet<>()).add(field);
    }

    void newFieldData(long fragment) {
      newFieldData.add(fragment);
    }

    void read(long fragment, int field, RoaringBitmap rows) {
      cell(readCells, fragment, field).or(rows);
    }

    private static RoaringBitmap cell(Map<Long, Map<Integer, RoaringBitmap>> cells, long fragment, int field) {
      return cells.computeIfAbsent(fragment, f -> new LinkedHashMap<>())
          .computeIfAbsent(field, x -> new RoaringBitmap());
    }

    CellFootprint build() {
      return new CellFootprint(deletedRows, relocatedRows, overlaidCells, rewrittenFields, newFieldData, readCells);
    }
  }
}
