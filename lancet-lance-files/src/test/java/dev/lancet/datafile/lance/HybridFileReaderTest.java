package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.file.RowRange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/**
 * The data-file seam on a local file: the Java reader serves the columns it decodes without
 * ever opening lance-core's reader, and lance-core's reader serves the rest.
 */
class HybridFileReaderTest {
  private static final int ROWS = 3000;
  @TempDir Path dir;
  private BufferAllocator alloc;

  @BeforeEach
  void allocator() {
    alloc = new RootAllocator();
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    alloc.close();
  }

  private void writeIntAndString(Path file, String version) {
    try (IntVector x = new IntVector("x", alloc);
        VarCharVector name = new VarCharVector("name", alloc);
        org.apache.arrow.vector.LargeVarCharVector large =
            new org.apache.arrow.vector.LargeVarCharVector("large", alloc)) {
      x.allocateNew(ROWS);
      name.allocateNew(ROWS);
      large.allocateNew(ROWS);
      for (int i = 0; i < ROWS; i++) {
        if (i % 11 == 0) {
          x.setNull(i);
        } else {
          x.set(i, i * 13 - 500);
        }
        name.setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
        large.setSafe(i, ("l" + i).getBytes(StandardCharsets.UTF_8));
      }
      x.setValueCount(ROWS);
      name.setValueCount(ROWS);
      large.setValueCount(ROWS);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(x, name, large))) {
        root.setRowCount(ROWS);
        LanceDataFiles.writeFile(file, root, version);
      }
    }
  }

  private DataFileReader open(String tableUri, String relative) throws Exception {
    return new LanceCoreFileFormat().openReader(new ReadSpec(tableUri, Map.of(), relative, alloc));
  }

  @Test
  void intStringAndLargeStringColumnsInJava() throws Exception {
    writeIntAndString(dir.resolve("data/f.lance"), null);
    List<RowRange> ranges = List.of(new RowRange(3, 900), new RowRange(1500, ROWS));
    try (DataFileReader reader = open(dir.toString(), "data/f.lance");
        LanceFileReader core = LanceFileReader.open(dir.resolve("data/f.lance").toString(), alloc)) {
      assertThat(reader).isInstanceOf(HybridFileReader.class);
      HybridFileReader hybrid = (HybridFileReader) reader;
      assertThat(reader.schema()).isEqualTo(core.schema());
      assertThat(reader.numRows()).isEqualTo(ROWS);
      assertThat(hybrid.coreOpens()).isZero();

      assertThat(rows(reader.read(List.of("x"), ranges, 256)))
          .isEqualTo(rows(core.readAll(List.of("x"), nativeRanges(ranges), 256)));
      assertThat(hybrid.coreOpens()).as("the int column is read in Java").isZero();

      assertThat(rows(reader.read(List.of("name"), ranges, 256)))
          .isEqualTo(rows(core.readAll(List.of("name"), nativeRanges(ranges), 256)));
      assertThat(hybrid.coreOpens()).as("the string column is read in Java").isZero();

      assertThat(rows(reader.read(List.of("large"), ranges, 256)))
          .isEqualTo(rows(core.readAll(List.of("large"), nativeRanges(ranges), 256)));
      assertThat(hybrid.coreOpens()).as("the large string column is read in Java").isZero();

      assertThat(rows(reader.read(List.of("name", "large", "x"), ranges, 700)))
          .isEqualTo(rows(core.readAll(List.of("name", "large", "x"), nativeRanges(ranges), 700)));
      assertThat(hybrid.coreOpens()).isZero();
    }
  }

  @Test
  void aListColumnIsLanceCoresAndItsReaderIsOpenedOnce() throws Exception {
    Path file = dir.resolve("data/l.lance");
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field listField = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    try (IntVector x = new IntVector("x", alloc);
        org.apache.arrow.vector.complex.ListVector l =
            (org.apache.arrow.vector.complex.ListVector) listField.createVector(alloc)) {
      org.apache.arrow.vector.complex.impl.UnionListWriter w = l.getWriter();
      for (int i = 0; i < 50; i++) {
        x.setSafe(i, i);
        w.setPosition(i);
        w.startList();
        for (int k = 0; k < i % 4; k++) {
          w.writeInt(i * 10 + k);
        }
        w.endList();
      }
      x.setValueCount(50);
      l.setValueCount(50);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(x, l))) {
        root.setRowCount(50);
        LanceDataFiles.writeFile(file, root, null);
      }
    }
    List<RowRange> all = List.of(new RowRange(0, 50));
    try (DataFileReader reader = open(dir.toString(), "data/l.lance");
        LanceFileReader core = LanceFileReader.open(file.toString(), alloc)) {
      HybridFileReader hybrid = (HybridFileReader) reader;
      assertThat(rows(reader.read(List.of("x"), all, 16)))
          .isEqualTo(rows(core.readAll(List.of("x"), nativeRanges(all), 16)));
      assertThat(hybrid.coreOpens()).as("the int column is read in Java").isZero();
      assertThat(rows(reader.read(List.of("l"), all, 16)))
          .isEqualTo(rows(core.readAll(List.of("l"), nativeRanges(all), 16)));
      assertThat(rows(reader.read(List.of("x", "l"), all, 7)))
          .isEqualTo(rows(core.readAll(List.of("x", "l"), nativeRanges(all), 7)));
      assertThat(hybrid.coreOpens()).as("lance-core's reader is opened once").isEqualTo(1);
    }
  }

  @Test
  void binaryAndLargeVariantsHaveLanceCoresSchemaAndValues() throws Exception {
    Path file = dir.resolve("data/b.lance");
    try (org.apache.arrow.vector.VarBinaryVector bin =
            new org.apache.arrow.vector.VarBinaryVector("bin", alloc);
        org.apache.arrow.vector.LargeVarCharVector ls =
            new org.apache.arrow.vector.LargeVarCharVector("ls", alloc);
        org.apache.arrow.vector.LargeVarBinaryVector lb =
            new org.apache.arrow.vector.LargeVarBinaryVector("lb", alloc);
        org.apache.arrow.vector.BigIntVector id = new org.apache.arrow.vector.BigIntVector("id", alloc)) {
      for (int i = 0; i < 100; i++) {
        byte[] b = ("v" + i).getBytes(StandardCharsets.UTF_8);
        bin.setSafe(i, b);
        ls.setSafe(i, b);
        if (i % 3 == 0) {
          lb.setNull(i);
        } else {
          lb.setSafe(i, b);
        }
        id.setSafe(i, i);
      }
      for (FieldVector v : List.<FieldVector>of(bin, ls, lb, id)) {
        v.setValueCount(100);
      }
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(bin, ls, lb, id))) {
        root.setRowCount(100);
        LanceDataFiles.writeFile(file, root, null);
      }
    }
    List<RowRange> all = List.of(new RowRange(0, 100));
    try (DataFileReader reader = open(dir.toString(), "data/b.lance");
        LanceFileReader core = LanceFileReader.open(file.toString(), alloc)) {
      assertThat(reader).isInstanceOf(HybridFileReader.class);
      assertThat(reader.schema()).isEqualTo(core.schema());
      assertThat(rows(reader.read(List.of("id"), all, 30)))
          .isEqualTo(rows(core.readAll(List.of("id"), nativeRanges(all), 30)));
      assertThat(((HybridFileReader) reader).coreOpens()).isZero();
      assertThat(rows(reader.read(List.of("bin", "ls", "lb"), all, 30)))
          .isEqualTo(rows(core.readAll(List.of("bin", "ls", "lb"), nativeRanges(all), 30)));
      assertThat(((HybridFileReader) reader).coreOpens()).as("large variants are read in Java")
          .isZero();
    }
  }

  @Test
  void aFileUriIsLocal() throws Exception {
    writeIntAndString(dir.resolve("data/f.lance"), null);
    try (DataFileReader reader = open(dir.toUri().toString(), "data/f.lance")) {
      assertThat(reader).isInstanceOf(HybridFileReader.class);
      assertThat(rows(reader.read(List.of("x"), List.of(new RowRange(0, 5)), 2))).hasSize(3 + 5);
      assertThat(((HybridFileReader) reader).coreOpens()).isZero();
    }
  }

  @Test
  void aVersion20FileIsReadInJava() throws Exception {
    writeIntAndString(dir.resolve("data/f.lance"), "2.0");
    try (DataFileReader reader = open(dir.toString(), "data/f.lance")) {
      assertThat(reader).isInstanceOf(HybridFileReader.class);
      assertThat(rows(reader.read(List.of("x"), List.of(new RowRange(0, 5)), 2))).hasSize(3 + 5);
      assertThat(((HybridFileReader) reader).coreOpens()).isZero();
    }
  }

  @Test
  void aStructColumnIsReadInJava() throws Exception {
    Field inner = new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field s = new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(inner));
    try (StructVector v = (StructVector) s.createVector(alloc)) {
      IntVector a = v.getChild("a", IntVector.class);
      v.allocateNew();
      for (int i = 0; i < 10; i++) {
        a.setSafe(i, i);
        v.setIndexDefined(i);
      }
      a.setValueCount(10);
      v.setValueCount(10);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(v))) {
        root.setRowCount(10);
        LanceDataFiles.writeFile(dir.resolve("data/s.lance"), root, null);
      }
    }
    List<RowRange> all = List.of(new RowRange(0, 10));
    try (DataFileReader reader = open(dir.toString(), "data/s.lance");
        LanceFileReader core = LanceFileReader.open(dir.resolve("data/s.lance").toString(), alloc)) {
      assertThat(reader).isInstanceOf(HybridFileReader.class);
      assertThat(rows(reader.read(List.of("s"), all, 4)))
          .isEqualTo(rows(core.readAll(List.of("s"), nativeRanges(all), 4)));
      assertThat(((HybridFileReader) reader).coreOpens()).isZero();
    }
  }

  private static List<Range> nativeRanges(List<RowRange> ranges) {
    List<Range> out = new ArrayList<>();
    ranges.forEach(r -> out.add(Range.of((int) r.start(), (int) r.end())));
    return out;
  }

  /** Every batch's size, then every row as text, then closes the reader. */
  private static List<String> rows(ArrowReader reader) throws Exception {
    List<String> out = new ArrayList<>();
    try (reader) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        out.add("batch " + root.getRowCount() + " " + root.getSchema());
        for (int i = 0; i < root.getRowCount(); i++) {
          StringBuilder row = new StringBuilder();
          for (FieldVector v : root.getFieldVectors()) {
            Object o = v.getObject(i);
            row.append(o instanceof byte[] b ? java.util.Arrays.toString(b) : o).append('|');
          }
          out.add(row.toString());
        }
      }
    }
    return out;
  }
}
