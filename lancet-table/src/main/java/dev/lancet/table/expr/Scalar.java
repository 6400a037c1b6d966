package dev.lancet.table.expr;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One typed constant value. The Java form of {@code value} per type: {@code Long} for every
 * integer type (unsigned 64-bit values as their raw bits), for date64 (ms), timestamps (in the
 * type's unit) and date32 (days); {@code Double} for float32/float64 (a float32 value is exactly
 * representable); {@code Boolean}; {@code String} for utf8/large_utf8; {@code byte[]} for binary;
 * {@code BigDecimal} for decimal128 (at the type's scale). {@code value} is {@code null} for a
 * null of that type ({@link ArrowType.Null} for an untyped NULL).
 */
public record Scalar(ArrowType type, Object value) {

  public static final Scalar NULL = new Scalar(ArrowType.Null.INSTANCE, null);

  public Scalar {
    Objects.requireNonNull(type, "type");
  }

  public boolean isNull() {
    return value == null;
  }

  public long asLong() {
    return (Long) value;
  }

  public double asDouble() {
    return (Double) value;
  }

  public boolean asBoolean() {
    return (Boolean) value;
  }

  public String asString() {
    return (String) value;
  }

  public byte[] asBytes() {
    return (byte[]) value;
  }

  public BigDecimal asDecimal() {
    return (BigDecimal) value;
  }

  public static Scalar ofLong(ArrowType type, long v) {
    return new Scalar(type, v);
  }

  public static Scalar nullOf(ArrowType type) {
    return new Scalar(type, null);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Scalar s) || !type.equals(s.type)) {
      return false;
    }
    if (value instanceof byte[] a && s.value instanceof byte[] b) {
      return Arrays.equals(a, b);
    }
    return Objects.equals(value, s.value);
  }

  @Override
  public int hashCode() {
    return type.hashCode() * 31
        + (value instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(value));
  }

  @Override
  public String toString() {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof byte[] b) {
      StringBuilder sb = new StringBuilder("X'");
      for (byte x : b) {
        sb.append(String.format("%02X", x));
      }
      return sb.append('\'').toString();
    }
    return value + "::" + Types.describe(type);
  }
}
