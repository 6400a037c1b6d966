package dev.lancet.interop.s3;

import dev.lancet.format.model.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.SourcedTransaction;
import org.lance.WriteParams;
import org.lance.operation.Append;

/** lance-core 7.0.0 on an {@code s3://} table, with storage options: the other side of the S3 interop tests. */
final class LanceOnS3 {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  private LanceOnS3() {}

  /** Creates the table with rows {@code 0..rows-1}, one fragment per {@code rowsPerFragment}. */
  static void create(String uri, Map<String, String> options, BufferAllocator alloc, int rows, int rowsPerFragment) {
    try (ArrowReader reader = new IdBatches(alloc, 0, rows, rowsPerFragment);
        Dataset ds = Dataset.write().allocator(alloc).reader(reader).uri(uri).storageOptions(options)
            .maxRowsPerFile(rowsPerFragment).execute()) {
      if (ds.version() != 1) {
        throw new IllegalStateException("lance-core created version " + ds.version() + ", not 1");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Dataset open(String uri, Map<String, String> options, BufferAllocator alloc) {
    return Dataset.open().allocator(alloc).uri(uri)
        .readOptions(new ReadOptions.Builder().setStorageOptions(options).build()).build();
  }

  /** Writes one fragment of ids {@code start..start+count-1} (not committed). */
  static FragmentMetadata prewrite(String uri, Map<String, String> options, BufferAllocator alloc, long start, int count) {
    try (VectorSchemaRoot root = ids(alloc, start, count)) {
      List<FragmentMetadata> written = org.lance.Fragment.create(uri, alloc, root,
          new WriteParams.Builder().withStorageOptions(options).build());
      if (written.size() != 1) {
        throw new IllegalStateException("lance-core wrote " + written.size() + " fragments, not 1");
      }
      return written.get(0);
    }
  }

  /** Commits an Append of {@code fragment} on top of {@code read} (lance-core retries on a lost race); the new version. */
  static long commitAppend(Dataset read, FragmentMetadata fragment) {
    try (SourcedTransaction txn = read.newTransactionBuilder()
        .operation(Append.builder().fragments(List.of(fragment)).build()).build();
        Dataset committed = txn.commit()) {
      return committed.version();
    }
  }

  /** The fragment's data file in Lancet's model (field ids are bound by the AddDataFile action). */
  static DataFile lancetFile(FragmentMetadata fragment) {
    org.lance.fragment.DataFile f = fragment.getFiles().get(0);
    List<Integer> columns = new ArrayList<>();
    for (int c : f.getColumnIndices()) {
      columns.add(c);
    }
    return new DataFile(f.getPath(), List.of(), columns, f.getFileMajorVersion(), f.getFileMinorVersion(),
        f.getFileSizeBytes() == null ? 0 : f.getFileSizeBytes(),
        f.getBaseId().isPresent() ? OptionalInt.of(f.getBaseId().get()) : OptionalInt.empty(),
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  static VectorSchemaRoot ids(BufferAllocator alloc, long start, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    BigIntVector ids = (BigIntVector) root.getVector("id");
    ids.allocateNew(count);
    for (int i = 0; i < count; i++) {
      ids.set(i, start + i);
    }
    ids.setValueCount(count);
    root.setRowCount(count);
    return root;
  }

  /** Ids {@code start..start+rows-1} in batches of {@code batch}. */
  private static final class IdBatches extends ArrowReader {
    private final long end;
    private final int batch;
    private long next;

    IdBatches(BufferAllocator alloc, long start, long rows, int batch) {
      super(alloc);
      this.next = start;
      this.end = start + rows;
      this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next >= end) {
        return false;
      }
      int n = (int) Math.min(batch, end - next);
      VectorSchemaRoot root = getVectorSchemaRoot();
      BigIntVector ids = (BigIntVector) root.getVector("id");
      ids.allocateNew(n);
      for (int i = 0; i < n; i++) {
        ids.set(i, next + i);
      }
      ids.setValueCount(n);
      root.setRowCount(n);
      next += n;
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
      return SCHEMA;
    }
  }
}
