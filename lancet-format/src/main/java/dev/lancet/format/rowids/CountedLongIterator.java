package dev.lancet.format.rowids;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/** Iterator over a known number of values; subclasses produce the next one. */
abstract class CountedLongIterator implements PrimitiveIterator.OfLong {
  private long remaining;

  CountedLongIterator(long count) {
    this.remaining = count;
  }

  /** Called exactly once per value, only while values remain. */
  abstract long produce();

  @Override
  public boolean hasNext() {
    return remaining > 0;
  }

  @Override
  public long nextLong() {
    if (remaining <= 0) {
      throw new NoSuchElementException();
    }
    remaining--;
    return produce();
  }
}
