package dev.lancet.table;

import dev.lancet.table.expr.BoundPredicate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;

/**
 * The {@link ArrowReader} a scan returns: the tasks' fragments read one after another, each
 * batch moved (not copied: the buffers are shared) into the reader's root under the table's
 * current column names. A dictionary-encoded column comes with its dictionary, as in an Arrow
 * IPC stream: each batch may replace it (every data file has its own), so a consumer looks it
 * up ({@link #lookup}) after each {@link #loadNextBatch}. With a filter, each batch read is
 * filtered and its selected rows of the output columns copied; offset and limit then count the
 * rows kept.
 */
final class ScanReader extends ArrowReader {
  private final Schema schema;
  private final Map<Long, ArrowType> dictionaryValueTypes;
  private final List<ScanTask> tasks;
  private final BufferAllocator allocator;
  private final boolean filtered;
  private long skip;
  private long left;
  private int next;
  private FragmentRead current;
  private long bytes;

  ScanReader(BufferAllocator allocator, Scan.Plan plan, List<ScanTask> tasks) {
    super(allocator);
    this.allocator = allocator;
    this.schema = plan.outSchema();
    this.dictionaryValueTypes = plan.dictionaryValueTypes();
    this.tasks = tasks;
    this.filtered = false;
    this.left = Long.MAX_VALUE;
  }

  /** A filtered scan: skips {@code offset} kept rows, returns at most {@code limit}. */
  ScanReader(BufferAllocator allocator, Scan.Plan plan, List<ScanTask> tasks, long offset,
      long limit) {
    super(allocator);
    this.allocator = allocator;
    this.schema = plan.outSchema();
    this.dictionaryValueTypes = plan.dictionaryValueTypes();
    this.tasks = tasks;
    this.filtered = true;
    this.skip = offset;
    this.left = limit;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    while (true) {
      if (left == 0) {
        return false;
      }
      if (current == null) {
        if (next >= tasks.size()) {
          return false;
        }
        current = tasks.get(next++).read(allocator);
      }
      VectorSchemaRoot batch = current.next();
      if (batch == null) {
        current.close();
        current = null;
        continue;
      }
      if (!filtered) {
        load(batch);
        loadDictionaries();
        return true;
      }
      Optional<BoundPredicate> filter = tasks.get(next - 1).plan().filter();
      RoaringBitmap selected = filter.orElseThrow().selection(batch);
      long keep = selected.getLongCardinality();
      if (skip >= keep) {
        skip -= keep;
        continue;
      }
      int[] rows = selected.toArray();
      int from = (int) skip;
      int count = (int) Math.min(rows.length - from, left);
      skip = 0;
      left -= count;
      try (VectorSchemaRoot out = pick(batch, rows, from, count)) {
        load(out);
      }
      loadDictionaries();
      return true;
    }
  }

  private void load(VectorSchemaRoot batch) throws IOException {
    try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
      bytes += rb.computeBodyLength();
      new VectorLoader(getVectorSchemaRoot()).load(rb);
    }
  }

  /** Rows {@code rows[from .. from+count)} of the output columns of {@code batch}, copied. */
  private VectorSchemaRoot pick(VectorSchemaRoot batch, int[] rows, int from, int count) {
    List<FieldVector> out = new ArrayList<>(schema.getFields().size());
    try {
      for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
        FieldVector src = batch.getVector(f.getName());
        FieldVector dst = src.getField().createVector(allocator);
        out.add(dst);
        dst.setInitialCapacity(count);
        dst.allocateNew();
        for (int i = 0; i < count; i++) {
          dst.copyFromSafe(rows[from + i], i, src);
        }
        dst.setValueCount(count);
      }
    } catch (RuntimeException e) {
      out.forEach(FieldVector::close);
      throw e;
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
    out.forEach(v -> fields.add(v.getField()));
    return new VectorSchemaRoot(fields, out, count);
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  /** The current fragment's dictionaries (an empty one where the fragment lacks the column). */
  private void loadDictionaries() {
    List<Field> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      DictionaryEncoding encoding = fields.get(i).getDictionary();
      if (encoding == null) {
        continue;
      }
      FieldVector values = current.dictionaryValues(i).orElse(null);
      FieldVector empty = null;
      if (values == null) {
        empty = lookup(encoding.getId()).getVector().getField().createVector(allocator);
        empty.setValueCount(0);
        values = empty;
      }
      VectorSchemaRoot one = new VectorSchemaRoot(List.of(values.getField()), List.of(values),
          values.getValueCount());
      try (ArrowRecordBatch rb = new VectorUnloader(one).getRecordBatch();
          ArrowDictionaryBatch db = new ArrowDictionaryBatch(encoding.getId(), rb, false)) {
        loadDictionary(db);
      } finally {
        if (empty != null) {
          empty.close();
        }
      }
    }
  }

  /**
   * The batches' schema in Arrow's message form (a dictionary column with its value type), from
   * which {@link ArrowReader} makes the in-memory form and the dictionaries' vectors.
   */
  @Override
  protected Schema readSchema() {
    List<Field> fields = new ArrayList<>();
    for (Field f : schema.getFields()) {
      DictionaryEncoding encoding = f.getDictionary();
      fields.add(encoding == null ? f : new Field(f.getName(), new FieldType(f.isNullable(),
          dictionaryValueTypes.get(encoding.getId()), encoding, f.getMetadata()), List.of()));
    }
    return new Schema(fields, schema.getCustomMetadata());
  }
}
