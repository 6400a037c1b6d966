package dev.lancet.datafile.lance;

import java.nio.charset.StandardCharsets;
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
 * An {@link ArrowReader} that makes its rows as it goes (one batch in memory at a time), with
 * values that are a function of the row number: {@code id = start + i}, {@code name = "n<id>"}
 * (null when id % 7 == 3), {@code score = id / 2.0}, {@code embedding[j] = id + j} (null when
 * id % 11 == 5).
 */
public final class GeneratedRows extends ArrowReader {
  public static final int DIM = 4;

  public static Schema schema(int dim) {
    return new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", ArrowType.Utf8.INSTANCE),
        Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(dim)),
            List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));
  }

  private final long start;
  private final long total;
  private final int batch;
  private final int dim;
  private long produced;

  public GeneratedRows(BufferAllocator allocator, long start, long total, int batch, int dim) {
    super(allocator);
    this.start = start;
    this.total = total;
    this.batch = batch;
    this.dim = dim;
  }

  public GeneratedRows(BufferAllocator allocator, long start, long total, int batch) {
    this(allocator, start, total, batch, DIM);
  }

  public static String name(long id) {
    return id % 7 == 3 ? null : "n" + id;
  }

  public static boolean embeddingNull(long id) {
    return id % 11 == 5;
  }

  @Override
  public boolean loadNextBatch() throws java.io.IOException {
    prepareLoadNextBatch();
    if (produced >= total) {
      return false;
    }
    int n = (int) Math.min(batch, total - produced);
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
    Float4Vector items = (Float4Vector) emb.getDataVector();
    for (int i = 0; i < n; i++) {
      long v = start + produced + i;
      id.setSafe(i, v);
      String s = name(v);
      if (s == null) {
        name.setNull(i);
      } else {
        name.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
      }
      score.setSafe(i, v / 2.0);
      if (embeddingNull(v)) {
        emb.setNull(i);
        for (int j = 0; j < dim; j++) {
          items.setNull(i * dim + j);
        }
      } else {
        emb.setNotNull(i);
        for (int j = 0; j < dim; j++) {
          items.setSafe(i * dim + j, v + j);
        }
      }
    }
    items.setValueCount(n * dim);
    root.setRowCount(n);
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
    return schema(dim);
  }
}
