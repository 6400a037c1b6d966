package dev.lancet.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The table benchmarks' rows: {@code id int64, name string, score float64,
 * embedding fixed_size_list<float32>[128]}, made once in memory (or on the fly for the memory
 * harness) and replayed to both writers as an {@link ArrowReader} whose batches share the
 * prepared buffers, so neither side pays for making the data.
 */
public final class TableBenchData {
  public static final int DIM = 128;
  public static final int BATCH = 8192;

  private TableBenchData() {}

  public static Schema schema() {
    return new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", ArrowType.Utf8.INSTANCE),
        Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(DIM)),
            List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));
  }

  /** Fills {@code root} with rows {@code start .. start+n-1}. */
  public static void fill(VectorSchemaRoot root, long start, int n) {
    for (org.apache.arrow.vector.FieldVector v : root.getFieldVectors()) {
      v.setInitialCapacity(n);
    }
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
    Float4Vector items = (Float4Vector) emb.getDataVector();
    items.setInitialCapacity(n * DIM);
    items.allocateNew();
    for (int i = 0; i < n; i++) {
      long v = start + i;
      id.setSafe(i, v);
      name.setSafe(i, ("name-" + v).getBytes(StandardCharsets.UTF_8));
      score.setSafe(i, v * 0.5);
      emb.setNotNull(i);
      for (int j = 0; j < DIM; j++) {
        items.set(i * DIM + j, (float) ((v * 31 + j) % 1000) / 1000f);
      }
    }
    items.setValueCount(n * DIM);
    root.setRowCount(n);
  }

  /** {@code rows} rows as prepared batches; the caller closes them. */
  public static List<VectorSchemaRoot> prepare(BufferAllocator alloc, long rows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (long start = 0; start < rows; start += BATCH) {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema(), alloc);
      fill(root, start, (int) Math.min(BATCH, rows - start));
      out.add(root);
    }
    return out;
  }

  /** Replays prepared batches (zero-copy); the batches stay open for the next replay. */
  public static ArrowReader replay(BufferAllocator alloc, List<VectorSchemaRoot> batches) {
    return new dev.lancet.datafile.lance.ReplayReader(alloc, schema(), batches, false);
  }

  /** Makes {@code total} rows on the fly, one batch in memory at a time. */
  public static final class Generated extends ArrowReader {
    private final long total;
    private long produced;

    public Generated(BufferAllocator alloc, long total) {
      super(alloc);
      this.total = total;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (produced >= total) {
        return false;
      }
      int n = (int) Math.min(BATCH, total - produced);
      fill(getVectorSchemaRoot(), produced, n);
      produced += n;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return schema();
    }
  }
}
