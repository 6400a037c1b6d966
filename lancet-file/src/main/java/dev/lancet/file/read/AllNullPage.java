package dev.lancet.file.read;

/**
 * A page of only nulls: in a 2.1 file, a {@code ConstantLayout} with one nullable item layer, no
 * inline value and no buffers (what lance-core 7.0.0 writes for an all-null page of a
 * primitive column).
 */
record AllNullPage(long numRows) implements PageDecoder {
  @Override
  public void decode(long[] from, long[] to, int count, VectorSink sink, int at) {
    // Vectors are allocated with every validity bit clear: nothing to write.
  }
}
