package dev.lancet.bench;

import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A diagnostic {@link ObjectStore} wrapper that adds up the wall time and number of calls per
 * operation, so that a commit's time can be split into its store calls ({@link CommitBreakdown}).
 */
final class TimingStore implements ObjectStore {
  /** The store calls, with the advisory put (the version hint) apart from the durable put. */
  enum Call { GET, GET_RANGE, SIZE, EXISTS, PUT, PUT_ADVISORY, PUT_IF_ABSENT, LIST, DELETE }

  @FunctionalInterface
  private interface IoCall<T> {
    T run() throws IOException;
  }

  private final ObjectStore delegate;
  private final AtomicLongArray nanos = new AtomicLongArray(Call.values().length);
  private final AtomicLongArray calls = new AtomicLongArray(Call.values().length);

  TimingStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  long nanos(Call op) {
    return nanos.get(op.ordinal());
  }

  long calls(Call op) {
    return calls.get(op.ordinal());
  }

  void reset() {
    for (int i = 0; i < nanos.length(); i++) {
      nanos.set(i, 0);
      calls.set(i, 0);
    }
  }

  private <T> T time(Call op, IoCall<T> call) throws IOException {
    long start = System.nanoTime();
    try {
      return call.run();
    } finally {
      nanos.addAndGet(op.ordinal(), System.nanoTime() - start);
      calls.incrementAndGet(op.ordinal());
    }
  }

  @Override
  public byte[] get(String path) throws IOException {
    return time(Call.GET, () -> delegate.get(path));
  }

  /** A bounded read is one GET of the delegate (which checks the size itself). */
  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    return time(Call.GET, () -> delegate.get(path, maxBytes));
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    return time(Call.GET_RANGE, () -> delegate.getRange(path, offset, length));
  }

  @Override
  public long size(String path) throws IOException {
    return time(Call.SIZE, () -> delegate.size(path));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return time(Call.EXISTS, () -> delegate.exists(path));
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    time(Call.PUT, () -> {
      delegate.put(path, data);
      return null;
    });
  }

  @Override
  public void putAdvisory(String path, byte[] data) throws IOException {
    time(Call.PUT_ADVISORY, () -> {
      delegate.putAdvisory(path, data);
      return null;
    });
  }

  @Override
  public void makeDurable(String path) throws IOException {
    delegate.makeDurable(path); // untimed: the statements harness measures it end to end
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    time(Call.PUT_IF_ABSENT, () -> {
      delegate.putIfAbsent(path, data);
      return null;
    });
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return time(Call.LIST, () -> delegate.list(prefix));
  }

  /** Timed as a {@link Call#LIST}. */
  @Override
  public List<ObjectInfo> listFirst(String prefix, int limit) throws IOException {
    return time(Call.LIST, () -> delegate.listFirst(prefix, limit));
  }

  @Override
  public boolean listsInPages() {
    return delegate.listsInPages();
  }

  @Override
  public boolean overlapsRequests() {
    return delegate.overlapsRequests();
  }

  @Override
  public void delete(String path) throws IOException {
    time(Call.DELETE, () -> {
      delegate.delete(path);
      return null;
    });
  }

  @Override
  public void close() {
    delegate.close();
  }
}
