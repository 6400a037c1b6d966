package dev.lancet.table;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One version of the table's history: when it was committed, the operation that made it
 * (a legacy operation's name, or {@code "CompositeOperation"} for a Transaction V2 commit, with
 * its steps' descriptions), the version the writer read, and the transaction's uuid. A version
 * whose transaction cannot be read has {@code operation} "?" and the reason in {@code error}.
 */
public record HistoryEntry(long version, Optional<Instant> timestamp, String operation,
    List<String> steps, Optional<Long> readVersion, Optional<String> transactionUuid,
    List<String> tags, Optional<String> error) {
  public HistoryEntry {
    steps = List.copyOf(steps);
    tags = List.copyOf(tags);
  }
}
