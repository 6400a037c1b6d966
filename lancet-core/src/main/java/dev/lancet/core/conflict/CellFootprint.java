package dev.lancet.core.conflict;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * The row- and cell-granular part of a footprint: which rows of committed fragments a set
 * moves, overlays, rewrites in place or read and copied. (Row-level deletes are a claim mode,
 * {@link Mode#WRITES_ROWS}: which rows they delete is derived from the deletion files.) Coordinates are too coarse for
 * these (two deletes of disjoint rows of one fragment, an overlay and a move of other rows, an
 * update and a column rewrite of a column it did not read all commute). Only committed fragments
 * and fields appear: nothing a set mints can be named by a concurrent writer. Bitmaps hold
 * physical offsets; they are copied in and never handed to code that could change them.
 *
 * @param relocatedRows per committed fragment, the rows the set moves out of it (RelocateRows)
 * @param overlaidCells per committed fragment and committed field, the offsets the set overlays
 * @param rewrittenFields per committed fragment, the committed fields whose values the set
 *     replaces in place for every row (a data-changing column rewrite: TombstoneFieldData or
 *     AddDataFile with {@code data_change}, a legacy DataReplacement)
 * @param newFieldData committed fragments that get data for a field the set mints (a new
 *     column's backfill): a concurrent move of their rows would leave the new values behind
 * @param readCells per committed fragment and committed field, the offsets whose cells the set
 *     read and copied into what it writes (AssertCellsUnchanged, docs/decisions/0018)
 */
public record CellFootprint(
    Map<Long, RoaringBitmap> relocatedRows,
    Map<Long, Map<Integer, RoaringBitmap>> overlaidCells,
    Map<Long, Set<Integer>> rewrittenFields,
    Set<Long> newFieldData,
    Map<Long, Map<Integer, RoaringBitmap>> readCells) {

  /** A set that touches no row or cell of a committed fragment (most appends, config, schema). */
  public static final CellFootprint NONE = new CellFootprint(Map.of(), Map.of(), Map.of(), Set.of(), Map.of());

  // Copied into compact immutable collections (a footprint of a 10,000-action operation holds
  // thousands of entries, and most footprints hold none).
  public CellFootprint {
    relocatedRows = frozen(relocatedRows);
    overlaidCells = frozenCells(overlaidCells);
    if (!rewrittenFields.isEmpty()) {
      Map<Long, Set<Integer>> rewritten = new LinkedHashMap<>();
      rewrittenFields.forEach((f, fields) -> rewritten.put(f, Set.copyOf(fields)));
      rewrittenFields = Collections.unmodifiableMap(rewritten);
    } else {
      rewrittenFields = Map.of();
    }
    newFieldData = Set.copyOf(newFieldData);
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
    if (rows.isEmpty()) {
      return Map.of();
    }
    Map<Long, RoaringBitmap> copy = new LinkedHashMap<>();
    rows.forEach((f, r) -> copy.put(f, r.clone()));
    return Collections.unmodifiableMap(copy);
  }

  private static Map<Long, Map<Integer, RoaringBitmap>> frozenCells(Map<Long, Map<Integer, RoaringBitmap>> cells) {
    if (cells.isEmpty()) {
      return Map.of();
    }
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
    private final Map<Long, RoaringBitmap> relocatedRows = new LinkedHashMap<>();
    private final Map<Long, Map<Integer, RoaringBitmap>> overlaidCells = new LinkedHashMap<>();
    private final Map<Long, Set<Integer>> rewrittenFields = new LinkedHashMap<>();
    private final Set<Long> newFieldData = new java.util.HashSet<>();
    private final Map<Long, Map<Integer, RoaringBitmap>> readCells = new LinkedHashMap<>();
    private boolean touched;

    void relocate(long fragment, RoaringBitmap rows) {
      touched = true;
      relocatedRows.computeIfAbsent(fragment, f -> new RoaringBitmap()).or(rows);
    }

    void overlay(long fragment, int field, RoaringBitmap rows) {
      touched = true;
      cell(overlaidCells, fragment, field).or(rows);
    }

    void rewrite(long fragment, int field) {
      touched = true;
      rewrittenFields.computeIfAbsent(fragment, f -> new java.util.HashSet<>(2)).add(field);
    }

    void newFieldData(long fragment) {
      touched = true;
      newFieldData.add(fragment);
    }

    void read(long fragment, int field, RoaringBitmap rows) {
      touched = true;
      cell(readCells, fragment, field).or(rows);
    }

    private static RoaringBitmap cell(Map<Long, Map<Integer, RoaringBitmap>> cells, long fragment, int field) {
      return cells.computeIfAbsent(fragment, f -> new LinkedHashMap<>())
          .computeIfAbsent(field, x -> new RoaringBitmap());
    }

    CellFootprint build() {
      return touched ? new CellFootprint(relocatedRows, overlaidCells, rewrittenFields, newFieldData, readCells)
          : NONE;
    }
  }
}
