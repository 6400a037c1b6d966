package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A cursor of an integer {@link KeyIndex} (a galloping search from the last key found) finds
 * exactly what a plain lookup finds, whatever the order of the keys looked up: ascending (a
 * fragment in write order), descending, or random, with misses below, between and above the
 * source keys and null target keys; so does a cursor's lookup of a whole batch.
 */
class KeyIndexProperties {

  @Property(tries = 300)
  void cursorLookupsEqualPlainLookups(
      @ForAll @Size(max = 200) Set<@LongRange(min = -500, max = 500) Long> sourceKeys,
      @ForAll @Size(max = 300) List<@LongRange(min = -600, max = 600) Long> targetKeys,
      @ForAll @IntRange(min = 0, max = 2) int order) {
    long[] values = sourceKeys.stream().mapToLong(Long::longValue).toArray();
    boolean[] nulls = new boolean[values.length];
    for (int i = 0; i < nulls.length; i += 7) {
      nulls[i] = true; // null source keys never match
    }
    KeyIndex index = KeyIndex.of(true, values, nulls, null, values.length);
    List<Long> targets = new ArrayList<>(targetKeys);
    if (order == 0) {
      targets.sort(null);
    } else if (order == 1) {
      targets.sort((a, b) -> Long.compare(b, a));
    }
    try (BufferAllocator alloc = new RootAllocator();
        BigIntVector v = new BigIntVector("id", alloc)) {
      v.allocateNew(Math.max(1, targets.size()));
      for (int i = 0; i < targets.size(); i++) {
        if (i % 11 == 4) {
          v.setNull(i);
        } else {
          v.set(i, targets.get(i));
        }
      }
      v.setValueCount(targets.size());
      List<FieldVector> cols = List.of(v);
      KeyIndex.Cursor cursor = index.cursor();
      // A batch's lookups, twice on one cursor (the second starts from where the first ended).
      KeyIndex.Cursor batches = index.cursor();
      int[] first = new int[targets.size()];
      int[] second = new int[targets.size()];
      batches.lookupAll(cols, targets.size(), first);
      batches.lookupAll(cols, targets.size(), second);
      for (int i = 0; i < targets.size(); i++) {
        int want = -1;
        if (!v.isNull(i)) {
          for (int s = 0; s < values.length; s++) {
            if (!nulls[s] && values[s] == v.get(i)) {
              want = s;
            }
          }
        }
        assertThat(index.lookup(cols, i)).as("plain lookup of row %d", i).isEqualTo(want);
        assertThat(cursor.lookup(cols, i)).as("cursor lookup of row %d", i).isEqualTo(want);
        assertThat(first[i]).as("batch lookup of row %d", i).isEqualTo(want);
        assertThat(second[i]).as("second batch lookup of row %d", i).isEqualTo(want);
      }
    }
  }

  @Property(tries = 500)
  void gallopingSearchEqualsBinarySearch(
      @ForAll @Size(max = 100) Set<@LongRange(min = -300, max = 300) Long> keySet,
      @ForAll @IntRange(min = 0, max = 99) int from,
      @ForAll @LongRange(min = -320, max = 320) long key) {
    long[] keys = keySet.stream().mapToLong(Long::longValue).sorted().toArray();
    int start = keys.length == 0 ? 0 : from % keys.length;
    assertThat(KeyIndex.near(keys, start, key)).isEqualTo(Arrays.binarySearch(keys, key));
  }
}
