package dev.lancet.interop.vector;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Random tables with a vector column for the search tests: {@code id} (int64, the row's
 * position at creation), {@code cat} (int32 0-9, some nulls), {@code name} (a short string)
 * and {@code vec} (fixed-size lists of {@code dim} values of the element type, some null).
 * Values are uniform in [-1, 1], or small integers (so distances tie exactly), with an
 * occasional all-zero vector (no cosine distance) and, when asked, a NaN element.
 */
final class VectorTables {
  private VectorTables() {}

  /** The element types the tables are made with. */
  enum Element {
    F16(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
    F32(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
    F64(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
    U8(new ArrowType.Int(8, false));

    final ArrowType arrow;

    Element(ArrowType arrow) {
      this.arrow = arrow;
    }
  }

  /** How a table is made: shape and what happens to it after creation. */
  record Spec(Element element, int dim, int rows, int rowsPerFile, boolean stableRowIds,
      double nullVectors, boolean smallIntegers, boolean nanElements) {}

  static final String[] NAMES = {"apple", "avocado", "banana", "blueberry", "cherry", "apricot",
      "date", "fig"};

  static Schema schema(Element e, int dim) {
    Field item = new Field("item", FieldType.nullable(e.arrow), null);
    return new Schema(List.of(
        new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
        new Field("cat", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("vec", FieldType.nullable(new ArrowType.FixedSizeList(dim)), List.of(item))));
  }

  /** A random value of the spec's distribution. */
  static float value(SplittableRandom rnd, Spec s) {
    if (s.element() == Element.U8) {
      return rnd.nextInt(256);
    }
    return s.smallIntegers() ? rnd.nextInt(4) - 1 : (float) (rnd.nextDouble() * 2 - 1);
  }

  /** Rows {@code [from, from + n)} as an Arrow stream (the bytes, read back by the caller). */
  static byte[] batch(BufferAllocator alloc, SplittableRandom rnd, Spec s, long from, int n) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(s.element(), s.dim()), alloc)) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      IntVector cat = (IntVector) root.getVector("cat");
      VarCharVector name = (VarCharVector) root.getVector("name");
      FixedSizeListVector vec = (FixedSizeListVector) root.getVector("vec");
      root.allocateNew();
      FieldVector data = vec.getDataVector();
      for (int r = 0; r < n; r++) {
        ids.setSafe(r, from + r);
        if (rnd.nextInt(10) == 0) {
          cat.setNull(r);
        } else {
          cat.setSafe(r, rnd.nextInt(10));
        }
        name.setSafe(r, NAMES[rnd.nextInt(NAMES.length)].getBytes());
        boolean isNull = rnd.nextDouble() < s.nullVectors();
        boolean zero = rnd.nextInt(40) == 0;
        boolean nan = s.nanElements() && rnd.nextInt(50) == 0;
        if (isNull) {
          vec.setNull(r);
        } else {
          vec.setNotNull(r);
        }
        for (int j = 0; j < s.dim(); j++) {
          int idx = r * s.dim() + j;
          float v = zero ? 0f : value(rnd, s);
          if (nan && j == 0 && s.element() != Element.U8) {
            v = Float.NaN;
          }
          if (data instanceof Float4Vector f) {
            f.setSafe(idx, v);
          } else if (data instanceof Float8Vector f) {
            f.setSafe(idx, v);
          } else if (data instanceof Float2Vector f) {
            f.setSafe(idx, dev.lancet.table.vector.Half.fromFloat(v));
          } else {
            ((UInt1Vector) data).setSafe(idx, (int) v);
          }
        }
      }
      data.setValueCount(n * s.dim());
      root.setRowCount(n);
      try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
        w.start();
        w.writeBatch();
        w.end();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bos.toByteArray();
  }

  static ArrowReader reader(BufferAllocator alloc, byte[] stream) {
    return new ArrowStreamReader(new ByteArrayInputStream(stream), alloc);
  }

  /**
   * Creates the table at {@code dir} (Lancet's create, lance-core's writer underneath): the
   * spec's rows in files of {@code rowsPerFile}, then, at random, a second append of a few
   * rows and deletions (by Lancet), so fragments differ in size and hold deletion files.
   * Returns what was done, for the coverage check.
   */
  static List<String> create(Path dir, BufferAllocator alloc, SplittableRandom rnd, Spec s,
      boolean deletions, boolean appendMore) throws IOException {
    List<String> done = new ArrayList<>();
    String uri = dir.toString();
    try (ArrowReader r = reader(alloc, batch(alloc, rnd, s, 0, s.rows()));
        LanceTable t = LanceTable.create(uri, r, CreateOptions.builder()
            .maxRowsPerFile(s.rowsPerFile()).stableRowIds(s.stableRowIds()).build())) {
      if (appendMore) {
        int more = 1 + rnd.nextInt(Math.max(1, s.rows() / 4));
        try (ArrowReader a = reader(alloc, batch(alloc, rnd, s, s.rows(), more))) {
          t.append(a);
        }
        done.add("append");
      }
      if (deletions) {
        int m = 2 + rnd.nextInt(6);
        t.delete("id % " + m + " = " + rnd.nextInt(m));
        done.add("deletions");
      }
      if (t.newScan().planTasks().size() > 1) {
        done.add("fragments>1");
      }
    }
    if (s.stableRowIds()) {
      done.add("stable-row-ids");
    }
    if (s.nullVectors() > 0) {
      done.add("null-vectors");
    }
    return done;
  }

  static Map<String, String> none() {
    return Map.of();
  }
}
