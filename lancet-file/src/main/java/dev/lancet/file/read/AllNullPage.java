package dev.lancet.file.read;

/**
 * A page of only nulls: in a 2.1 file, a {@code ConstantLayout} with no inline value and no
 * buffers (what lance-core 7.0.0 writes for an all-null page). Every item is null at the
 * outermost nullable layer; struct layers outside it (which cannot be null, {@code cmp} -1) are
 * valid.
 */
record AllNullPage(long numRows, int[] cmp) implements PageDecoder {
  @Override
  public void decode(long[] from, long[] to, int count, VectorSink sink, int at) {
    if (sink.layers() == 1) {
      return; // vectors are allocated with every validity bit clear
    }
    int level = 0;
    for (int c : cmp) {
      level = Math.max(level, c + 1);
    }
    int out = at;
    for (int k = 0; k < count; k++) {
      for (long r = from[k]; r < to[k]; r++) {
        sink.setLevels(out++, level, cmp);
      }
    }
  }
}
