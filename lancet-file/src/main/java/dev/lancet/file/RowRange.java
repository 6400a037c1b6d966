package dev.lancet.file;

/** Rows {@code [start, end)} of a data file, by physical offset. */
public record RowRange(long start, long end) implements java.io.Serializable {
  public RowRange {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("invalid row range [" + start + ", " + end + ")");
    }
  }

  public long length() {
    return end - start;
  }
}
