package dev.lancet.demo;

import dev.lancet.core.commit.CommitAttempt;
import java.util.ArrayList;
import java.util.List;

/** What the writers report, collected across threads in the order it happens. */
final class DemoLog {
  private final List<AttemptRecord> attempts = new ArrayList<>();
  private final List<Acknowledged> acknowledged = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();

  synchronized void attempt(String writer, String transaction, int plan, List<String> steps,
      long readVersion, CommitAttempt a) {
    String detail = a.detail();
    if (a.outcome() == CommitAttempt.Outcome.COMMITTED && a.version() > readVersion + 1) {
      detail = "rebased over v" + (readVersion + 1)
          + (a.version() - 1 > readVersion + 1 ? "..v" + (a.version() - 1) : "") + "; " + detail;
    }
    attempts.add(new AttemptRecord(attempts.size() + 1, writer, transaction, plan, steps,
        readVersion, a.attempt(), a.outcome(), a.version(), detail, a.transactionUuid()));
  }

  synchronized void acknowledged(Acknowledged ack) {
    acknowledged.add(ack);
  }

  synchronized void error(String message) {
    errors.add(message);
  }

  synchronized List<AttemptRecord> attempts() {
    return List.copyOf(attempts);
  }

  synchronized List<Acknowledged> acknowledged() {
    return List.copyOf(acknowledged);
  }

  synchronized List<String> errors() {
    return List.copyOf(errors);
  }
}
