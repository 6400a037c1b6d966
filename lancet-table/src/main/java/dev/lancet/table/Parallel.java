package dev.lancet.table;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs one task per item on a few threads and returns the results in item order: per-fragment
 * work of a statement that reads (filter evaluation through the data-file reader) or waits on the
 * store (a deletion file's fsync), so fragments overlap. The first failure is rethrown; the
 * threads are daemons and live only for the call.
 */
final class Parallel {
  private static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  private Parallel() {}

  static <T, R> List<R> map(List<T> items, Function<T, R> task) {
    if (items.size() <= 1) {
      List<R> out = new ArrayList<>(items.size());
      items.forEach(i -> out.add(task.apply(i)));
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, items.size()), r -> {
      Thread t = new Thread(r, "lancet-statement");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<R>> futures = new ArrayList<>(items.size());
      for (T item : items) {
        futures.add(pool.submit(() -> task.apply(item)));
      }
      List<R> out = new ArrayList<>(items.size());
      for (Future<R> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LanceTableException("interrupted while running a statement", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new LanceTableException(e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
