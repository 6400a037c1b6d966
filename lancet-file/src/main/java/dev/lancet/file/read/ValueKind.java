package dev.lancet.file.read;

import dev.lancet.file.schema.ColumnLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * What one leaf column's values are, as the page codings see them: bools, fixed-width values of
 * {@code fixedBytes} bytes ({@code dimension} of them per row for a fixed-size list), a packed
 * struct's rows (its children's widths), variable-width values, or dictionary indices.
 */
record ValueKind(boolean bool, int fixedBytes, int dimension, boolean variable,
    List<Long> childBits, boolean indices) {
  /** Dictionary indices: unsigned integers of 8, 16, 32 or 64 bits. */
  static final ValueKind INDICES = new ValueKind(false, 0, 1, false, List.of(), true);

  boolean packed() {
    return !childBits.isEmpty();
  }

  /** Bytes per row of a fixed-width kind. */
  int rowBytes() {
    if (packed()) {
      long bits = 0;
      for (long b : childBits) {
        bits += b;
      }
      return (int) (bits / 8);
    }
    return fixedBytes * dimension;
  }

  /** Whether whole values of {@code bits} bits are this kind's (not a list, not packed). */
  boolean takesBits(long bits) {
    if (indices) {
      return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    }
    return dimension == 1 && !packed() && !variable && fixedBytes > 0 && bits == fixedBytes * 8L;
  }

  /** The kind of a leaf field's values, if the Java reader decodes it. */
  static Optional<ValueKind> of(Field f) {
    ArrowType t = f.getType();
    if (t.getTypeID() == ArrowType.ArrowTypeID.FixedSizeList) {
      Field item = f.getChildren().get(0);
      int w = bytes(item.getType());
      int d = ((ArrowType.FixedSizeList) t).getListSize();
      return w > 0 && d > 0 ? Optional.of(new ValueKind(false, w, d, false, List.of(), false))
          : Optional.empty();
    }
    if (t.getTypeID() == ArrowType.ArrowTypeID.Struct) {
      if (!ColumnLayout.isPacked(f.getMetadata()) || f.getChildren().isEmpty()) {
        return Optional.empty();
      }
      List<Long> bits = new ArrayList<>();
      for (Field c : f.getChildren()) {
        int w = bytes(c.getType());
        if (w <= 0 || !c.getChildren().isEmpty()) {
          return Optional.empty();
        }
        bits.add(w * 8L);
      }
      return Optional.of(new ValueKind(false, 0, 1, false, List.copyOf(bits), false));
    }
    return switch (t.getTypeID()) {
      case Bool -> Optional.of(new ValueKind(true, 0, 1, false, List.of(), false));
      case Utf8, Binary, LargeUtf8, LargeBinary ->
          Optional.of(new ValueKind(false, 0, 1, true, List.of(), false));
      default -> {
        int w = bytes(t);
        yield w > 0 ? Optional.of(new ValueKind(false, w, 1, false, List.of(), false))
            : Optional.empty();
      }
    };
  }

  /** Bytes per value of a fixed-width Arrow type the Java reader decodes (0: not one). */
  static int bytes(ArrowType t) {
    return switch (t.getTypeID()) {
      case Int -> ((ArrowType.Int) t).getBitWidth() / 8;
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) t).getPrecision()) {
        case HALF -> 2;
        case SINGLE -> 4;
        case DOUBLE -> 8;
      };
      case Date -> ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
          ? 4 : 8;
      case Time -> ((ArrowType.Time) t).getBitWidth() / 8;
      case Timestamp, Duration -> 8;
      case Decimal -> ((ArrowType.Decimal) t).getBitWidth() / 8;
      case FixedSizeBinary -> ((ArrowType.FixedSizeBinary) t).getByteWidth();
      default -> 0;
    };
  }
}
