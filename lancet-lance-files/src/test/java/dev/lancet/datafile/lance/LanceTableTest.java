package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.AlreadyExistsException;
import dev.lancet.table.Attempt;
import dev.lancet.table.CommitInfo;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.NotFoundException;
import dev.lancet.table.ScanTask;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table API over real Lance files (lance-core's writer and reader through the seam). */
class LanceTableTest {
  @TempDir Path tmp;
  BufferAllocator alloc;

  @BeforeEach
  void open() {
    alloc = new RootAllocator();
  }

  @AfterEach
  void close() throws IOException {
    for (ArrowReader r : readers) {
      r.close();
    }
    alloc.close();
  }

  /** Every row id of a scan, in order. */
  static List<Long> ids(ArrowReader reader) throws IOException {
    List<Long> out = new ArrayList<>();
    try (reader) {
      while (reader.loadNextBatch()) {
        BigIntVector id = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  static List<Long> range(long from, long to) {
    return Stream.iterate(from, x -> x + 1).limit(to - from).toList();
  }

  @Test
  void createFromAReaderAppendAndScanBackEveryValue() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows( 0, 2500, 1000),
        CreateOptions.builder().maxRowsPerFile(1000).build())) {
      assertThat(table.version()).isEqualTo(1);
      assertThat(table.countRows()).isEqualTo(2500);
      List<Attempt> attempts = new ArrayList<>();
      CommitInfo info = table.newAppend().from(rows( 2500, 700, 300))
          .onAttempt(attempts::add).commit();
      assertThat(info.version()).isEqualTo(2);
      assertThat(info.rowsWritten()).isEqualTo(700);
      assertThat(info.filesWritten()).isEqualTo(1);
      assertThat(attempts).extracting(Attempt::outcome).containsExactly(Attempt.Outcome.COMMITTED);
      assertThat(table.schema().getFields()).extracting(Field::getName)
          .containsExactly("id", "name", "score", "embedding");
      try (ArrowReader r = table.newScan().batchSize(777).open()) {
        long expect = 0;
        while (r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          BigIntVector id = (BigIntVector) root.getVector("id");
          VarCharVector name = (VarCharVector) root.getVector("name");
          FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
          for (int i = 0; i < root.getRowCount(); i++, expect++) {
            assertThat(id.get(i)).isEqualTo(expect);
            String n = GeneratedRows.name(expect);
            assertThat(name.isNull(i) ? null : new String(name.get(i))).isEqualTo(n);
            assertThat(root.getVector("score").getObject(i)).isEqualTo(expect / 2.0);
            if (GeneratedRows.embeddingNull(expect)) {
              assertThat(emb.isNull(i)).isTrue();
            } else {
              assertThat(emb.getObject(i)).isEqualTo(List.of((float) expect, expect + 1f,
                  expect + 2f, expect + 3f));
            }
          }
        }
        assertThat(expect).isEqualTo(3200);
      }
      // Version 1 still reads as it was.
      assertThat(ids(table.newScan().select("id").asOfVersion(1).open())).isEqualTo(range(0, 2500));
    }
    try (LanceTable again = LanceTable.open(uri)) {
      assertThat(again.countRows()).isEqualTo(3200);
    }
  }

  @Test
  void projectionLimitOffsetAndRowAddressesAcrossFragments() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows( 0, 1000, 128),
        CreateOptions.builder().maxRowsPerFile(300).build())) {
      List<ScanTask> tasks = table.newScan().planTasks();
      assertThat(tasks).extracting(ScanTask::fragmentId).containsExactly(0L, 1L, 2L, 3L);
      assertThat(tasks).extracting(ScanTask::rows).containsExactly(300L, 300L, 300L, 100L);
      assertThat(ids(table.newScan().select("id").offset(250).limit(400).batchSize(64).open()))
          .isEqualTo(range(250, 650));
      try (ArrowReader r = table.newScan().select("name").withRowId().withRowAddress()
          .offset(299).limit(2).open()) {
        assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
            .containsExactly("name", "_rowid", "_rowaddr");
        List<Long> addrs = new ArrayList<>();
        List<Long> rowids = new ArrayList<>();
        while (r.loadNextBatch()) {
          UInt8Vector addr = (UInt8Vector) r.getVectorSchemaRoot().getVector("_rowaddr");
          UInt8Vector rowid = (UInt8Vector) r.getVectorSchemaRoot().getVector("_rowid");
          for (int i = 0; i < addr.getValueCount(); i++) {
            addrs.add(addr.get(i));
            rowids.add(rowid.get(i));
          }
        }
        assertThat(addrs).containsExactly(299L, 1L << 32);
        assertThat(rowids).containsExactly(299L, 1L << 32);
      }
      // Each task alone gives its fragment's rows.
      List<Long> all = new ArrayList<>();
      for (ScanTask t : table.newScan().select("id").planTasks()) {
        all.addAll(ids(t.open()));
      }
      assertThat(all).isEqualTo(range(0, 1000));
    }
  }

  @Test
  void stableRowIdsNumberRowsInInsertionOrder() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows( 0, 500, 100),
        CreateOptions.builder().stableRowIds(true).maxRowsPerFile(200).build())) {
      table.append(rows( 500, 100, 100));
      try (ArrowReader r = table.newScan().select("id").withRowId().open()) {
        while (r.loadNextBatch()) {
          BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
          UInt8Vector rowid = (UInt8Vector) r.getVectorSchemaRoot().getVector("_rowid");
          for (int i = 0; i < id.getValueCount(); i++) {
            assertThat(rowid.get(i)).isEqualTo(id.get(i));
          }
        }
      }
      assertThat(table.stableRowIds()).isTrue();
    }
  }

  /** Writes an overlay of column score (field 2) for {@code offsets} and commits it. */
  private void overlay(String uri, int[] offsets, double[] values) throws IOException {
    org.apache.arrow.vector.types.pojo.Schema one = new Schema(List.of(Field.nullable("score",
        new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE))));
    String name = java.util.UUID.randomUUID() + ".lance";
    long size;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(one, alloc)) {
      root.allocateNew();
      for (int i = 0; i < values.length; i++) {
        ((org.apache.arrow.vector.Float8Vector) root.getVector(0)).setSafe(i, values[i]);
      }
      root.setRowCount(values.length);
      size = LanceDataFiles.writeFile(Path.of(uri, "data", name), root, "2.1");
    }
    dev.lancet.format.model.DataFile df = new dev.lancet.format.model.DataFile(name, List.of(2),
        List.of(0), 2, 1, size);
    org.roaringbitmap.RoaringBitmap covered = org.roaringbitmap.RoaringBitmap.bitmapOf(offsets);
    dev.lancet.format.model.DataOverlayFile o = new dev.lancet.format.model.DataOverlayFile(df,
        new dev.lancet.format.model.DataOverlayFile.SharedCoverage(com.google.protobuf.ByteString
            .copyFrom(dev.lancet.format.deletion.PortableRoaring.write(covered))), 0,
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
    try (dev.lancet.core.Table kernel = dev.lancet.core.Table.open(uri)) {
      kernel.newTransaction().step("overlay", st -> st.action(new dev.lancet.core.action.AddOverlays(
          dev.lancet.core.action.Ref.committed(0), List.of(o), true))).commit();
    }
  }

  @Test
  void overlaysReplaceCellsAndTheNewestWins() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows(0, 10, 10), CreateOptions.defaults())) {
      overlay(uri, new int[] {2, 5}, new double[] {100, 200});
      overlay(uri, new int[] {5, 7}, new double[] {500, 700});
      List<Object> scores = new ArrayList<>();
      try (ArrowReader r = table.newScan().select("id", "score").batchSize(4).open()) {
        while (r.loadNextBatch()) {
          for (int i = 0; i < r.getVectorSchemaRoot().getRowCount(); i++) {
            scores.add(r.getVectorSchemaRoot().getVector("score").getObject(i));
          }
        }
      }
      assertThat(scores).containsExactly(0.0, 0.5, 100.0, 1.5, 2.0, 500.0, 3.0, 700.0, 4.0, 4.5);
      // The version before the second overlay shows the first one's value.
      try (ArrowReader r = table.newScan().select("score").asOfVersion(2).offset(5).limit(1).open()) {
        assertThat(r.loadNextBatch()).isTrue();
        assertThat(r.getVectorSchemaRoot().getVector(0).getObject(0)).isEqualTo(200.0);
      }
    }
  }

  @Test
  void overwriteReplacesContentAndSchemaKeepingHistory() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows( 0, 100, 100),
        CreateOptions.defaults())) {
      table.overwrite(rows( 1000, 50, 20, 8));
      assertThat(table.countRows()).isEqualTo(50);
      assertThat(table.schema().findField("embedding").getType())
          .isEqualTo(new ArrowType.FixedSizeList(8));
      assertThat(ids(table.newScan().select("id").open())).isEqualTo(range(1000, 1050));
      assertThat(ids(table.newScan().select("id").asOfVersion(1).open())).isEqualTo(range(0, 100));
    }
  }

  @Test
  void badInputCommitsNothingAndLeavesNoFiles() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (LanceTable table = LanceTable.create(uri, rows( 0, 10, 10),
        CreateOptions.defaults())) {
      long filesBefore = dataFiles(uri);
      List<Field> fields = new ArrayList<>(GeneratedRows.schema(4).getFields());
      fields.set(0, Field.notNullable("id", new ArrowType.Utf8()));
      try (ArrowReader wrong = new SingleBatch(alloc, new Schema(fields))) {
        assertThatThrownBy(() -> table.append(wrong)).isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("column 'id' has type string").hasMessageContaining("int64");
      }
      try (ArrowReader partial = new SingleBatch(alloc, new Schema(fields.subList(1, 3)))) {
        assertThatThrownBy(() -> table.append(partial)).isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("missing: id, embedding");
      }
      assertThatThrownBy(() -> table.newScan().asOfVersion(9).open())
          .isInstanceOf(NotFoundException.class).hasMessageContaining("version 9");
      assertThatThrownBy(() -> table.newScan().select("nope").open())
          .isInstanceOf(NotFoundException.class).hasMessageContaining("'nope'");
      assertThat(table.version()).isEqualTo(1);
      assertThat(dataFiles(uri)).isEqualTo(filesBefore);
    }
    assertThatThrownBy(() -> LanceTable.create(uri, GeneratedRows.schema(4)))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> LanceTable.open(tmp.resolve("none").toString()))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("no Lance table");
  }

  private final List<ArrowReader> readers = new ArrayList<>();

  /** A generated reader closed after the test. */
  private ArrowReader rows(long start, long total, int batch) {
    return rows(start, total, batch, GeneratedRows.DIM);
  }

  private ArrowReader rows(long start, long total, int batch, int dim) {
    ArrowReader r = new GeneratedRows(alloc, start, total, batch, dim);
    readers.add(r);
    return r;
  }

  static long dataFiles(String uri) throws IOException {
    Path data = Path.of(uri).resolve("data");
    if (!Files.isDirectory(data)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(data)) {
      return s.count();
    }
  }

  /** One batch of a schema with two rows of default values (for schema mismatch tests). */
  static final class SingleBatch extends ArrowReader {
    private final Schema schema;
    private boolean done;

    SingleBatch(BufferAllocator a, Schema schema) {
      super(a);
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
      root.getFieldVectors().forEach(v -> v.setValueCount(2));
      root.setRowCount(2);
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
  }
}
