package dev.lancet.table.expr;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Small batches for the tests: columns a int32, b int64, f float64, s utf8, t boolean. */
final class Batches {

  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("a", new ArrowType.Int(32, true)),
              Field.nullable("b", new ArrowType.Int(64, true)),
              Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("s", ArrowType.Utf8.INSTANCE),
              Field.nullable("t", ArrowType.Bool.INSTANCE)));

  /** One row of the batch; a null field is a SQL NULL. */
  record Row(Integer a, Long b, Double f, String s, Boolean t) {}

  private Batches() {}

  static VectorSchemaRoot of(BufferAllocator alloc, List<Row> rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    root.allocateNew();
    IntVector a = (IntVector) root.getVector("a");
    BigIntVector b = (BigIntVector) root.getVector("b");
    Float8Vector f = (Float8Vector) root.getVector("f");
    VarCharVector s = (VarCharVector) root.getVector("s");
    BitVector t = (BitVector) root.getVector("t");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      if (r.a() == null) {
        a.setNull(i);
      } else {
        a.setSafe(i, r.a());
      }
      if (r.b() == null) {
        b.setNull(i);
      } else {
        b.setSafe(i, r.b());
      }
      if (r.f() == null) {
        f.setNull(i);
      } else {
        f.setSafe(i, r.f());
      }
      if (r.s() == null) {
        s.setNull(i);
      } else {
        s.setSafe(i, r.s().getBytes(StandardCharsets.UTF_8));
      }
      if (r.t() == null) {
        t.setNull(i);
      } else {
        t.setSafe(i, r.t() ? 1 : 0);
      }
    }
    root.setRowCount(rows.size());
    return root;
  }
}
