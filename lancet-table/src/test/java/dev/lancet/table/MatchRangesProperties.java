package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.spi.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

  private static List<RowRange> model(RoaringBitmap rows, int maxGap) {
    TreeSet<Long> all = new TreeSet<>();
    rows.forEach((int o) -> all.add(Integer.toUnsignedLong(o)));
    List<RowRange> out = new ArrayList<>();
    long start = -1;
    long end = -1;
    for (long off : all) {
      if (start >= 0 && off - end <= maxGap) {
        end = off + 1;
        continue;
      }
      if (start >= 0) {
        out.add(new RowRange(start, end));
      }
      start = off;
      end = off + 1;
    }
    if (start >= 0) {
      out.add(new RowRange(start, end));
    }
    return out;
  }
}
