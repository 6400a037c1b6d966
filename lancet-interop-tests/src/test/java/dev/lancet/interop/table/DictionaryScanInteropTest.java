package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * A dictionary-encoded column scans with its dictionary: every batch Lancet's scan returns can be
 * decoded through the reader's dictionaries (each data file has its own), and the decoded values
 * equal lance-core's, for tables lance-core wrote and tables Lancet wrote, in both storage
 * versions. Before the scan carried dictionaries, every lookup returned an empty dictionary.
 */
class DictionaryScanInteropTest {
  @TempDir Path tmp;

  private static final DictionaryEncoding ENCODING =
      new DictionaryEncoding(7L, false, new ArrowType.Int(32, true));
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      new Field("colour", new FieldType(true, new ArrowType.Int(32, true), ENCODING), List.of())));

  /** Two batches with different dictionaries; every fifth colour null. */
  private static byte[] ipc(BufferAllocator alloc, long firstId, List<String> words, int rows)
      throws Exception {
    try (VarCharVector values = new VarCharVector("dict", alloc);
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc)) {
      values.allocateNew();
      for (int i = 0; i < words.size(); i++) {
        values.setSafe(i, words.get(i).getBytes());
      }
      values.setValueCount(words.size());
      DictionaryProvider.MapDictionaryProvider provider =
          new DictionaryProvider.MapDictionaryProvider(new Dictionary(values, ENCODING));
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      IntVector colour = (IntVector) root.getVector("colour");
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, firstId + i);
        if (i % 5 == 4) {
          colour.setNull(i);
        } else {
          colour.setSafe(i, (i * 7) % words.size());
        }
      }
      root.setRowCount(rows);
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      try (ArrowStreamWriter w = new ArrowStreamWriter(root, provider, bos)) {
        w.start();
        w.writeBatch();
        w.end();
      }
      return bos.toByteArray();
    }
  }

  private static final List<String> FIRST = List.of("red", "green", "blue");
  private static final List<String> SECOND = List.of("amber", "teal", "violet", "ochre");

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void lanceCoreWritesAndLancetScansTheSameDecodedValues(String storage) throws Exception {
    Path dir = tmp.resolve("lance-" + storage);
    try (BufferAllocator alloc = new RootAllocator()) {
      lanceWrite(alloc, dir, ipc(alloc, 0, FIRST, 40), storage, WriteParams.WriteMode.CREATE);
      lanceWrite(alloc, dir, ipc(alloc, 100, SECOND, 30), storage, WriteParams.WriteMode.APPEND);
      Map<Long, String> lance = lanceScan(alloc, dir);
      assertThat(lance).hasSize(70).containsEntry(1L, "green").containsEntry(101L, "ochre")
          .containsEntry(4L, null);
      assertThat(lancetScan(dir)).isEqualTo(lance);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void lancetWritesAndBothScanTheSameDecodedValues(String storage) throws Exception {
    Path dir = tmp.resolve("lancet-" + storage);
    try (BufferAllocator alloc = new RootAllocator()) {
      try (ArrowStreamReader first = new ArrowStreamReader(
              new ByteArrayInputStream(ipc(alloc, 0, FIRST, 40)), alloc);
          LanceTable t = LanceTable.create(dir.toString(), first,
              CreateOptions.builder().storageVersion(storage).build());
          ArrowStreamReader second = new ArrowStreamReader(
              new ByteArrayInputStream(ipc(alloc, 100, SECOND, 30)), alloc)) {
        t.append(second);
      }
      Map<Long, String> lancet = lancetScan(dir);
      assertThat(lancet).hasSize(70).containsEntry(1L, "green").containsEntry(101L, "ochre");
      assertThat(lanceScan(alloc, dir)).isEqualTo(lancet);
    }
  }

  @org.junit.jupiter.api.Test
  void aProjectionWithoutTheDictionaryColumnHasNoDictionaries() throws Exception {
    String storage = "2.1";
    Path dir = tmp.resolve("proj-" + storage);
    try (BufferAllocator alloc = new RootAllocator()) {
      lanceWrite(alloc, dir, ipc(alloc, 0, FIRST, 10), storage, WriteParams.WriteMode.CREATE);
      try (LanceTable t = LanceTable.open(dir.toString());
          ArrowReader r = t.newScan().select("id").open()) {
        assertThat(r.getVectorSchemaRoot().getSchema().getFields()).hasSize(1);
        assertThat(r.getDictionaryIds()).isEmpty();
        long rows = 0;
        while (r.loadNextBatch()) {
          rows += r.getVectorSchemaRoot().getRowCount();
        }
        assertThat(rows).isEqualTo(10);
      }
    }
  }

  private static void lanceWrite(BufferAllocator alloc, Path dir, byte[] ipc, String storage,
      WriteParams.WriteMode mode) throws Exception {
    try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
      Data.exportArrayStream(alloc, reader, stream);
      Dataset.create(alloc, stream, dir.toString(),
          new WriteParams.Builder().withDataStorageVersion(storage).withMode(mode).build()).close();
    }
  }

  private static Map<Long, String> lanceScan(BufferAllocator alloc, Path dir) throws Exception {
    try (Dataset ds = Dataset.open().allocator(alloc).uri(dir.toString()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().build());
        ArrowReader r = scanner.scanBatches()) {
      return decode(r);
    }
  }

  private static Map<Long, String> lancetScan(Path dir) throws Exception {
    try (LanceTable t = LanceTable.open(dir.toString()); ArrowReader r = t.newScan().open()) {
      return decode(r);
    }
  }

  /** id to the decoded colour, through the reader's dictionary of each batch. */
  private static Map<Long, String> decode(ArrowReader r) throws Exception {
    Map<Long, String> out = new TreeMap<>();
    while (r.loadNextBatch()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      BigIntVector id = (BigIntVector) root.getVector("id");
      FieldVector colour = root.getVector("colour");
      FieldVector values = r.lookup(colour.getField().getDictionary().getId()).getVector();
      for (int i = 0; i < root.getRowCount(); i++) {
        out.put(id.get(i), colour.isNull(i) ? null
            : String.valueOf(values.getObject((int) ((BaseIntVector) colour).getValueAsLong(i))));
      }
    }
    return out;
  }
}
