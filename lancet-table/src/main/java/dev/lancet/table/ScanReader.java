package dev.lancet.table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * The {@link ArrowReader} a scan returns: the tasks' fragments read one after another, each
 * batch moved (not copied: the buffers are shared) into the reader's root under the table's
 * current column names. A dictionary-encoded column comes with its dictionary, as in an Arrow
 * IPC stream: each batch may replace it (every data file has its own), so a consumer looks it
 * up ({@link #lookup}) after each {@link #loadNextBatch}.
 */
final class ScanReader extends ArrowReader {
  private final Schema schema;
  private final Map<Long, ArrowType> dictionaryValueTypes;
  private final List<ScanTask> tasks;
  private final BufferAllocator allocator;
  private int next;
  private FragmentRead current;
  private long bytes;

  ScanReader(BufferAllocator allocator, Scan.Plan plan, List<ScanTask> tasks) {
    super(allocator);
    this.allocator = allocator;
    this.schema = plan.outSchema();
    this.dictionaryValueTypes = plan.dictionaryValueTypes();
    this.tasks = tasks;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    while (true) {
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
      try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
        bytes += rb.computeBodyLength();
        new VectorLoader(getVectorSchemaRoot()).load(rb);
      }
      loadDictionaries();
      return true;
    }
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
