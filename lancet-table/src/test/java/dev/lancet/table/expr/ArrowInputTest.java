package dev.lancet.table.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The columns {@link ArrowInput} reads out of Arrow buffers in bulk equal the vectors' own
 * getters, for every fixed-width type it reads (signed and unsigned, negative values and the
 * extremes included), at lengths that end inside a 64-row word and on one.
 */
class ArrowInputTest {

  /** A vector type: how to make one and how to set row i to a value from a seed. */
  record Kind(String name, java.util.function.Function<BufferAllocator, BaseFixedWidthVector> make,
      BiConsumer<BaseFixedWidthVector, Integer> set) {
    @Override
    public String toString() {
      return name;
    }
  }

  static long seed(int i) {
    // extremes and negatives: every width's sign bit and top bits get exercised
    return switch (i % 5) {
      case 0 -> Long.MIN_VALUE + i;
      case 1 -> Long.MAX_VALUE - i;
      case 2 -> -i * 7919L;
      case 3 -> i * 104729L;
      default -> -1L;
    };
  }

  static Stream<Arguments> kinds() {
    Stream<Kind> k = Stream.of(
        new Kind("int64", a -> new BigIntVector("c", a), (v, i) -> ((BigIntVector) v).set(i, seed(i))),
        new Kind("uint64", a -> new UInt8Vector("c", a), (v, i) -> ((UInt8Vector) v).set(i, seed(i))),
        new Kind("int32", a -> new IntVector("c", a), (v, i) -> ((IntVector) v).set(i, (int) seed(i))),
        new Kind("uint32", a -> new UInt4Vector("c", a), (v, i) -> ((UInt4Vector) v).set(i, (int) seed(i))),
        new Kind("date32", a -> new DateDayVector("c", a), (v, i) -> ((DateDayVector) v).set(i, (int) seed(i))),
        new Kind("int16", a -> new SmallIntVector("c", a), (v, i) -> ((SmallIntVector) v).set(i, (short) seed(i))),
        new Kind("uint16", a -> new UInt2Vector("c", a), (v, i) -> ((UInt2Vector) v).set(i, (char) seed(i))),
        new Kind("int8", a -> new TinyIntVector("c", a), (v, i) -> ((TinyIntVector) v).set(i, (byte) seed(i))),
        new Kind("uint8", a -> new UInt1Vector("c", a), (v, i) -> ((UInt1Vector) v).set(i, (byte) seed(i))),
        new Kind("float64", a -> new Float8Vector("c", a), (v, i) -> ((Float8Vector) v).set(i, seed(i) / 3.0)),
        new Kind("float32", a -> new Float4Vector("c", a), (v, i) -> ((Float4Vector) v).set(i, seed(i) / 3.0f)));
    return k.flatMap(kind -> Stream.of(0, 1, 63, 64, 131).map(n -> Arguments.of(kind, n)));
  }

  @ParameterizedTest(name = "{0}, {1} rows")
  @MethodSource("kinds")
  void bulkReadsEqualTheGetters(Kind kind, int n) {
    try (BufferAllocator alloc = new RootAllocator();
        BaseFixedWidthVector v = kind.make().apply(alloc)) {
      v.allocateNew(Math.max(n, 1));
      for (int i = 0; i < n; i++) {
        if (i % 7 == 3) {
          v.setNull(i);
        } else {
          kind.set().accept(v, i);
        }
      }
      v.setValueCount(n);
      Values got = ArrowInput.read(v, v.getField().getType(), ArrowInput.validity(v, n), n, null);
      assertThat(got.length).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        assertThat(got.isValid(i)).as("row %d valid", i).isEqualTo(!v.isNull(i));
        if (v.isNull(i)) {
          continue;
        }
        if (got instanceof Values.Doubles d) {
          assertThat(d.v[i]).as("row %d", i).isEqualTo(((Number) v.getObject(i)).doubleValue());
        } else {
          assertThat(((Values.Longs) got).v[i]).as("row %d", i).isEqualTo(expected(v, i));
        }
      }
    }
  }

  /** The value as the evaluator's long: unsigned types zero-extended, signed sign-extended. */
  private static long expected(FieldVector v, int i) {
    if (v instanceof UInt8Vector u) {
      return u.get(i);
    }
    if (v instanceof UInt4Vector u) {
      return Integer.toUnsignedLong(u.get(i));
    }
    if (v instanceof UInt2Vector u) {
      return u.get(i);
    }
    if (v instanceof UInt1Vector u) {
      return Byte.toUnsignedLong(u.get(i));
    }
    if (v instanceof DateDayVector d) {
      return d.get(i);
    }
    return ((Number) v.getObject(i)).longValue();
  }

  @Test
  void bulkReadOffsetsOfStringsEqualTheGetters() {
    try (BufferAllocator alloc = new RootAllocator();
        VarCharVector s = new VarCharVector("s", alloc);
        LargeVarCharVector l = new LargeVarCharVector("l", alloc)) {
      int n = 131;
      s.allocateNew();
      l.allocateNew();
      for (int i = 0; i < n; i++) {
        byte[] b = ("v" + "x".repeat(i % 9) + i).getBytes(StandardCharsets.UTF_8);
        if (i % 11 == 5) {
          s.setNull(i);
          l.setNull(i);
        } else {
          s.setSafe(i, b);
          l.setSafe(i, b);
        }
      }
      s.setValueCount(n);
      l.setValueCount(n);
      for (FieldVector v : new FieldVector[] {s, l}) {
        Values.Bytes got = (Values.Bytes) ArrowInput.read(v, v.getField().getType(),
            ArrowInput.validity(v, n), n, null);
        for (int i = 0; i < n; i++) {
          if (v.isNull(i)) {
            assertThat(got.isValid(i)).isFalse();
            continue;
          }
          byte[] want = v instanceof VarCharVector x ? x.get(i) : ((LargeVarCharVector) v).get(i);
          byte[] have = java.util.Arrays.copyOfRange(got.data, got.offsets[i], got.offsets[i + 1]);
          assertThat(have).as("%s row %d", v.getName(), i).isEqualTo(want);
        }
      }
    }
  }
}
