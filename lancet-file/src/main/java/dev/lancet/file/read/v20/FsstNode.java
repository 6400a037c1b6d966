package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.read.FsstSymbols;
import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/** {@code Fsst}: a {@code Binary} whose values are FSST-compressed with one symbol table. */
final class FsstNode implements Node {
  private final String where;
  private final BinaryNode binary;
  private final FsstSymbols symbols;

  FsstNode(String where, BinaryNode binary, FsstSymbols symbols) {
    this.where = where;
    this.binary = binary;
    this.symbols = symbols;
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    BinaryNode.Values c = binary.values(from, to);
    int n = c.count();
    long compressed = n == 0 ? 0 : c.ends()[n - 1];
    if (compressed > (Integer.MAX_VALUE - 16 - FsstSymbols.SLACK) / 8) {
      throw new CorruptFileException(where + ": " + compressed + " FSST bytes in one read");
    }
    byte[] out = new byte[symbols.maxDecoded((int) compressed) + FsstSymbols.SLACK];
    long[] ends = new long[n];
    int o = 0;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      long e = c.ends()[i];
      o = symbols.decode(c.data(), (int) prev, (int) (e - prev), out, o, where);
      ends[i] = o;
      prev = e;
    }
    Vectors.putVariable(v, at, n, ends, c.valid(), out, 0);
  }

  @Override
  public String describe() {
    return "Fsst(" + binary.describe() + ")";
  }
}
