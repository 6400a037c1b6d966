package dev.lancet.bench;

import dev.lancet.core.store.FaultInjectingStore.Operation;
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
  @FunctionalInterface
  private interface IoCall<T> {
    T run() throws IOException;
  }

  private final ObjectStore delegate;
  private final AtomicLongArray nanos = new AtomicLongArray(Operation.values().length);
  private final AtomicLongArray calls = new AtomicLongArray(Operation.values().length);

  TimingStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  long nanos(Operation op) {
    return nanos.get(op.ordinal());
  }

  long calls(Operation op) {
    return calls.get(op.ordinal());
  }

  void reset() {
    for (int i = 0; i < nanos.length(); i++) {
      nanos.set(i, 0);
      calls.set(i, 0);
    }
  }

  private <T> T time(Operation op, IoCall<T> call) throws IOException {
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
    return time(Operation.GET, () -> delegate.get(path));
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    return time(Operation.GET_RANGE, () -> delegate.getRange(path, offset, length));
  }

  @Override
  public long size(String path) throws IOException {
    return time(Operation.SIZE, () -> delegate.size(path));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return time(Operation.EXISTS, () -> delegate.exists(path));
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    time(Operation.PUT, () -> {
      delegate.put(path, data);
      return null;
    });
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    time(Operation.PUT_IF_ABSENT, () -> {
      delegate.putIfAbsent(path, data);
      return null;
    });
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return time(Operation.LIST, () -> delegate.list(prefix));
  }

  @Override
  public void delete(String path) throws IOException {
    time(Operation.DELETE, () -> {
      delegate.delete(path);
      return null;
    });
  }

  @Override
  public void close() {
    delegate.close();
  }
}
