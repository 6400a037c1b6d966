package dev.lancet.demo;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The model of the final table, built only from the starting rows and the intents of the
 * acknowledged commits, applied in commit-version order (never from what the table says).
 */
final class ExpectedTable {
  /** Expected live rows by id. */
  final TreeMap<Long, LanceReads.Row> rows = new TreeMap<>();

  ExpectedTable(Map<Long, List<Long>> initial, List<Intent> acknowledgedInOrder) {
    Map<Long, Long> fragmentOf = new TreeMap<>();
    initial.forEach((fragment, ids) -> ids.forEach(id -> {
      fragmentOf.put(id, fragment);
      rows.put(id, new LanceReads.Row(id, Optional.of(DemoRows.value(id)), OptionalInt.empty()));
    }));
    for (Intent intent : acknowledgedInOrder) {
      if (intent instanceof Intent.Append a) {
        for (long id : a.ids()) {
          rows.putIfAbsent(id, new LanceReads.Row(id, Optional.of(DemoRows.value(id)), OptionalInt.empty()));
        }
      } else if (intent instanceof Intent.Delete d) {
        d.ids().forEach(rows::remove);
      } else if (intent instanceof Intent.RewriteValues r) {
        replace(fragmentOf, Set.of(r.fragment()), row -> new LanceReads.Row(row.id(),
            Optional.of(DemoRows.rewrittenValue(row.id())), row.score()));
      } else if (intent instanceof Intent.AddScoreColumn c) {
        replace(fragmentOf, c.fragments(), row -> new LanceReads.Row(row.id(), row.value(),
            OptionalInt.of(DemoRows.score(row.id()))));
      } else {
        throw new IllegalStateException("unknown intent " + intent);
      }
    }
  }

  private void replace(Map<Long, Long> fragmentOf, Set<Long> fragments,
      UnaryOperator<LanceReads.Row> change) {
    for (var e : rows.entrySet()) {
      Long fragment = fragmentOf.get(e.getKey());
      if (fragment != null && fragments.contains(fragment)) {
        e.setValue(change.apply(e.getValue()));
      }
    }
  }
}
