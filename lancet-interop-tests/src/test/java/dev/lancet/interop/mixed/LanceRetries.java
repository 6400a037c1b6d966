package dev.lancet.interop.mixed;

import java.util.Optional;

/**
 * How the lance-core workers run an operation: until it succeeds, at most {@link #MAX_ATTEMPTS}
 * times, reporting every error lance-core raises (its class and message) as an {@code ERROR}
 * line, as an ingestion job that re-opens the table and tries again would.
 */
final class LanceRetries {
  static final int MAX_ATTEMPTS = 25;

  private LanceRetries() {}

  interface Attempt<T> {
    T run() throws Exception;
  }

  static <T> Optional<T> run(String writer, String op, int round, Attempt<T> attempt)
      throws InterruptedException {
    for (int i = 1; i <= MAX_ATTEMPTS; i++) {
      try {
        return Optional.of(attempt.run());
      } catch (Exception e) {
        String message = String.valueOf(e.getMessage());
        WorkerLog.print("ERROR", message.substring(0, Math.min(message.length(), 400)),
            "writer", writer, "op", op, "round", String.valueOf(round), "class", e.getClass().getName());
        // Back off a little before re-reading the table, as a real job would; not a synchronisation.
        Thread.sleep(3L * i);
      }
    }
    WorkerLog.print("GAVEUP", "", "writer", writer, "op", op, "round", String.valueOf(round));
    return Optional.empty();
  }
}
