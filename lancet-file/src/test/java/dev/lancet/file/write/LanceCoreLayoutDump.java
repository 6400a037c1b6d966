package dev.lancet.file.write;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.lance.file.LanceFileWriter;

/**
 * A tool, not a test: writes sample columns with lance-core 7.0.0 and prints the layouts it
 * chose (run with -Dlancet.dump=DIR). What it printed is summarised in decision 0033.
 */
@EnabledIfSystemProperty(named = "lancet.dump", matches = ".+")
class LanceCoreLayoutDump {
  static final FieldType F32 = FieldType.notNullable(
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));

  @Test
  void dumpListsWithoutItems() throws Exception {
    Path dir = Path.of(System.getProperty("lancet.dump"));
    Files.createDirectories(dir);
    try (BufferAllocator alloc = new RootAllocator()) {
      List<Field> fields = List.of(
          new Field("li", FieldType.nullable(ArrowType.List.INSTANCE),
              List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null))),
          new Field("ls", FieldType.nullable(ArrowType.List.INSTANCE),
              List.of(new Field("item", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), alloc)) {
        root.allocateNew();
        for (String c : List.of("li", "ls")) {
          ListVector li = (ListVector) root.getVector(c);
          for (int i = 0; i < 3000; i++) {
            if (i % 3 == 0) {
              li.setNull(i);
            } else {
              li.startNewValue(i);
              li.endValue(i, 0);
            }
          }
          li.setValueCount(3000);
        }
        root.setRowCount(3000);
        Path file = dir.resolve("lists.lance");
        Files.deleteIfExists(file);
        try (LanceFileWriter w = LanceFileWriter.open(file.toString(), alloc, null,
            Optional.empty(), Map.of())) {
          w.write(root);
        }
        System.out.println(FileLayouts.read(file).describe());
      }
    }
  }

  @Test
  void dump() throws Exception {
    Path dir = Path.of(System.getProperty("lancet.dump"));
    Files.createDirectories(dir);
    int n = Integer.getInteger("lancet.rows", 100_000);
    Random rnd = new Random(1);
    try (BufferAllocator alloc = new RootAllocator()) {
      List<Field> fields = List.of(
          new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
          new Field("small", FieldType.nullable(new ArrowType.Int(32, true)), null),
          new Field("score", FieldType.notNullable(
              new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
          new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
          new Field("lowcard", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
          new Field("emb", FieldType.nullable(new ArrowType.FixedSizeList(128)),
              List.of(new Field("item", F32, null))),
          new Field("small_vec", FieldType.nullable(new ArrowType.FixedSizeList(4)),
              List.of(new Field("item", F32, null))),
          new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
              new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
              new Field("b", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null))),
          new Field("li", FieldType.nullable(ArrowType.List.INSTANCE),
              List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null))),
          new Field("flag", FieldType.nullable(ArrowType.Bool.INSTANCE), null),
          new Field("nulls", FieldType.nullable(new ArrowType.Int(32, true)), null),
          new Field("const", FieldType.notNullable(new ArrowType.Int(32, true)), null),
          new Field("longstr", FieldType.nullable(ArrowType.Utf8.INSTANCE), null));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), alloc)) {
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector("id");
        IntVector small = (IntVector) root.getVector("small");
        Float8Vector score = (Float8Vector) root.getVector("score");
        VarCharVector name = (VarCharVector) root.getVector("name");
        VarCharVector low = (VarCharVector) root.getVector("lowcard");
        FixedSizeListVector emb = (FixedSizeListVector) root.getVector("emb");
        FixedSizeListVector sv = (FixedSizeListVector) root.getVector("small_vec");
        StructVector st = (StructVector) root.getVector("st");
        ListVector li = (ListVector) root.getVector("li");
        BitVector flag = (BitVector) root.getVector("flag");
        IntVector nulls = (IntVector) root.getVector("nulls");
        IntVector cons = (IntVector) root.getVector("const");
        VarCharVector longstr = (VarCharVector) root.getVector("longstr");
        Float4Vector embItems = (Float4Vector) emb.getDataVector();
        Float4Vector svItems = (Float4Vector) sv.getDataVector();
        IntVector sa = (IntVector) st.getChild("a");
        VarCharVector sb = (VarCharVector) st.getChild("b");
        IntVector liItems = (IntVector) li.getDataVector();
        int liAt = 0;
        for (int i = 0; i < n; i++) {
          id.setSafe(i, i);
          if (i % 10 == 3) {
            small.setNull(i);
          } else {
            small.setSafe(i, rnd.nextInt(1000));
          }
          score.setSafe(i, rnd.nextDouble());
          name.setSafe(i, ("name-" + i).getBytes(StandardCharsets.UTF_8));
          low.setSafe(i, ("category-" + rnd.nextInt(10)).getBytes(StandardCharsets.UTF_8));
          emb.setNotNull(i);
          for (int k = 0; k < 128; k++) {
            embItems.setSafe(i * 128 + k, rnd.nextFloat());
          }
          if (i % 7 == 1) {
            sv.setNull(i);
          } else {
            sv.setNotNull(i);
          }
          for (int k = 0; k < 4; k++) {
            svItems.setSafe(i * 4 + k, rnd.nextFloat());
          }
          if (i % 5 == 2) {
            st.setNull(i);
            sa.setSafe(i, 0);
            sb.setSafe(i, new byte[0]);
          } else {
            st.setIndexDefined(i);
            if (i % 3 == 0) {
              sa.setNull(i);
            } else {
              sa.setSafe(i, i);
            }
            sb.setSafe(i, ("b" + (i % 100)).getBytes(StandardCharsets.UTF_8));
          }
          if (i % 11 == 4) {
            li.setNull(i);
          } else {
            li.startNewValue(i);
            int len = rnd.nextInt(4);
            for (int k = 0; k < len; k++) {
              liItems.setSafe(liAt + k, rnd.nextInt(100));
            }
            liAt += len;
            li.endValue(i, len);
          }
          if (i % 4 == 0) {
            flag.setNull(i);
          } else {
            flag.setSafe(i, rnd.nextBoolean() ? 1 : 0);
          }
          nulls.setNull(i);
          cons.setSafe(i, 42);
          byte[] big = new byte[300 + rnd.nextInt(200)];
          rnd.nextBytes(big);
          longstr.setSafe(i, big);
        }
        emb.setValueCount(n);
        sv.setValueCount(n);
        li.setValueCount(n);
        st.setValueCount(n);
        root.setRowCount(n);
        Path file = dir.resolve("core.lance");
        Files.deleteIfExists(file);
        try (LanceFileWriter w = LanceFileWriter.open(file.toString(), alloc, null,
            Optional.empty(), Map.of())) {
          w.write(root);
        }
        System.out.println("SIZE " + Files.size(file));
        System.out.println(FileLayouts.read(file).describe());
      }
    }
  }
}
