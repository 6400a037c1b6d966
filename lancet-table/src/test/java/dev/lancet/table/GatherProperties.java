package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Gathered rows equal the source rows they name, cell by cell (read back with getObject, not
 * through the copy): runs of consecutive rows, single rows, rows from several batches and nulls.
 */
class GatherProperties {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(64, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("b", ArrowType.Bool.INSTANCE)));

  @Property(tries = 200)
  void gatheredRowsAreTheRowsNamed(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int batchCount,
      @ForAll @IntRange(min = 0, max = 600) int count) {
    Random rnd = new Random(seed);
    try (BufferAllocator alloc = new RootAllocator()) {
      List<VectorSchemaRoot> batches = new ArrayList<>();
      try {
        for (int b = 0; b < batchCount; b++) {
          batches.add(batch(alloc, 1 + rnd.nextInt(300), rnd));
        }
        int[] bs = new int[count];
        int[] rs = new int[count];
        int i = 0;
        while (i < count) {
          int b = rnd.nextInt(batchCount);
          int rowsIn = batches.get(b).getRowCount();
          int start = rnd.nextInt(rowsIn);
          int run = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 60);
          for (int k = 0; k < run && i < count && start + k < rowsIn; k++, i++) {
            bs[i] = b;
            rs[i] = start + k;
          }
        }
        try (VectorSchemaRoot out = Gather.rows(SCHEMA, batches, bs, rs, count, alloc)) {
          assertThat(out.getRowCount()).isEqualTo(count);
          for (int c = 0; c < SCHEMA.getFields().size(); c++) {
            FieldVector v = out.getVector(c);
            assertThat(v.getValueCount()).isEqualTo(count);
            for (int r = 0; r < count; r++) {
              assertThat(v.getObject(r)).as("column %d row %d", c, r)
                  .isEqualTo(batches.get(bs[r]).getVector(c).getObject(rs[r]));
            }
          }
        }
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
    }
  }

  private static VectorSchemaRoot batch(BufferAllocator alloc, int n, Random rnd) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    BigIntVector i = (BigIntVector) root.getVector(0);
    VarCharVector s = (VarCharVector) root.getVector(1);
    BitVector b = (BitVector) root.getVector(2);
    root.allocateNew();
    for (int r = 0; r < n; r++) {
      if (rnd.nextInt(5) != 0) {
        i.setSafe(r, rnd.nextLong());
      }
      if (rnd.nextInt(5) != 0) {
        byte[] v = new byte[rnd.nextInt(20)];
        for (int k = 0; k < v.length; k++) {
          v[k] = (byte) ('a' + rnd.nextInt(26));
        }
        s.setSafe(r, v);
      }
      if (rnd.nextInt(5) != 0) {
        b.setSafe(r, rnd.nextBoolean() ? 1 : 0);
      }
    }
    root.setRowCount(n);
    return root;
  }
}
