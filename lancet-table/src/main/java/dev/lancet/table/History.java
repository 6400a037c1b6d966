package dev.lancet.table;

import dev.lancet.core.Table;
import dev.lancet.core.transaction.StatementName;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds {@link LanceTable#history()}: every version with its decoded transaction. */
final class History {
  private History() {}

  static List<HistoryEntry> of(Table table, List<TagInfo> tags) {
    List<HistoryEntry> out = new ArrayList<>();
    for (VersionEntry e : table.versions()) {
      List<String> tagNames = tags.stream()
          .filter(t -> t.branch().equals(table.branch()) && t.version() == e.version())
          .map(TagInfo::name).toList();
      try {
        Snapshot s = Snapshot.load(table.store(), e);
        Optional<TransactionProtos.Transaction> txn = s.transaction();
        List<String> steps = txn.map(StatementName::steps).orElse(List.of());
        out.add(new HistoryEntry(e.version(), s.manifest().timestamp(),
            txn.map(t -> StatementName.of(t, e.version())).orElse("none recorded"),
            txn.map(TransactionFile::operationName).orElse("none recorded"), steps,
            txn.map(TransactionProtos.Transaction::getReadVersion),
            txn.map(TransactionProtos.Transaction::getUuid), tagNames, Optional.empty()));
      } catch (RuntimeException | java.io.IOException ex) {
        out.add(new HistoryEntry(e.version(), Optional.empty(), "?", "?", List.of(), Optional.empty(),
            Optional.empty(), tagNames, Optional.of(String.valueOf(ex.getMessage()))));
      }
    }
    return out;
  }
}
