package dev.lancet.interop.live;

import dev.lancet.interop.lance.LanceFixtures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The independent model of the live table: the initial rows, then every acknowledged commit
 * replayed in version order. An append adds fresh ids; a delete removes its ids; an update sets
 * its rows' values. A violation is recorded when the history cannot be what the writers were
 * told: two commits acknowledged as the same version, an append of an id that exists, or a
 * planned Delete or Update acknowledged although a commit before it already deleted its row.
 */
final class LiveModel {
  /** The rows (id to value) after replaying, and what was inconsistent on the way. */
  record Replay(Map<Long, String> rows, List<String> violations) {}

  private LiveModel() {}

  static Replay replay(List<LiveEvent> events) {
    Map<Long, String> rows = new TreeMap<>();
    for (long id = 0; id < LiveTable.INITIAL_ROWS; id++) {
      rows.put(id, LanceFixtures.name(id));
    }
    Map<Long, String> deletedBy = new TreeMap<>();
    List<String> violations = new ArrayList<>();
    List<LiveEvent> ordered = new ArrayList<>(events);
    ordered.sort(Comparator.comparingLong(LiveEvent::version));
    LiveEvent previous = null;
    for (LiveEvent e : ordered) {
      String what = e.writer() + " " + e.operation() + " " + e.uuid() + " (version " + e.version() + ")";
      if (previous != null && previous.version() == e.version()) {
        violations.add(what + " and " + previous.writer() + " " + previous.operation() + " "
            + previous.uuid() + " were both acknowledged as version " + e.version());
      }
      previous = e;
      for (Map.Entry<Long, String> u : e.upserts().entrySet()) {
        boolean exists = rows.containsKey(u.getKey());
        if (e.operation().equals("Append") && exists) {
          violations.add(what + " appended id " + u.getKey() + ", which already exists");
        } else if (!e.operation().equals("Append") && !exists) {
          violations.add(what + " updated id " + u.getKey() + ", deleted before by "
              + deletedBy.get(u.getKey()) + ": the update resurrects it");
        }
        rows.put(u.getKey(), u.getValue());
      }
      for (long id : e.deletes()) {
        boolean existed = rows.containsKey(id);
        rows.remove(id);
        if (!existed && e.planned()) {
          violations.add(what + " deleted id " + id + ", already deleted by " + deletedBy.get(id));
        }
        deletedBy.putIfAbsent(id, what);
      }
    }
    return new Replay(rows, violations);
  }
}
