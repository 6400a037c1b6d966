package dev.lancet.file.write;

/** The physical shape of a leaf column's values, which decides how its pages are encoded. */
sealed interface LeafKind {
  /**
   * Fixed-width values of {@code bytes} bytes; {@code integer} when their raw bits are
   * bit-packed when it pays (integers of every logical type, and floats, as lance-core does).
   */
  record Fixed(int bytes, boolean integer) implements LeafKind {}

  /** Booleans, one bit each. */
  record Bool() implements LeafKind {}

  /** Strings or binaries with {@code offsetBytes}-byte (4 or 8) offsets. */
  record Variable(int offsetBytes) implements LeafKind {}

  /** A fixed-size list of {@code dimension} fixed-width items of {@code itemBytes} bytes. */
  record Vector(int dimension, int itemBytes) implements LeafKind {
    int bytes() {
      return dimension * itemBytes;
    }
  }
}
