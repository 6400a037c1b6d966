package dev.lancet.table;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One version of the table's history: when it was committed, the statement that made it in the
 * user's words ({@code "merge insert"}, {@code "compaction"}, {@code "add columns"}, or for
 * another writer's commit the name of its operation's effect), the operation that carried it
 * (a legacy operation's name, or {@code "CompositeOperation"} for a Transaction V2 commit), the
 * steps' descriptions (for every commit Lancet made), the version the writer read (lower than
 * {@code version - 1} when the commit was rebased over concurrent ones), the transaction's uuid
 * and the tags on the version. A version whose transaction cannot be read has {@code statement}
 * and {@code operation} "?" and the reason in {@code error}.
 */
public record HistoryEntry(long version, Optional<Instant> timestamp, String statement,
    String operation,
    List<String> steps, Optional<Long> readVersion, Optional<String> transactionUuid,
    List<String> tags, Optional<String> error) {
  public HistoryEntry {
    steps = List.copyOf(steps);
    tags = List.copyOf(tags);
  }
}
