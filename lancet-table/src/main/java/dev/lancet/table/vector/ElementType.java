package dev.lancet.table.vector;

import java.util.Optional;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The value type of a vector column's elements that a search reads. */
public enum ElementType {
  FLOAT16,
  FLOAT32,
  FLOAT64,
  UINT8;

  /** The element type of a fixed-size-list child of Arrow type {@code t}, if searchable. */
  public static Optional<ElementType> of(ArrowType t) {
    if (t instanceof ArrowType.FloatingPoint fp) {
      return Optional.of(fp.getPrecision() == FloatingPointPrecision.HALF ? FLOAT16
          : fp.getPrecision() == FloatingPointPrecision.SINGLE ? FLOAT32 : FLOAT64);
    }
    if (t instanceof ArrowType.Int i && i.getBitWidth() == 8 && !i.getIsSigned()) {
      return Optional.of(UINT8);
    }
    return Optional.empty();
  }

  public boolean isFloat() {
    return this != UINT8;
  }
}
