package dev.lancet.table;

import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Reads the selected rows of one fragment as batches of the scan's output columns: each data
 * file holding a projected column is read for the same row ranges in lockstep, a column no file
 * of the fragment holds (added after the fragment was written) comes back as nulls, and the
 * {@code _rowid} / {@code _rowaddr} columns are computed from the fragment's row ids and the
 * physical offsets read. The batch returned by {@link #next()} stays valid until the next call.
 */
final class FragmentRead implements AutoCloseable {
  /** Where an output column comes from. */
  private sealed interface Column {}

  private record FromFile(int source, String name) implements Column {}

  private record Nulls(org.apache.arrow.vector.types.pojo.Field field) implements Column {}

  private record RowId() implements Column {}

  private record RowAddr() implements Column {}

  private final Fragment fragment;
  private final List<Column> columns;
  private final List<Field> projected;
  private final Overlays overlays;
  private final List<DataFileReader> files = new ArrayList<>();
  private final ReaderCache cache; // null: the files are opened and closed here
  private final List<BaseFiles.Location> locations = new ArrayList<>();
  private final List<ArrowReader> readers = new ArrayList<>();
  private List<RowRange> ranges = List.of(); // set once the files are open
  private final int batchSize;
  private final BufferAllocator allocator;
  private final Optional<RowIdSequence> rowIds;
  private final List<FieldVector> owned = new ArrayList<>();
  private final org.apache.arrow.vector.types.pojo.Schema outSchema;
  private final String where;
  private int rangeIndex;
  private long rangePos;
  private long remaining;
  private long[] lastOffsets = new long[0];

  FragmentRead(TableContext ctx, Schema schema, Fragment fragment, List<Field> projected,
      boolean withRowId, boolean withRowAddr, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator, org.apache.arrow.vector.types.pojo.Schema outSchema,
      RowIdSource rowIdSource) {
    this(ctx, schema, fragment, projected, withRowId, withRowAddr, ranges, batchSize, allocator,
        outSchema, rowIdSource, null);
  }

  /** As above, the data files' readers lent by {@code cache} (and given back to it). */
  FragmentRead(TableContext ctx, Schema schema, Fragment fragment, List<Field> projected,
      boolean withRowId, boolean withRowAddr, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator, org.apache.arrow.vector.types.pojo.Schema outSchema,
      RowIdSource rowIdSource, ReaderCache cache) {
    this(ctx, schema, fragment, projected, withRowId, withRowAddr, gap -> ranges, batchSize,
        allocator, outSchema, rowIdSource, cache);
  }

  /**
   * As above, the ranges {@code rangesFor} gives for the widest gap the files' readers read
   * along ({@link DataFileReader#rangeGap}): rows between the wanted ones come back too, and
   * {@link #offsets()} tells which were read.
   */
  FragmentRead(TableContext ctx, Schema schema, Fragment fragment, List<Field> projected,
      boolean withRowId, boolean withRowAddr, IntFunction<List<RowRange>> rangesFor,
      int batchSize, BufferAllocator allocator,
      org.apache.arrow.vector.types.pojo.Schema outSchema, RowIdSource rowIdSource,
      ReaderCache cache) {
    this.cache = cache;
    this.fragment = fragment;
    this.batchSize = batchSize;
    this.allocator = allocator;
    this.outSchema = outSchema;
    this.where = "fragment " + fragment.id();
    this.rowIds = withRowId ? rowIdSource.of(fragment) : Optional.empty();
    this.columns = new ArrayList<>();
    this.projected = List.copyOf(projected);
    this.overlays = fragment.overlays().isEmpty() ? null
        : new Overlays(ctx, fragment, projected, allocator);
    Map<Integer, List<Field>> children = LanceSchemas.childrenOf(schema);
    Map<Integer, Integer> sourceOfFile = new LinkedHashMap<>();
    List<List<String>> namesPerSource = new ArrayList<>();
    List<FileColumns.Column>[] fileColumns = openColumns(ctx, fragment);
    try {
      int outIndex = 0;
      for (Field top : projected) {
        Set<Integer> subtree = new HashSet<>();
        List<Field> fields = new ArrayList<>();
        collect(top, children, subtree, fields);
        Column c = null;
        for (int fi = 0; fi < fileColumns.length && c == null; fi++) {
          DataFile df = fragment.files().get(fi);
          for (FileColumns.Column col : fileColumns[fi]) {
            if (col.slotIds().stream().noneMatch(subtree::contains)) {
              continue;
            }
            List<Integer> expected = TableSchemas.slotFieldIds(fields, df.fileMajorVersion(),
                df.fileMinorVersion());
            if (!col.slotIds().equals(expected)) {
              throw new LanceTableException(where + ": column '" + top.name() + "' is stored "
                  + "across data files (file " + df.path() + " holds field ids " + col.slotIds()
                  + " of " + expected + "); Lancet does not assemble such a column yet");
            }
            int source = sourceOfFile.computeIfAbsent(fi, k -> {
              namesPerSource.add(new ArrayList<>());
              return namesPerSource.size() - 1;
            });
            namesPerSource.get(source).add(col.name());
            c = new FromFile(source, col.name());
            break;
          }
        }
        columns.add(c != null ? c : new Nulls(outSchema.getFields().get(outIndex)));
        outIndex++;
      }
      if (withRowId) {
        columns.add(new RowId());
      }
      if (withRowAddr) {
        columns.add(new RowAddr());
      }
      int gap = 0;
      for (Map.Entry<Integer, Integer> e : sourceOfFile.entrySet()) {
        gap = Math.max(gap, files.get(e.getKey()).rangeGap(namesPerSource.get(e.getValue())));
      }
      ranges = rangesFor.apply(gap);
      remaining = RowSelection.count(ranges);
      for (Map.Entry<Integer, Integer> e : sourceOfFile.entrySet()) {
        DataFileReader r = files.get(e.getKey());
        readers.add(r.read(namesPerSource.get(e.getValue()), ranges, batchSize));
      }
      // Files no projected column needs are closed early.
      for (int fi = 0; fi < files.size(); fi++) {
        if (!sourceOfFile.containsKey(fi)) {
          release(fi, true);
        }
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(where + ": reading its data files", e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @SuppressWarnings("unchecked")
  private List<FileColumns.Column>[] openColumns(TableContext ctx, Fragment fragment) {
    List<FileColumns.Column>[] out = new List[fragment.files().size()];
    try {
      for (int i = 0; i < fragment.files().size(); i++) {
        DataFile df = fragment.files().get(i);
        BaseFiles.Location at = BaseFiles.data(ctx, df, where);
        locations.add(at);
        DataFileReader r = cache != null ? cache.take(ctx, at, allocator)
            : ctx.dataFiles().openReader(new ReadSpec(at.uri(), ctx.storageOptions(), at.path(),
                allocator));
        files.add(r);
        out[i] = FileColumns.of(df, r.schema(), where);
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(where + ": opening its data files", e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    return out;
  }

  private static void collect(Field f, Map<Integer, List<Field>> children, Set<Integer> ids,
      List<Field> out) {
    ids.add(f.id());
    out.add(f);
    for (Field c : children.getOrDefault(f.id(), List.of())) {
      collect(c, children, ids, out);
    }
  }

  long fragmentId() {
    return fragment.id();
  }

  /**
   * The dictionary of output column {@code index} for the batch {@link #next} returned last:
   * the values of the data file's dictionary; empty when the fragment has no data for the
   * column (it reads as nulls).
   */
  Optional<FieldVector> dictionaryValues(int index) {
    if (!(columns.get(index) instanceof FromFile f)) {
      return Optional.empty();
    }
    ArrowReader reader = readers.get(f.source());
    org.apache.arrow.vector.types.pojo.Field stored;
    try {
      stored = reader.getVectorSchemaRoot().getVector(f.name()).getField();
    } catch (IOException e) {
      throw new UncheckedIOException(where + ": reading the dictionary of column '"
          + projected.get(index).name() + "'", e);
    }
    if (stored.getDictionary() == null) {
      throw new LanceTableException(where + ": column '" + projected.get(index).name() + "' is "
          + "dictionary-encoded in the table schema but its data file stores plain "
          + stored.getType() + " values");
    }
    return Optional.of(reader.lookup(stored.getDictionary().getId()).getVector());
  }

  /**
   * The physical offsets of the rows of the batch {@link #next()} returned last; like the batch,
   * valid until the next call.
   */
  long[] offsets() {
    return lastOffsets;
  }

  /** The next batch (output columns in order), or null at the end. */
  VectorSchemaRoot next() throws IOException {
    releaseOwned();
    if (remaining == 0) {
      return null;
    }
    int rows = -1;
    List<VectorSchemaRoot> roots = new ArrayList<>(readers.size());
    for (ArrowReader r : readers) {
      if (!r.loadNextBatch()) {
        throw new LanceTableException(where + ": a data file ended with " + remaining
            + " selected rows still to read");
      }
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      if (rows >= 0 && root.getRowCount() != rows) {
        throw new LanceTableException(where + ": its data files returned batches of "
            + rows + " and " + root.getRowCount() + " rows for the same rows");
      }
      rows = root.getRowCount();
      roots.add(root);
    }
    if (rows < 0) {
      rows = (int) Math.min(batchSize, remaining);
    }
    if (rows > remaining) {
      throw new LanceTableException(where + ": a data file returned more rows than selected");
    }
    long[] offsets = nextOffsets(rows);
    lastOffsets = offsets;
    remaining -= rows;
    List<FieldVector> vectors = new ArrayList<>(columns.size());
    for (int ci = 0; ci < columns.size(); ci++) {
      Column c = columns.get(ci);
      if (c instanceof FromFile || c instanceof Nulls) {
        FieldVector v = c instanceof FromFile f ? roots.get(f.source()).getVector(f.name())
            : own(nulls(((Nulls) c).field(), rows));
        FieldVector overlaid = overlays == null ? null
            : overlays.apply(projected.get(ci).id(), v, offsets, allocator);
        vectors.add(overlaid == null ? v : own(overlaid));
      } else if (c instanceof RowId) {
        UInt8Vector v = own(new UInt8Vector(TableColumns.ROW_ID, allocator));
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          v.set(i, rowIds.isPresent() ? rowIds.get().get(offsets[i])
              : TableColumns.rowAddress(fragment.id(), offsets[i]));
        }
        v.setValueCount(rows);
        vectors.add(v);
      } else {
        UInt8Vector v = own(new UInt8Vector(TableColumns.ROW_ADDR, allocator));
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          v.set(i, TableColumns.rowAddress(fragment.id(), offsets[i]));
        }
        v.setValueCount(rows);
        vectors.add(v);
      }
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
    for (FieldVector v : vectors) {
      fields.add(v.getField());
    }
    return new VectorSchemaRoot(fields, vectors, rows);
  }

  /** The offsets of the next {@code rows} rows, in the last batch's array when it fits. */
  private long[] nextOffsets(int rows) {
    // Reused: a new array per batch was a tenth of a filter's read (callers keep it no longer
    // than the batch, as offsets() says).
    long[] out = lastOffsets.length == rows ? lastOffsets : new long[rows];
    int i = 0;
    while (i < rows) {
      RowRange r = ranges.get(rangeIndex);
      long from = r.start() + rangePos;
      int take = (int) Math.min(rows - i, r.length() - rangePos);
      for (int k = 0; k < take; k++) {
        out[i + k] = from + k;
      }
      i += take;
      rangePos += take;
      if (rangePos == r.length()) {
        rangeIndex++;
        rangePos = 0;
      }
    }
    return out;
  }

  private FieldVector nulls(org.apache.arrow.vector.types.pojo.Field field, int rows) {
    FieldVector v = field.createVector(allocator);
    v.setInitialCapacity(rows);
    v.allocateNew();
    v.setValueCount(rows);
    return v;
  }

  private <V extends FieldVector> V own(V v) {
    owned.add(v);
    return v;
  }

  private void releaseOwned() {
    for (FieldVector v : owned) {
      v.close();
    }
    owned.clear();
  }

  @Override
  public void close() {
    releaseOwned();
    if (overlays != null) {
      overlays.close();
    }
    for (ArrowReader r : readers) {
      try {
        r.close();
      } catch (IOException | RuntimeException e) {
        // closing a reader of a finished read
      }
    }
    readers.clear();
    // A reader goes back to the cache only after a read to the end (not after a failure).
    for (int fi = 0; fi < files.size(); fi++) {
      release(fi, remaining == 0);
    }
    files.clear();
  }

  private void release(int fi, boolean clean) {
    DataFileReader f = files.get(fi);
    if (f == null) {
      return;
    }
    files.set(fi, null);
    if (cache != null && clean) {
      cache.giveBack(locations.get(fi), f);
    } else {
      f.close();
    }
  }

  /** Row ids of a fragment with stable row ids. */
  interface RowIdSource {
    Optional<RowIdSequence> of(Fragment fragment);
  }

  static Optional<RowIdSequence> inlineRowIds(Fragment f, dev.lancet.core.store.ObjectStore store) {
    if (f.rowIds().isEmpty()) {
      return Optional.empty();
    }
    StoredSequence s = f.rowIds().get();
    String where = "row ids of fragment " + f.id();
    if (s instanceof StoredSequence.Inline in) {
      return Optional.of(RowIdSequence.decode(in.bytes().toByteArray(), where));
    }
    dev.lancet.format.model.ExternalFile ext = ((StoredSequence.External) s).file();
    try {
      return Optional.of(RowIdSequence.decode(
          store.getRange(ext.path(), ext.offset(), Math.toIntExact(ext.size())), where));
    } catch (IOException e) {
      throw new UncheckedIOException("reading the " + where + " from " + ext.path(), e);
    }
  }
}
