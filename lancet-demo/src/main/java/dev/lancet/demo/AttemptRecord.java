package dev.lancet.demo;

import dev.lancet.core.commit.CommitAttempt;
import java.util.List;

/**
 * One commit attempt of one writer, in the order attempts happened: which writer and
 * transaction, which plan of it (a re-plan after a conflict is a new transaction), the steps,
 * the version it read, and how the attempt ended.
 */
public record AttemptRecord(
    int sequence,
    String writer,
    String transaction,
    int plan,
    List<String> steps,
    long readVersion,
    int attempt,
    CommitAttempt.Outcome outcome,
    long version,
    String detail,
    String transactionUuid) {

  public AttemptRecord {
    steps = List.copyOf(steps);
  }
}
