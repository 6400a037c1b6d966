package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import dev.lancet.format.pb.Encodings20Protos;

/**
 * The buffers a page's encoding may name, each already checked to lie in the file's data
 * region: the page's own, its column's, and the file's global buffers.
 */
record PageBuffers(long[] pagePos, long[] pageLen, long[] columnPos, long[] columnLen,
    long[] filePos, long[] fileLen) {

  /** Position and length of the buffer {@code b} names. */
  long[] resolve(Encodings20Protos.Buffer b, String where) throws CorruptFileException {
    long[] pos;
    long[] len;
    switch (b.getBufferType()) {
      case page -> { pos = pagePos; len = pageLen; }
      case column -> { pos = columnPos; len = columnLen; }
      case file -> { pos = filePos; len = fileLen; }
      default -> throw new CorruptFileException(where + ": buffer type "
          + b.getBufferTypeValue() + " is none of page, column, file");
    }
    int i = b.getBufferIndex();
    if (i < 0 || i >= pos.length) {
      throw new CorruptFileException(where + ": the encoding names " + b.getBufferType()
          + " buffer " + Integer.toUnsignedString(i) + ", but there are " + pos.length);
    }
    return new long[] {pos[i], len[i]};
  }
}
