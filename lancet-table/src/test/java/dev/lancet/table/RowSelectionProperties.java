package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The rows a scan reads, against a naive model: every offset, minus deleted, skip, take. */
class RowSelectionProperties {

  @Property
  void liveThenSliceIsTheModel(@ForAll @IntRange(min = 0, max = 300) int physical,
      @ForAll @Size(max = 100) Set<@IntRange(min = 0, max = 299) Integer> deleted,
      @ForAll @LongRange(min = 0, max = 400) long skip,
      @ForAll @LongRange(min = 0, max = 400) long take, @ForAll boolean unlimited) {
    long limit = unlimited ? Long.MAX_VALUE : take;
    List<Long> model = new ArrayList<>();
    for (long o = 0; o < physical; o++) {
      if (!deleted.contains((int) o)) {
        model.add(o);
      }
    }
    model = model.subList((int) Math.min(skip, model.size()),
        (int) Math.min(model.size(), Math.min(skip + Math.min(limit, 1000), model.size())));
    List<RowRange> live = RowSelection.live(physical,
        DeletionVector.of(deleted.stream().mapToInt(i -> i).toArray()));
    List<Long> got = new ArrayList<>();
    for (RowRange r : RowSelection.slice(live, skip, limit)) {
      assertThat(r.length()).isPositive();
      for (long o = r.start(); o < r.end(); o++) {
        got.add(o);
      }
    }
    assertThat(got).isEqualTo(model);
  }

  @Test
  void anUnlimitedSliceDoesNotOverflow() {
    assertThat(RowSelection.slice(List.of(new RowRange(0, 10), new RowRange(11, 20)), 1,
        Long.MAX_VALUE)).containsExactly(new RowRange(1, 10), new RowRange(11, 20));
  }
}
