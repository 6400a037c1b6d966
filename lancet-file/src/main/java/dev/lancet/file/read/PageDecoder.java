package dev.lancet.file.read;

import java.io.IOException;

/** Decodes rows of one page of one column into a batch's vector. */
sealed interface PageDecoder permits MiniBlockPage, FullZipPage, AllNullPage {
  /** Rows in the page. */
  long numRows();

  /**
   * Decodes the page rows of pieces {@code [from[k], to[k])}, {@code k < count}, ascending and
   * apart, into {@code sink} one after another from batch row {@code at}.
   */
  void decode(long[] from, long[] to, int count, VectorSink sink, int at) throws IOException;
}
