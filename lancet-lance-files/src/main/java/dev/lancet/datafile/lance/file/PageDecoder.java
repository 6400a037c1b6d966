package dev.lancet.datafile.lance.file;

import java.io.IOException;

/** Decodes rows of one page of one column into a batch's vector. */
sealed interface PageDecoder permits MiniBlockPage, AllNullPage {
  /** Rows in the page. */
  long numRows();

  /** Decodes page rows {@code [from, to)} into {@code sink} from batch row {@code at}. */
  void decode(long from, long to, VectorSink sink, int at) throws IOException;
}
