package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import dev.lancet.file.schema.SchemaException;
import dev.lancet.file.schema.ColumnLayout;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.interop.table.ArrowShapes.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * The same Arrow schemas created through lance-core 7.0.0 and mapped by Lancet: the manifests'
 * schemas agree field by field (id, parent, name, logical type, nullability, metadata,
 * encoding, dictionary, key markers) and the data files' slots (field ids, column indices) agree
 * with {@link ColumnLayout}, in both storage versions.
 */
class SchemaMappingInteropTest {
  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> lancetMapsEveryShapeAsLanceCoreDoes() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Shape shape : ArrowShapes.all()) {
      for (String version : shape.versions()) {
        tests.add(DynamicTest.dynamicTest(shape.name() + " @" + version, () -> {
          Schema arrow = ArrowShapes.schemaOf(shape.column());
          Manifest lance = createWithLanceCore(tmp.resolve(shape.name() + "-" + version), arrow,
              version, Optional.empty());
          compare(lance, LanceSchemas.toLance(arrow, 0, Optional.empty()), version);
          // Back to Arrow: what lance-core itself reports for the table.
          assertThat(LanceSchemas.toArrow(lance.schema()))
              .isEqualTo(LanceSchemas.toArrow(LanceSchemas.toLance(arrow, 0, Optional.empty())));
        }));
      }
    }
    return tests.stream();
  }

  @Test
  void dictionaryEncodedStringsMapAsLanceCoreDoes() throws Exception {
    for (String version : ArrowShapes.BOTH) {
      try (BufferAllocator alloc = new RootAllocator();
          VarCharVector values = new VarCharVector("dict", alloc)) {
        values.allocateNew();
        values.setSafe(0, "red".getBytes());
        values.setSafe(1, "blue".getBytes());
        values.setValueCount(2);
        DictionaryEncoding enc = new DictionaryEncoding(7L, false, new ArrowType.Int(32, true));
        DictionaryProvider.MapDictionaryProvider provider =
            new DictionaryProvider.MapDictionaryProvider(new Dictionary(values, enc));
        Schema arrow = new Schema(List.of(ArrowShapes.id(),
            new org.apache.arrow.vector.types.pojo.Field("colour",
                new FieldType(true, new ArrowType.Int(32, true), enc), List.of())));
        Manifest lance = createWithLanceCore(tmp.resolve("dict-" + version), arrow, version,
            Optional.of(provider));
        compare(lance, LanceSchemas.toLance(arrow, 0, Optional.of(provider)), version);
        assertThat(lance.schema().fields().get(1).logicalType()).isEqualTo("dict:string:int32:false");
      }
    }
  }

  @Test
  void schemasLanceCoreCannotStoreAreRejectedWithTheReason() {
    Schema map = ArrowShapes.schemaOf(new org.apache.arrow.vector.types.pojo.Field("m",
        FieldType.nullable(new ArrowType.Map(false)), List.of(new org.apache.arrow.vector.types.pojo.Field(
            "entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
                new org.apache.arrow.vector.types.pojo.Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), List.of()),
                ArrowShapes.nullable("value", new ArrowType.Int(64, true)))))));
    assertThatThrownBy(() -> LanceSchemas.toLance(map, 0, Optional.empty()))
        .isInstanceOf(SchemaException.class).hasMessageContaining("'m'")
        .hasMessageContaining("map");
    Schema colonZone = ArrowShapes.schemaOf(ArrowShapes.nullable("t",
        new ArrowType.Timestamp(TimeUnit.MILLISECOND, "+08:00")));
    assertThatThrownBy(() -> LanceSchemas.toLance(colonZone, 0, Optional.empty()))
        .isInstanceOf(SchemaException.class).hasMessageContaining("+0800");
    Schema view = ArrowShapes.schemaOf(ArrowShapes.nullable("v", ArrowType.Utf8View.INSTANCE));
    assertThatThrownBy(() -> LanceSchemas.toLance(view, 0, Optional.empty()))
        .isInstanceOf(SchemaException.class).hasMessageContaining("Utf8");
    Schema duplicate = new Schema(List.of(ArrowShapes.id(),
        ArrowShapes.nullable("id", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(() -> LanceSchemas.toLance(duplicate, 0, Optional.empty()))
        .isInstanceOf(SchemaException.class).hasMessageContaining("two fields named 'id'");
  }

  private static void compare(Manifest lance, dev.lancet.format.model.Schema ours, String version) {
    List<Field> theirs = lance.schema().fields();
    assertThat(ours.fields()).hasSameSizeAs(theirs);
    for (int i = 0; i < theirs.size(); i++) {
      Field t = theirs.get(i);
      Field o = ours.fields().get(i);
      String at = "field " + i + " (" + t.name() + ")";
      assertThat(o.id()).as(at + " id").isEqualTo(t.id());
      assertThat(o.parentId()).as(at + " parent").isEqualTo(t.parentId());
      assertThat(o.name()).as(at + " name").isEqualTo(t.name());
      assertThat(o.logicalType()).as(at + " logical type").isEqualTo(t.logicalType());
      assertThat(o.nullable()).as(at + " nullable").isEqualTo(t.nullable());
      assertThat(o.metadata()).as(at + " metadata").isEqualTo(t.metadata());
      assertThat(o.encodingValue()).as(at + " encoding").isEqualTo(t.encodingValue());
      assertThat(o.typeValue()).as(at + " type").isEqualTo(t.typeValue());
      assertThat(o.dictionary()).as(at + " dictionary").isEqualTo(t.dictionary());
      assertThat(o.extensionName()).as(at + " extension").isEqualTo(t.extensionName());
      assertThat(o.unenforcedPrimaryKey()).as(at + " pk").isEqualTo(t.unenforcedPrimaryKey());
      assertThat(o.unenforcedPrimaryKeyPosition()).as(at + " pk position")
          .isEqualTo(t.unenforcedPrimaryKeyPosition());
      assertThat(o.unenforcedClusteringKey()).as(at + " ck").isEqualTo(t.unenforcedClusteringKey());
    }
    assertThat(ours.metadata()).as("schema metadata").isEqualTo(lance.schema().metadata());
    DataFile file = lance.fragments().get(0).files().get(0);
    String[] mm = version.split("\\.");
    assertThat(file.fileMajorVersion() + "." + file.fileMinorVersion()).isEqualTo(version);
    assertThat(file.fields()).as("data file field ids")
        .isEqualTo(ColumnLayout.slotFieldIds(ours.fields(), Integer.parseInt(mm[0]), Integer.parseInt(mm[1])));
    assertThat(file.columnIndices()).as("column indices")
        .isEqualTo(ColumnLayout.columnIndices(file.fields().size()));
  }

  /** Creates a two-row table of {@code arrow} with lance-core and returns its manifest. */
  @SuppressWarnings("deprecation")
  private static Manifest createWithLanceCore(Path dir, Schema arrow, String version,
      Optional<DictionaryProvider> provider) throws IOException {
    try (BufferAllocator alloc = new RootAllocator()) {
      byte[] ipc;
      try (VectorSchemaRoot root = VectorSchemaRoot.create(arrow, alloc)) {
        root.allocateNew();
        for (int row = 0; row < 2; row++) {
          for (FieldVector v : root.getFieldVectors()) {
            fillRequired(v, row);
          }
        }
        for (FieldVector v : root.getFieldVectors()) {
          v.setValueCount(2);
        }
        root.setRowCount(2);
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ArrowStreamWriter w = new ArrowStreamWriter(root, provider.orElse(null), bos)) {
          w.start();
          w.writeBatch();
          w.end();
        }
        ipc = bos.toByteArray();
      }
      try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
        Data.exportArrayStream(alloc, reader, stream);
        Dataset.create(alloc, stream, dir.toString(),
            new WriteParams.Builder().withDataStorageVersion(version).build()).close();
      }
    }
    return Snapshot.latest(new LocalObjectStore(dir), dir.toString()).manifest();
  }

  /** Gives every non-nullable field of row {@code row} a value; nullable ones stay null. */
  private static void fillRequired(FieldVector v, int row) {
    if (v.getField().isNullable()) {
      return;
    }
    if (v instanceof BigIntVector b) {
      b.setSafe(row, row);
    } else if (v instanceof IntVector b) {
      b.setSafe(row, row);
    } else if (v instanceof Float8Vector b) {
      b.setSafe(row, row);
    } else if (v instanceof StructVector s) {
      s.setIndexDefined(row);
      for (FieldVector c : s.getChildrenFromFields()) {
        fillRequired(c, row);
      }
    } else {
      throw new IllegalArgumentException("no filler for required " + v.getField());
    }
  }

  static Map<String, String> none() {
    return Map.of();
  }
}
