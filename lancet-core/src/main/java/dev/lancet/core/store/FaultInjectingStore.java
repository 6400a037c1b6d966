package dev.lancet.core.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A test wrapper around any {@link ObjectStore} that counts calls and injects faults, latency and
 * hooks, so tests can drive a commit loop through failures and interleavings deterministically.
 *
 * <ul>
 *   <li><b>Faults</b> ({@link #failNth}, {@link #failAlways}, {@link #inject}) make chosen calls
 *       throw an {@link InjectedFaultException}, either {@link Timing#BEFORE} the operation runs
 *       (nothing happened) or {@link Timing#AFTER} it ran (the write landed, but the caller sees an
 *       error: the "unknown outcome" case). A fault can be limited to paths with a given prefix.
 *       Each rule counts its own matching calls from the moment it is installed.</li>
 *   <li><b>Latency</b> ({@link #latency}) sleeps inside the call before it runs.</li>
 *   <li><b>Hooks</b> ({@link #onCall}) run caller-supplied code just before a matching call, e.g. to
 *       commit a competing transaction between a writer's read and its put-if-absent.</li>
 *   <li><b>Counters</b> ({@link #count}) record every call per operation, including failed ones.</li>
 * </ul>
 *
 * <p>All configuration may change while other threads use the store; every part is thread-safe.
 * Stores compose: a {@code FaultInjectingStore} can wrap another one. Invalid paths are rejected
 * before anything is counted or injected.
 */
public final class FaultInjectingStore implements ObjectStore {

  /** The store operations, one per {@link ObjectStore} method. */
  public enum Operation { GET, GET_RANGE, SIZE, EXISTS, PUT, PUT_IF_ABSENT, LIST, DELETE }

  /** When an injected fault strikes relative to the real operation. */
  public enum Timing {
    /** The call fails without reaching the wrapped store. */
    BEFORE,
    /** The wrapped store performs the call, then the caller gets the fault instead of the outcome. */
    AFTER
  }

  /**
   * A fault rule: calls of {@code operation} on paths starting with {@code pathPrefix} are numbered
   * 1, 2, 3, ... from the moment the rule is installed, and those numbered {@code firstCall} to
   * {@code lastCall} (inclusive) fail at {@code timing}.
   */
  public record Fault(Operation operation, Timing timing, String pathPrefix, long firstCall, long lastCall) {
    public Fault {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(timing, "timing");
      Objects.requireNonNull(pathPrefix, "pathPrefix");
      if (firstCall < 1 || lastCall < firstCall) {
        throw new IllegalArgumentException("Fault call range must satisfy 1 <= firstCall <= lastCall, got " + firstCall + ".." + lastCall);
      }
    }

    /** Fails only the {@code n}th matching call (counted from 1). */
    public static Fault nth(Operation operation, long n, Timing timing) {
      return new Fault(operation, timing, "", n, n);
    }

    /** Fails every matching call. */
    public static Fault always(Operation operation, Timing timing) {
      return new Fault(operation, timing, "", 1, Long.MAX_VALUE);
    }

    /** Fails matching calls {@code first} through {@code last}, counted from 1. */
    public static Fault calls(Operation operation, long first, long last, Timing timing) {
      return new Fault(operation, timing, "", first, last);
    }

    /** The same rule limited to paths (or LIST prefixes) starting with {@code prefix}. */
    public Fault under(String prefix) {
      return new Fault(operation, timing, prefix, firstCall, lastCall);
    }

    boolean covers(long call) {
      return call >= firstCall && call <= lastCall;
    }
  }

  /** Chooses an injected latency per call. */
  @FunctionalInterface
  public interface LatencyModel {
    /** The delay to add before {@code operation} on {@code path}; {@link Duration#ZERO} for none. */
    Duration latency(Operation operation, String path);
  }

  /** Code to run just before a matching call reaches the wrapped store. */
  @FunctionalInterface
  public interface CallHook {
    /**
     * Runs in the calling thread. Throwing fails the call before it runs.
     *
     * @param matchingCall this hook's matching calls so far, counted from 1
     */
    void beforeCall(Operation operation, String path, long matchingCall) throws IOException;
  }

  private record ActiveFault(Fault fault, AtomicLong matches) {}

  private record ActiveHook(Operation operation, String pathPrefix, CallHook hook, AtomicLong matches) {}

  @FunctionalInterface
  private interface IoCall<T> {
    T run() throws IOException;
  }

  private static final LatencyModel NO_LATENCY = (operation, path) -> Duration.ZERO;

  private final ObjectStore delegate;
  private final AtomicLongArray counts = new AtomicLongArray(Operation.values().length);
  private final AtomicLong injected = new AtomicLong();
  private final List<ActiveFault> faults = new CopyOnWriteArrayList<>();
  private final List<ActiveHook> hooks = new CopyOnWriteArrayList<>();
  private final Map<Operation, Duration> fixedLatency = new ConcurrentHashMap<>();
  private volatile LatencyModel latencyModel = NO_LATENCY;

  /** Wraps {@code delegate}; with nothing configured the wrapper only counts calls. */
  public FaultInjectingStore(ObjectStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** Same as the constructor, for fluent set-up: {@code FaultInjectingStore.wrap(store).failNth(...)}. */
  public static FaultInjectingStore wrap(ObjectStore delegate) {
    return new FaultInjectingStore(delegate);
  }

  /** The wrapped store, for checking what really landed. */
  public ObjectStore delegate() {
    return delegate;
  }

  /** Makes the {@code n}th call (from now, counted from 1) of {@code operation} fail at {@code timing}. */
  public FaultInjectingStore failNth(Operation operation, int n, Timing timing) {
    return inject(Fault.nth(operation, n, timing));
  }

  /** Like {@link #failNth(Operation, int, Timing)}, counting only calls on paths starting with {@code pathPrefix}. */
  public FaultInjectingStore failNth(Operation operation, int n, Timing timing, String pathPrefix) {
    return inject(Fault.nth(operation, n, timing).under(pathPrefix));
  }

  /** Makes every call of {@code operation} fail at {@code timing}. */
  public FaultInjectingStore failAlways(Operation operation, Timing timing) {
    return inject(Fault.always(operation, timing));
  }

  /** Like {@link #failAlways(Operation, Timing)}, only for paths starting with {@code pathPrefix}. */
  public FaultInjectingStore failAlways(Operation operation, Timing timing, String pathPrefix) {
    return inject(Fault.always(operation, timing).under(pathPrefix));
  }

  /** Installs a fault rule; rules add up, and a call fails if any rule covers it. */
  public FaultInjectingStore inject(Fault fault) {
    faults.add(new ActiveFault(Objects.requireNonNull(fault, "fault"), new AtomicLong()));
    return this;
  }

  /** Adds a fixed delay to every call of {@code operation} (replacing an earlier fixed delay for it). */
  public FaultInjectingStore latency(Operation operation, Duration delay) {
    Objects.requireNonNull(operation, "operation");
    if (Objects.requireNonNull(delay, "delay").isNegative()) {
      throw new IllegalArgumentException("Negative latency " + delay + " for " + operation);
    }
    fixedLatency.put(operation, delay);
    return this;
  }

  /** Adds a per-call delay chosen by {@code model}, on top of any fixed delay (replacing an earlier model). */
  public FaultInjectingStore latency(LatencyModel model) {
    latencyModel = Objects.requireNonNull(model, "model");
    return this;
  }

  /** Runs {@code hook} just before every call of {@code operation} on paths starting with {@code pathPrefix}. */
  public FaultInjectingStore onCall(Operation operation, String pathPrefix, CallHook hook) {
    hooks.add(new ActiveHook(
        Objects.requireNonNull(operation, "operation"), Objects.requireNonNull(pathPrefix, "pathPrefix"),
        Objects.requireNonNull(hook, "hook"), new AtomicLong()));
    return this;
  }

  /** Removes all faults, latency and hooks; counters are kept. */
  public FaultInjectingStore clearInjections() {
    faults.clear();
    hooks.clear();
    fixedLatency.clear();
    latencyModel = NO_LATENCY;
    return this;
  }

  /** How many calls of {@code operation} were made, including failed ones. */
  public long count(Operation operation) {
    return counts.get(operation.ordinal());
  }

  /** A snapshot of all counters. */
  public Map<Operation, Long> counts() {
    Map<Operation, Long> snapshot = new EnumMap<>(Operation.class);
    for (Operation operation : Operation.values()) {
      snapshot.put(operation, count(operation));
    }
    return Map.copyOf(snapshot);
  }

  /** How many faults have been thrown so far. */
  public long injectedFaultCount() {
    return injected.get();
  }

  /** Sets all call counters to zero. */
  public void resetCounts() {
    for (int i = 0; i < counts.length(); i++) {
      counts.set(i, 0);
    }
  }

  @Override
  public byte[] get(String path) throws IOException {
    return call(Operation.GET, StorePath.validate(path), () -> delegate.get(path));
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    return call(Operation.GET_RANGE, StorePath.validate(path), () -> delegate.getRange(path, offset, length));
  }

  /** A bounded read is one GET of the delegate (which checks the size itself). */
  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    return call(Operation.GET, StorePath.validate(path), () -> delegate.get(path, maxBytes));
  }

  @Override
  public long size(String path) throws IOException {
    return call(Operation.SIZE, StorePath.validate(path), () -> delegate.size(path));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return call(Operation.EXISTS, StorePath.validate(path), () -> delegate.exists(path));
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    call(Operation.PUT, StorePath.validate(path), () -> {
      delegate.put(path, data);
      return null;
    });
  }

  /** Counted and faulted as a {@link Operation#PUT}; the wrapped store may skip durability. */
  @Override
  public void putAdvisory(String path, byte[] data) throws IOException {
    call(Operation.PUT, StorePath.validate(path), () -> {
      delegate.putAdvisory(path, data);
      return null;
    });
  }

  @Override
  public void makeDurable(String path) throws IOException {
    delegate.makeDurable(path); // not a fault point: it changes no object
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    call(Operation.PUT_IF_ABSENT, StorePath.validate(path), () -> {
      delegate.putIfAbsent(path, data);
      return null;
    });
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return call(Operation.LIST, StorePath.validatePrefix(prefix), () -> delegate.list(prefix));
  }

  /** Counted and faulted as a {@link Operation#LIST}. */
  @Override
  public List<ObjectInfo> listFirst(String prefix, int limit) throws IOException {
    return call(Operation.LIST, StorePath.validatePrefix(prefix), () -> delegate.listFirst(prefix, limit));
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
    call(Operation.DELETE, StorePath.validate(path), () -> {
      delegate.delete(path);
      return null;
    });
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return "FaultInjectingStore[" + delegate + "]";
  }

  private <T> T call(Operation operation, String path, IoCall<T> action) throws IOException {
    counts.incrementAndGet(operation.ordinal());

    // Number this call for every matching rule up front, so each rule sees every matching call
    // exactly once even when a fault from another rule ends the call early.
    InjectedFaultException before = null;
    InjectedFaultException after = null;
    for (ActiveFault active : faults) {
      Fault fault = active.fault();
      if (fault.operation() != operation || !path.startsWith(fault.pathPrefix())) {
        continue;
      }
      long call = active.matches().incrementAndGet();
      if (!fault.covers(call)) {
        continue;
      }
      if (fault.timing() == Timing.BEFORE && before == null) {
        before = new InjectedFaultException(operation, path, Timing.BEFORE, call);
      } else if (fault.timing() == Timing.AFTER && after == null) {
        after = new InjectedFaultException(operation, path, Timing.AFTER, call);
      }
    }

    sleep(operation, path);
    for (ActiveHook hook : hooks) {
      if (hook.operation() == operation && path.startsWith(hook.pathPrefix())) {
        hook.hook().beforeCall(operation, path, hook.matches().incrementAndGet());
      }
    }

    if (before != null) {
      injected.incrementAndGet();
      throw before;
    }
    T result;
    try {
      result = action.run();
    } catch (IOException e) {
      if (after != null) {
        // The caller must not learn the real outcome; keep it only for debugging.
        after.addSuppressed(e);
        injected.incrementAndGet();
        throw after;
      }
      throw e;
    }
    if (after != null) {
      injected.incrementAndGet();
      throw after;
    }
    return result;
  }

  private void sleep(Operation operation, String path) throws InterruptedIOException {
    Duration delay = fixedLatency.getOrDefault(operation, Duration.ZERO)
        .plus(Objects.requireNonNull(latencyModel.latency(operation, path), "latency model returned null"));
    if (delay.isZero() || delay.isNegative()) {
      return;
    }
    try {
      Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted during injected latency before " + operation + " " + path);
    }
  }
}
