package dev.lancet.file.read.v20;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Random schemas over the Arrow types Lance stores (nested to depth 3, nullable and not,
 * vectors of several widths and dimensions) and random data for them, drawn so that lance-core
 * 7.0.0 writes every 2.0 encoding: few distinct strings (dictionary), compression metadata
 * (zstd, lz4, fsst), nulls, all-null and long values.
 */
final class RandomData20 {
  static final List<ArrowType> FIXED = List.of(
      new ArrowType.Int(8, true), new ArrowType.Int(8, false), new ArrowType.Int(16, true),
      new ArrowType.Int(16, false), new ArrowType.Int(32, true), new ArrowType.Int(32, false),
      new ArrowType.Int(64, true), new ArrowType.Int(64, false),
      new ArrowType.FloatingPoint(FloatingPointPrecision.HALF),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), ArrowType.Bool.INSTANCE,
      new ArrowType.Date(DateUnit.DAY), new ArrowType.Date(DateUnit.MILLISECOND),
      new ArrowType.Time(TimeUnit.SECOND, 32), new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Time(TimeUnit.MICROSECOND, 64), new ArrowType.Time(TimeUnit.NANOSECOND, 64),
      new ArrowType.Timestamp(TimeUnit.SECOND, null),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
      new ArrowType.Timestamp(TimeUnit.NANOSECOND, "America/New_York"),
      new ArrowType.Duration(TimeUnit.MILLISECOND), new ArrowType.Decimal(20, 3, 128),
      new ArrowType.Decimal(40, 5, 256), new ArrowType.FixedSizeBinary(3),
      new ArrowType.FixedSizeBinary(16));
  static final List<ArrowType> VARIABLE = List.of(ArrowType.Utf8.INSTANCE,
      ArrowType.LargeUtf8.INSTANCE, ArrowType.Binary.INSTANCE, ArrowType.LargeBinary.INSTANCE);
  static final List<String> COMPRESSIONS = List.of("zstd", "lz4", "fsst", "none");
  static final int[] DIMENSIONS = {1, 2, 3, 8, 16, 128};

  private final Random rnd;
  private int names;

  RandomData20(Random rnd) {
    this.rnd = rnd;
  }

  /** A schema of 1 to {@code maxFields} top-level fields. */
  Schema schema(int maxFields) {
    List<Field> fields = new ArrayList<>();
    int n = 1 + rnd.nextInt(maxFields);
    for (int i = 0; i < n; i++) {
      fields.add(field(0));
    }
    return new Schema(fields);
  }

  Field field(int depth) {
    boolean nullable = rnd.nextInt(4) != 0;
    String name = "f" + names++;
    int kind = depth >= 3 ? rnd.nextInt(3) : rnd.nextInt(6);
    return switch (kind) {
      case 0 -> new Field(name, new FieldType(nullable, pick(FIXED), null), null);
      case 1 -> {
        ArrowType t = pick(VARIABLE);
        Map<String, String> md = null;
        int c = rnd.nextInt(6);
        // lance-core 7.0.0's 2.0 writer panics on fsst over 64-bit offsets.
        // ... and on an fsst page that happens to be all null, which nesting makes likely.
        boolean small = depth == 0
            && (t instanceof ArrowType.Utf8 || t instanceof ArrowType.Binary);
        if (c < COMPRESSIONS.size() && (small || !COMPRESSIONS.get(c).equals("fsst"))) {
          md = Map.of("lance-encoding:compression", COMPRESSIONS.get(c));
        }
        yield new Field(name, new FieldType(nullable, t, null, md), null);
      }
      case 2 -> {
        int dim = DIMENSIONS[rnd.nextInt(DIMENSIONS.length)];
        ArrowType item = rnd.nextInt(3) == 0 ? pick(FIXED)
            : new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        Field child = new Field("item", new FieldType(rnd.nextBoolean(), item, null), null);
        yield new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(dim), null),
            List.of(child));
      }
      case 3 -> {
        List<Field> kids = new ArrayList<>();
        for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
          kids.add(field(depth + 1));
        }
        yield new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), kids);
      }
      default -> {
        ArrowType t = rnd.nextBoolean() ? ArrowType.List.INSTANCE : ArrowType.LargeList.INSTANCE;
        Field item = field(depth + 1);
        item = new Field("item", item.getFieldType(), item.getChildren());
        yield new Field(name, new FieldType(nullable, t, null), List.of(item));
      }
    };
  }

  private <T> T pick(List<T> xs) {
    return xs.get(rnd.nextInt(xs.size()));
  }

  /** A root of {@code rows} random rows of {@code schema}; the caller closes it. */
  VectorSchemaRoot root(BufferAllocator alloc, Schema schema, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc);
    for (FieldVector v : root.getFieldVectors()) {
      fill(v, rows);
    }
    root.setRowCount(rows);
    return root;
  }

  /** Fills the empty vector {@code v} with {@code n} random values. */
  void fill(FieldVector v, int n) {
    boolean nullable = v.getField().isNullable();
    // lance-core 7.0.0's 2.0 writer panics on an all-null fsst column.
    boolean fsst = v.getField().getMetadata() != null
        && "fsst".equals(v.getField().getMetadata().get("lance-encoding:compression"));
    double nullRate = !nullable ? 0 : switch (rnd.nextInt(5)) {
      case 0 -> 0;
      case 1 -> fsst ? 0.9 : 1;
      default -> rnd.nextDouble() * 0.5;
    };
    v.setInitialCapacity(Math.max(n, 1));
    v.allocateNew();
    if (v instanceof StructVector s) {
      for (FieldVector c : s.getChildrenFromFields()) {
        fill(c, n);
      }
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() < nullRate) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
    } else if (v instanceof FixedSizeListVector f) {
      fill(f.getDataVector(), n * f.getListSize());
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() < nullRate) {
          f.setNull(i);
        } else {
          f.setNotNull(i);
        }
      }
    } else if (v instanceof ListVector || v instanceof LargeListVector) {
      int[] lens = new int[n];
      boolean[] nul = new boolean[n];
      int total = 0;
      int maxLen = rnd.nextInt(4) == 0 ? 30 : 5;
      for (int i = 0; i < n; i++) {
        nul[i] = rnd.nextDouble() < nullRate;
        lens[i] = nul[i] ? 0 : rnd.nextInt(maxLen);
        total += lens[i];
      }
      FieldVector child = v instanceof ListVector l ? l.getDataVector()
          : ((LargeListVector) v).getDataVector();
      fill(child, total);
      for (int i = 0; i < n; i++) {
        if (nul[i]) {
          if (v instanceof ListVector l) {
            l.setNull(i);
          } else {
            ((LargeListVector) v).setNull(i);
          }
        } else if (v instanceof ListVector l) {
          l.startNewValue(i);
          l.endValue(i, lens[i]);
        } else {
          ((LargeListVector) v).startNewValue(i);
          ((LargeListVector) v).endValue(i, lens[i]);
        }
      }
    } else if (v instanceof BaseVariableWidthVector || v instanceof BaseLargeVariableWidthVector) {
      int distinct = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(8) : Integer.MAX_VALUE;
      int maxLen = rnd.nextInt(10) == 0 ? 5000 : 30;
      boolean text = rnd.nextBoolean();
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() < nullRate) {
          if (v instanceof BaseVariableWidthVector b) {
            b.setNull(i);
          } else {
            ((BaseLargeVariableWidthVector) v).setNull(i);
          }
          continue;
        }
        byte[] value;
        if (distinct != Integer.MAX_VALUE) {
          value = ("value-" + rnd.nextInt(distinct)).getBytes(StandardCharsets.UTF_8);
        } else {
          int len = rnd.nextInt(maxLen + 1);
          StringBuilder sb = new StringBuilder();
          while (sb.length() < len) {
            sb.append(text ? "the quick brown fox " : Integer.toHexString(rnd.nextInt()));
          }
          value = sb.substring(0, len).getBytes(StandardCharsets.UTF_8);
        }
        if (v instanceof BaseVariableWidthVector b) {
          b.setSafe(i, value);
        } else {
          ((BaseLargeVariableWidthVector) v).setSafe(i, value);
        }
      }
    } else if (v instanceof BitVector b) {
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() >= nullRate) {
          b.set(i, rnd.nextInt(2));
        }
      }
    } else {
      BaseFixedWidthVector f = (BaseFixedWidthVector) v;
      int w = f.getTypeWidth();
      byte[] x = new byte[w];
      int narrow = rnd.nextInt(3);
      for (int i = 0; i < n; i++) {
        if (rnd.nextDouble() < nullRate) {
          continue;
        }
        rnd.nextBytes(x);
        if (narrow == 0) {
          for (int k = 1; k < w; k++) {
            x[k] = 0;
          }
        }
        f.getDataBuffer().setBytes((long) i * w, x);
        BitVectorHelper.setBit(f.getValidityBuffer(), i);
      }
    }
    v.setValueCount(n);
  }
}
