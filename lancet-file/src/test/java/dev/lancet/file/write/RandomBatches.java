package dev.lancet.file.write;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.Text;

/** Random Arrow schemas and data of the shapes the Java writer writes, for the tests. */
final class RandomBatches {
  private RandomBatches() {}

  static final List<ArrowType> LEAVES = List.of(
      new ArrowType.Int(8, true), new ArrowType.Int(16, true), new ArrowType.Int(32, true),
      new ArrowType.Int(64, true), new ArrowType.Int(8, false), new ArrowType.Int(32, false),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), ArrowType.Bool.INSTANCE,
      new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), ArrowType.Utf8.INSTANCE,
      ArrowType.Binary.INSTANCE, ArrowType.LargeUtf8.INSTANCE);

  /** A random field named {@code name}, structs up to {@code depth} more levels deep. */
  static Field field(String name, Random rnd, int depth) {
    boolean nullable = rnd.nextInt(3) != 0;
    int pick = rnd.nextInt(10);
    if (pick == 0 && depth > 0) {
      int n = 1 + rnd.nextInt(3);
      List<Field> kids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        kids.add(field(name + "_" + i, rnd, depth - 1));
      }
      return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), kids);
    }
    if (pick == 2 && depth > 0) {
      ArrowType t = rnd.nextInt(4) == 0 ? ArrowType.LargeList.INSTANCE : ArrowType.List.INSTANCE;
      return new Field(name, new FieldType(nullable, t, null),
          List.of(field("item", rnd, depth - 1)));
    }
    if (pick == 1) {
      int[] dims = {1, 2, 4, 16, 128};
      int dim = dims[rnd.nextInt(dims.length)];
      ArrowType item = rnd.nextBoolean()
          ? new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)
          : new ArrowType.Int(16, true);
      boolean nullableItems = rnd.nextInt(3) == 0;
      return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(dim), null),
          List.of(new Field("item", new FieldType(nullableItems, item, null), null)));
    }
    ArrowType t = LEAVES.get(rnd.nextInt(LEAVES.size()));
    return new Field(name, new FieldType(nullable, t, null), null);
  }

  /** How values are drawn. */
  enum Shape { SEQUENTIAL, SMALL, RANDOM, CONSTANT, LOW_CARDINALITY, LONG }

  /**
   * Fills {@code v} with {@code rows} values; a nullable vector gets nulls at rate
   * {@code nullRate} (1: all null).
   */
  static void fill(FieldVector v, int rows, Random rnd) {
    Shape shape = Shape.values()[rnd.nextInt(Shape.values().length)];
    double[] rates = {0, 0, 0.1, 0.5, 1.0};
    double nullRate = v.getField().isNullable() ? rates[rnd.nextInt(rates.length)] : 0;
    fill(v, rows, rnd, shape, nullRate);
  }

  static void fill(FieldVector v, int rows, Random rnd, Shape shape, double nullRate) {
    v.setInitialCapacity(rows);
    v.allocateNew();
    if (v instanceof StructVector s) {
      for (FieldVector c : s.getChildrenFromFields()) {
        fill(c, rows, rnd);
      }
      for (int i = 0; i < rows; i++) {
        if (rnd.nextDouble() < nullRate) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
      s.setValueCount(rows);
      return;
    }
    if (v instanceof org.apache.arrow.vector.complex.ListVector
        || v instanceof org.apache.arrow.vector.complex.LargeListVector) {
      boolean large = v instanceof org.apache.arrow.vector.complex.LargeListVector;
      FieldVector data = large
          ? ((org.apache.arrow.vector.complex.LargeListVector) v).getDataVector()
          : ((org.apache.arrow.vector.complex.ListVector) v).getDataVector();
      int[] lens = new int[rows];
      boolean[] nulls = new boolean[rows];
      int total = 0;
      int maxLen = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(6);
      for (int i = 0; i < rows; i++) {
        nulls[i] = rnd.nextDouble() < nullRate;
        lens[i] = nulls[i] || maxLen == 0 ? 0 : rnd.nextInt(maxLen + 1);
        total += lens[i];
      }
      fill(data, total, rnd);
      int at = 0;
      for (int i = 0; i < rows; i++) {
        if (large) {
          var ll = (org.apache.arrow.vector.complex.LargeListVector) v;
          if (nulls[i]) {
            ll.setNull(i);
          } else {
            ll.startNewValue(i);
            ll.endValue(i, lens[i]);
          }
        } else {
          var ll = (org.apache.arrow.vector.complex.ListVector) v;
          if (nulls[i]) {
            ll.setNull(i);
          } else {
            ll.startNewValue(i);
            ll.endValue(i, lens[i]);
          }
        }
        at += lens[i];
      }
      v.setValueCount(rows);
      return;
    }
    if (v instanceof FixedSizeListVector f) {
      int dim = f.getListSize();
      FieldVector items = f.getDataVector();
      fill(items, rows * dim, rnd, rnd.nextBoolean() ? Shape.RANDOM : Shape.SMALL,
          items.getField().isNullable() ? 0.2 : 0);
      for (int i = 0; i < rows; i++) {
        if (rnd.nextDouble() < nullRate) {
          f.setNull(i);
        } else {
          f.setNotNull(i);
        }
      }
      f.setValueCount(rows);
      return;
    }
    long constant = rnd.nextInt(1000);
    for (int i = 0; i < rows; i++) {
      if (rnd.nextDouble() < nullRate) {
        continue; // allocateNew leaves every slot null
      }
      long x = switch (shape) {
        case SEQUENTIAL -> i;
        case SMALL -> rnd.nextInt(100);
        case CONSTANT -> constant;
        case LOW_CARDINALITY -> rnd.nextInt(7) * 1000L;
        default -> rnd.nextLong();
      };
      set(v, i, x, shape, rnd);
    }
    v.setValueCount(rows);
  }

  private static void set(FieldVector v, int i, long x, Shape shape, Random rnd) {
    if (v instanceof TinyIntVector t) {
      t.setSafe(i, (byte) x);
    } else if (v instanceof SmallIntVector t) {
      t.setSafe(i, (short) x);
    } else if (v instanceof IntVector t) {
      t.setSafe(i, (int) x);
    } else if (v instanceof BigIntVector t) {
      t.setSafe(i, x);
    } else if (v instanceof UInt1Vector t) {
      t.setSafe(i, (byte) x);
    } else if (v instanceof UInt4Vector t) {
      t.setSafe(i, (int) x);
    } else if (v instanceof Float4Vector t) {
      t.setSafe(i, shape == Shape.RANDOM ? rnd.nextFloat() : (float) x);
    } else if (v instanceof Float8Vector t) {
      t.setSafe(i, shape == Shape.RANDOM ? rnd.nextDouble() : (double) x);
    } else if (v instanceof BitVector t) {
      t.setSafe(i, shape == Shape.CONSTANT ? 1 : (int) (x & 1));
    } else if (v instanceof DateDayVector t) {
      t.setSafe(i, (int) x);
    } else if (v instanceof TimeStampMicroVector t) {
      t.setSafe(i, x);
    } else if (v instanceof BaseVariableWidthVector t) {
      t.setSafe(i, bytes(x, shape, rnd));
    } else if (v instanceof LargeVarCharVector t) {
      t.setSafe(i, bytes(x, shape, rnd));
    } else {
      throw new IllegalArgumentException("no generator for " + v.getClass());
    }
  }

  private static byte[] bytes(long x, Shape shape, Random rnd) {
    return switch (shape) {
      case LONG -> {
        byte[] b = new byte[200 + rnd.nextInt(400)];
        for (int k = 0; k < b.length; k++) {
          b[k] = (byte) ('a' + rnd.nextInt(26));
        }
        yield b;
      }
      case SMALL -> ("s" + x).substring(0, (int) (x % 3)).getBytes(StandardCharsets.UTF_8);
      default -> ("name-" + x).getBytes(StandardCharsets.UTF_8);
    };
  }

  /** Row {@code i} of {@code v} as a comparable Java value (null for a null row). */
  static Object value(ValueVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof StructVector s) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (FieldVector c : s.getChildrenFromFields()) {
        m.put(c.getName(), value(c, i));
      }
      return m;
    }
    if (v instanceof org.apache.arrow.vector.complex.ListVector lv) {
      List<Object> l = new ArrayList<>();
      for (int k = lv.getElementStartIndex(i); k < lv.getElementEndIndex(i); k++) {
        l.add(value(lv.getDataVector(), k));
      }
      return l;
    }
    if (v instanceof org.apache.arrow.vector.complex.LargeListVector lv) {
      List<Object> l = new ArrayList<>();
      for (long k = lv.getElementStartIndex(i); k < lv.getElementEndIndex(i); k++) {
        l.add(value(lv.getDataVector(), (int) k));
      }
      return l;
    }
    if (v instanceof FixedSizeListVector f) {
      List<Object> l = new ArrayList<>();
      for (int k = 0; k < f.getListSize(); k++) {
        l.add(value(f.getDataVector(), i * f.getListSize() + k));
      }
      return l;
    }
    Object o = v.getObject(i);
    if (o instanceof byte[] b) {
      return new String(b, StandardCharsets.ISO_8859_1);
    }
    if (o instanceof Text t) {
      return t.toString();
    }
    return o;
  }
}
