package dev.lancet.file.read;

/** Searches in ascending start positions (of pages in a column, of chunks in a page). */
final class RowStarts {
  private RowStarts() {}

  /**
   * The index {@code i} in {@code [0, starts.length - 2]} of the last piece whose start is at
   * most {@code row}: the piece holding {@code row} when {@code starts[i]..starts[i + 1]} are
   * the pieces' bounds.
   */
  static int pieceOf(long[] starts, long row) {
    int lo = 0;
    int hi = starts.length - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= row) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return Math.max(lo, 0);
  }
}
