package dev.lancet.table;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one task per item on a few threads and returns the results in item order: per-fragment
 * work of a statement that reads (filter evaluation through the data-file reader) or waits on the
 * store (a deletion file's fsync), so fragments overlap. The first failure is rethrown; the
 * threads are daemons and live only for the call.
 */
final class Parallel {
  private static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  /**
   * The most threads of {@link #mapWaiting}: a thread per item up to this. Concurrent fsyncs on
   * one filesystem share journal commits (ext4: ten fsyncs of new files issued together took
   * 2-5 ms where ten in a row took 40-90 ms on the benchmark VM), so every file is synced at once.
   */
  static final int WAITING_THREADS = 64;

  /** How many items a pipeline reads ahead of the one being written. */
  static final int WINDOW = THREADS;

  private Parallel() {}

  /**
   * Work that computes (filter evaluation, decoding data files in Java): on a pool shared by
   * every statement of the JVM, a thread per core. Threads made per call, or more of them than
   * cores, made the delete benchmark's match phase slower than one thread (10 fragments: 11-13
   * ms per-call with 4 threads, 9-10 ms shared with 4, 7-9 ms shared with 2, 9 ms in the
   * caller). Called from one of the pool's threads, the items run in that thread.
   */
  static <T, R> List<R> map(List<T> items, Function<T, R> task) {
    if (items.size() <= 1 || Thread.currentThread() instanceof ComputeThread) {
      return inCaller(items, task);
    }
    return collect(items, task, Compute.POOL);
  }

  /**
   * Per-fragment reads of a statement: where the table is in a directory, Lancet decodes the
   * data files in Java and the reads compute ({@link #map}); on an object store they wait on
   * requests (lance-core's reader), so a few threads per core overlap the waits.
   */
  static <T, R> List<R> mapReads(TableContext ctx, List<T> items, Function<T, R> task) {
    return ctx.store().overlapsRequests() ? map(items, task, THREADS) : map(items, task);
  }

  /** A thread of the shared compute pool. */
  private static final class ComputeThread extends Thread {
    ComputeThread(Runnable r, int n) {
      super(r, "lancet-compute-" + n);
      setDaemon(true);
    }
  }

  /** The shared compute pool, made on first use. */
  private static final class Compute {
    static final ExecutorService POOL = Executors.newFixedThreadPool(
        Runtime.getRuntime().availableProcessors(), new java.util.concurrent.ThreadFactory() {
          private final java.util.concurrent.atomic.AtomicInteger next =
              new java.util.concurrent.atomic.AtomicInteger();

          @Override
          public Thread newThread(Runnable r) {
            return new ComputeThread(r, next.incrementAndGet());
          }
        });
  }

  /**
   * Work that mostly waits on the store (writing small files that are fsynced): a thread per
   * item, up to {@link #WAITING_THREADS}, so the waits overlap.
   */
  static <T, R> List<R> mapWaiting(List<T> items, Function<T, R> task) {
    return map(items, task, WAITING_THREADS);
  }

  private static <T, R> List<R> map(List<T> items, Function<T, R> task, int threads) {
    if (items.size() <= 1) {
      return inCaller(items, task);
    }
    ExecutorService pool = statementPool(Math.min(threads, items.size()));
    try {
      return collect(items, task, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Reads each item as {@link #mapReads} does and, as soon as its read is done, runs
   * {@code waiting} on it on a thread of its own (work that waits on the store, as
   * {@link #mapWaiting}): an item's waits overlap the reads of the others instead of starting
   * after the last read. Results in item order; the first failure is rethrown.
   */
  static <T, M, R> List<R> mapReadsThenWaiting(TableContext ctx, List<T> items,
      Function<T, M> read, BiFunction<T, M, R> waiting) {
    if (items.size() <= 1 || Thread.currentThread() instanceof ComputeThread) {
      return inCaller(items, item -> waiting.apply(item, read.apply(item)));
    }
    ExecutorService waits = statementPool(Math.min(WAITING_THREADS, items.size()));
    try {
      List<Future<R>> pending = mapReads(ctx, items, item -> {
        M m = read.apply(item);
        return waits.submit(() -> waiting.apply(item, m));
      });
      return await(pending);
    } finally {
      waits.shutdownNow();
    }
  }

  /** A pool of daemon threads for one call. */
  private static ExecutorService statementPool(int threads) {
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "lancet-statement");
      t.setDaemon(true);
      return t;
    });
  }

  private static <T, R> List<R> inCaller(List<T> items, Function<T, R> task) {
    List<R> out = new ArrayList<>(items.size());
    items.forEach(i -> out.add(task.apply(i)));
    return out;
  }

  private static <T, R> List<R> collect(List<T> items, Function<T, R> task,
      ExecutorService pool) {
    List<Future<R>> futures = new ArrayList<>(items.size());
    for (T item : items) {
      futures.add(pool.submit(() -> task.apply(item)));
    }
    return await(futures);
  }

  /** The future's result; its failure rethrown as {@link #map} rethrows a task's. */
  static <R> R await(Future<R> future) {
    return await(List.of(future)).get(0);
  }

  /** The futures' results in order; on the first failure the rest are cancelled. */
  private static <R> List<R> await(List<Future<R>> futures) {
    try {
      List<R> out = new ArrayList<>(futures.size());
      for (Future<R> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw new LanceTableException("interrupted while running a statement", e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw rethrow(e);
    }
  }

  /**
   * Runs {@code task} on up to {@code window} items ahead of the one {@code sink} takes, and hands
   * the results to {@code sink} on the calling thread in item order: reads overlap one another and
   * the writes, while at most {@code window} results are held. On a failure the results not yet
   * handed over are closed and the first failure is rethrown.
   */
  static <T, R extends AutoCloseable> void pipeline(List<T> items, int window,
      Function<T, R> task, Consumer<R> sink) {
    if (items.isEmpty()) {
      return;
    }
    ExecutorService pool = statementPool(Math.min(THREADS, window));
    Deque<Future<R>> ahead = new ArrayDeque<>();
    int next = 0;
    try {
      while (next < items.size() || !ahead.isEmpty()) {
        while (next < items.size() && ahead.size() < window) {
          T item = items.get(next++);
          ahead.add(pool.submit(() -> task.apply(item)));
        }
        try (R r = ahead.poll().get()) {
          sink.accept(r);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LanceTableException("interrupted while running a statement", e);
    } catch (ExecutionException e) {
      throw rethrow(e);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new LanceTableException(e.getMessage(), e);
    } finally {
      pool.shutdown(); // queued tasks run to their end: at most window of them
      for (Future<R> f : ahead) {
        try {
          f.get().close();
        } catch (Exception ignored) {
          // a result nobody takes, or the task that failed
        }
      }
    }
  }

  private static RuntimeException rethrow(ExecutionException e) {
    if (e.getCause() instanceof RuntimeException r) {
      return r;
    }
    if (e.getCause() instanceof Error err) {
      throw err;
    }
    return new LanceTableException(e.getCause().getMessage(), e.getCause());
  }
}
