package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.roaringbitmap.RoaringBitmap;

/**
 * The ranges an update reads its matched rows in: every matched offset is covered, ranges are
 * ascending and apart by more than the gap, and no range starts or ends on an unmatched row.
 * Checked against a model that walks the offsets one by one.
 */
class MatchRangesProperties {

  @Property(tries = 500)
  void rangesCoverTheRowsMergingOnlySmallGaps(
      @ForAll @Size(max = 300) Set<@IntRange(min = 0, max = 70_000) Integer> offsets,
      @ForAll @IntRange(min = 0, max = 300) int runLength,
      @ForAll @IntRange(min = 0, max = 40) int maxGap) {
    RoaringBitmap rows = new RoaringBitmap();
    for (int o : offsets) {
      rows.add((long) o, (long) o + 1 + (o % 3 == 0 ? runLength : 0)); // some runs, some single rows
    }
    rows.runOptimize(); // run containers too
    assertThat(Matches.ranges(rows, maxGap)).isEqualTo(model(rows, maxGap));
  }

  /** Walks every offset up to the last, counting the unmatched rows since the last matched. */
  private static List<RowRange> model(RoaringBitmap rows, int maxGap) {
    List<RowRange> out = new ArrayList<>();
    if (rows.isEmpty()) {
      return out;
    }
    long last = rows.last();
    long start = rows.first();
    long lastMatched = start;
    for (long off = start + 1; off <= last; off++) {
      if (!rows.contains((int) off)) {
        continue;
      }
      if (off - lastMatched - 1 > maxGap) {
        out.add(new RowRange(start, lastMatched + 1));
        start = off;
      }
      lastMatched = off;
    }
    out.add(new RowRange(start, lastMatched + 1));
    return out;
  }
}
