package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code Nullable}: the validity of the values under it. {@code NO}: every value valid;
 * {@code SOME}: a bitmap ({@code Flat} of 1 bit) beside the values; {@code ALL}: every value
 * null, nothing stored.
 */
final class NullableNode implements Node {
  enum Kind { NO, SOME, ALL }

  private final Kind kind;
  private final FlatNode validity; // SOME only
  private final Node values; // NO and SOME

  NullableNode(Kind kind, FlatNode validity, Node values) {
    this.kind = kind;
    this.validity = validity;
    this.values = values;
  }

  Kind kind() {
    return kind;
  }

  Node values() {
    return values;
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    int n = (int) (to - from);
    if (kind == Kind.ALL) {
      Vectors.ensure(v, at + n);
      Vectors.setNull(v, at, n);
      return;
    }
    values.decode(from, to, v, at);
    if (kind == Kind.NO) {
      Vectors.setValid(v, at, n);
    } else {
      long first = from >>> 3;
      byte[] bits = validity.bytes(first, ((to + 7) >>> 3) - first);
      Vectors.copyBits(bits, from & 7, v.getValidityBuffer(), at, n);
    }
  }

  @Override
  public String describe() {
    return switch (kind) {
      case NO -> "Nullable.no(" + values.describe() + ")";
      case SOME -> "Nullable.some(" + values.describe() + ")";
      case ALL -> "Nullable.all";
    };
  }
}
