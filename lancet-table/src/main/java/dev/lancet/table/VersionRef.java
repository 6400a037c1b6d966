package dev.lancet.table;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import java.time.Instant;
import java.util.List;

/** Which version a read sees: the newest, a number, a tag, or the newest as of a time. */
sealed interface VersionRef {
  Snapshot resolve(Table table);

  record Latest() implements VersionRef {
    @Override
    public Snapshot resolve(Table table) {
      return table.latest();
    }
  }

  record Number(long version) implements VersionRef {
    @Override
    public Snapshot resolve(Table table) {
      return table.version(version);
    }
  }

  record Tag(String name) implements VersionRef {
    @Override
    public Snapshot resolve(Table table) {
      return table.tag(name);
    }
  }

  /** The newest version committed at or before {@code time} (commit timestamps only grow). */
  record AsOf(Instant time) implements VersionRef {
    @Override
    public Snapshot resolve(Table table) {
      List<VersionEntry> all = table.versions();
      int lo = 0;
      int hi = all.size() - 1;
      Snapshot best = null;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        Snapshot s = table.version(all.get(mid).version());
        Instant ts = s.manifest().timestamp().orElse(Instant.EPOCH);
        if (!ts.isAfter(time)) {
          best = s;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (best == null) {
        Instant first = all.isEmpty() ? null
            : table.version(all.get(0).version()).manifest().timestamp().orElse(null);
        throw new NotFoundException("no version of " + table.location() + " was committed at or "
            + "before " + time + (first == null ? "" : "; the first version is from " + first));
      }
      return best;
    }
  }
}
