package dev.lancet.interop.statements;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One batch of {@code id int64 not null, value utf8} rows (or of another schema of an int64
 * {@code id} and one utf8 column), and reading such a table back.
 */
public final class KeyValueRows extends ArrowReader {
  public static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("value", ArrowType.Utf8.INSTANCE)));

  private final Map<Long, String> rows;
  private final Schema schema;
  private boolean done;

  public KeyValueRows(BufferAllocator allocator, Map<Long, String> rows) {
    this(allocator, rows, SCHEMA);
  }

  /** Rows of {@code schema}: {@code id} int64 first, then one utf8 column (a null value is null). */
  public KeyValueRows(BufferAllocator allocator, Map<Long, String> rows, Schema schema) {
    super(allocator);
    this.rows = rows;
    this.schema = schema;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (done) {
      return false;
    }
    done = true;
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector value = (VarCharVector) root.getVector(1);
    int i = 0;
    for (Map.Entry<Long, String> e : rows.entrySet()) {
      id.setSafe(i, e.getKey());
      if (e.getValue() == null) {
        value.setNull(i);
      } else {
        value.setSafe(i, e.getValue().getBytes(StandardCharsets.UTF_8));
      }
      i++;
    }
    root.setRowCount(i);
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
    return schema;
  }

  /** Every (id, value) of a scan; fails on a duplicate id. */
  public static Map<Long, String> read(ArrowReader r) throws IOException {
    return read(r, "value");
  }

  /** Every (id, value of {@code column}) of a scan; fails on a duplicate id. */
  public static Map<Long, String> read(ArrowReader r, String column) throws IOException {
    Map<Long, String> out = new TreeMap<>();
    try (r) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        VarCharVector value = (VarCharVector) b.getVector(column);
        for (int i = 0; i < b.getRowCount(); i++) {
          String v = value.isNull(i) ? null : new String(value.get(i), StandardCharsets.UTF_8);
          if (out.containsKey(id.get(i))) {
            throw new AssertionError("duplicate key " + id.get(i));
          }
          out.put(id.get(i), v);
        }
      }
    }
    return out;
  }

  /**
   * The keys writer {@code w} upserts in round {@code r}. Even rounds update existing keys every
   * writer updates (they collide on the rows' deletions) and insert a shared new key; odd rounds
   * only insert new keys every writer inserts too (only the unique-key assertion keeps them
   * from being inserted twice). Every round also inserts a key of the writer's own.
   */
  public static Map<Long, String> round(int w, int r) {
    Map<Long, String> out = new TreeMap<>();
    String value = "w" + w + "-r" + r;
    if (r % 2 == 0) {
      for (long k = 0; k < 6; k++) {
        out.put(r * 3 + k, value);
      }
      out.put(100 + (long) r, value);
    } else {
      for (long k = 0; k < 5; k++) {
        out.put(200 + r * 10L + k, value);
      }
    }
    out.put(1000 + w * 100L + r, value);
    return out;
  }
}
