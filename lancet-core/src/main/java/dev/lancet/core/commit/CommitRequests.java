package dev.lancet.core.commit;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Requests a commit sends beside its own thread when the store overlaps requests
 * ({@link dev.lancet.core.store.ObjectStore#overlapsRequests()}). The store clients are
 * blocking, so each overlapped request takes a pooled daemon thread for its round trip. A
 * commit always waits for every request it started before it goes on or fails, so none is
 * left in flight behind its result.
 */
final class CommitRequests {
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
    Thread t = new Thread(task, "lancet-commit-request-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  private CommitRequests() {}

  /** A request that may throw (an {@link java.io.IOException} or an unchecked exception). */
  @FunctionalInterface
  interface Request {
    void run() throws Exception;
  }

  /** Starts {@code request} on a pooled thread. */
  static Future<Void> start(Request request) {
    Callable<Void> call = () -> {
      request.run();
      return null;
    };
    return POOL.submit(call);
  }

  /** A request that answers something. */
  @FunctionalInterface
  interface Read<T> {
    T run() throws Exception;
  }

  /** Starts {@code read} on a pooled thread. */
  static <T> Future<T> read(Read<T> read) {
    Callable<T> call = read::run;
    return POOL.submit(call);
  }

  /** What a request answered (empty for a request that answers nothing), or what it threw. */
  record Outcome<T>(Optional<T> value, Optional<Throwable> failure) {}

  /** Waits for {@code request} (as {@link #await}) and returns its answer or its failure. */
  static <T> Outcome<T> result(Future<T> request) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return new Outcome<>(Optional.ofNullable(request.get()), Optional.empty());
        } catch (ExecutionException e) {
          return new Outcome<>(Optional.empty(), Optional.of(e.getCause()));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A request that was not needed. */
  static Future<Void> none() {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Waits for {@code request} to finish, without giving up on an interrupt (the thread's
   * interrupt status is kept), and returns what it threw, if anything.
   */
  static Optional<Throwable> await(Future<?> request) {
    return result(request).failure();
  }
}
