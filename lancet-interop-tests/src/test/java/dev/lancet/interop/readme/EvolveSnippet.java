package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** README snippet "evolve": add, rename, cast and drop columns. */
final class EvolveSnippet {
  private EvolveSnippet() {}

  static void run(String uri) {
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      table.addColumns().nulls(Field.nullable("note", ArrowType.Utf8.INSTANCE)).commit();
      Schema doubled = new Schema(List.of(Field.nullable("id2", new ArrowType.Int(64, true))));
      table.addColumns().computed(doubled, List.of("id"), (in, allocator) -> {
        VectorSchemaRoot out = VectorSchemaRoot.create(doubled, allocator);
        BigIntVector id = (BigIntVector) in.getVector("id");
        BigIntVector id2 = (BigIntVector) out.getVector("id2");
        id2.allocateNew(in.getRowCount());
        for (int i = 0; i < in.getRowCount(); i++) {
          id2.set(i, id.get(i) * 2);
        }
        out.setRowCount(in.getRowCount());
        return out;
      }).commit();
      table.alterColumns()
          .rename("name", "label")
          .cast("score", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))
          .commit();
      table.dropColumns("note");
    }
    // README:end
  }
}
