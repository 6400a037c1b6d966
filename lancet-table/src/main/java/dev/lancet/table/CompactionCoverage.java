package dev.lancet.table;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AdjustIndexCoverage;
import dev.lancet.core.action.Ref;
import dev.lancet.format.model.IndexSegment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * The index segments a compaction plans around, and what it does to each (docs/decisions/0026).
 *
 * <p>A fragment's <em>signature</em> is the segments that cover it; a rewrite group never mixes
 * signatures (lance-core plans the same way, and its Rewrite refuses a group that splits an
 * index's coverage). A segment can <em>follow</em> its rows into new fragments when the table has
 * stable row ids and the segment is keyed by row ids (vector, BTree, bitmap, label-list,
 * inverted and n-gram indexes): its coverage moves to the new fragments. Otherwise (no stable row
 * ids: the index holds row addresses, which a rewrite changes; or a zone-map or Bloom-filter
 * index, which holds fragment offsets even with stable row ids) the group is skipped, unless the
 * caller allowed losing coverage: then it is rewritten and its rows are unindexed. A segment that
 * records no coverage counts as covering every fragment; if it cannot follow, its fragments keep
 * as they are even when loss is allowed (readers would take new fragments as covered). System
 * indexes ({@code __lance_*}) are not considered.
 */
final class CompactionCoverage {
  /** The index details kinds whose entries name rows by row id when the table has stable ids. */
  private static final Set<String> ROW_ID_KEYED = Set.of("VectorIndexDetails",
      "BTreeIndexDetails", "BitmapIndexDetails", "LabelListIndexDetails",
      "InvertedIndexDetails", "NGramIndexDetails");

  /** One user index segment: its coverage (empty when unrecorded) and whether it can follow. */
  private record Segment(IndexSegment segment, Optional<RoaringBitmap> covered, boolean follows) {
    boolean covers(long fragment) {
      return covered.isEmpty() || (fragment >= 0 && fragment <= 0xFFFF_FFFFL
          && covered.get().contains((int) fragment));
    }

    String name() {
      return segment.name();
    }

    boolean vector() {
      return segment.detailsTypeUrl().endsWith("VectorIndexDetails");
    }
  }

  private record Key(String index, IndexCoverage.Outcome outcome) {}

  private final boolean stable;
  private final boolean allowLoss;
  private final List<Segment> segments = new ArrayList<>();
  private final Map<Key, Set<Long>> fragments = new LinkedHashMap<>();
  private final Map<Key, String> reasons = new LinkedHashMap<>();
  private final Set<Long> skipped = new TreeSet<>();

  CompactionCoverage(List<IndexSegment> indices, boolean stableRowIds, boolean allowLoss) {
    this.stable = stableRowIds;
    this.allowLoss = allowLoss;
    for (IndexSegment s : indices) {
      if (s.name().startsWith("__lance_")) {
        continue;
      }
      Optional<RoaringBitmap> covered = s.coveredFragments().map(b -> b.toRoaringBitmap());
      segments.add(new Segment(s, covered, stableRowIds && ROW_ID_KEYED.contains(kind(s))));
    }
  }

  /** The segments that cover {@code fragment}, in table order (its rewrite-group signature). */
  List<UUID> signature(long fragment) {
    List<UUID> out = new ArrayList<>();
    for (Segment s : segments) {
      if (s.covers(fragment)) {
        out.add(s.segment().uuid());
      }
    }
    return out;
  }

  /**
   * Whether a group of fragments that share one signature must stay as it is; if so, the
   * segments that hold it back are recorded as {@link IndexCoverage.Outcome#SKIPPED}.
   */
  boolean skip(List<Long> group) {
    long first = group.get(0);
    boolean skip = false;
    for (Segment s : segments) {
      if (!s.covers(first) || s.follows()) {
        continue;
      }
      if (s.covered().isPresent() && allowLoss) {
        continue;
      }
      skip = true;
      note(s.name(), IndexCoverage.Outcome.SKIPPED, group, whySkipped(s));
    }
    if (skip) {
      skipped.addAll(group);
    }
    return skip;
  }

  /** Records what rewriting {@code removed}, a group of one signature, does to each index. */
  void rewrite(List<Long> removed) {
    long first = removed.get(0);
    for (Segment s : segments) {
      if (!s.covers(first)) {
        continue;
      }
      if (s.follows()) {
        note(s.name(), IndexCoverage.Outcome.KEPT, removed, "");
      } else {
        note(s.name(), IndexCoverage.Outcome.LOST, removed, "allowIndexCoverageLoss(true): "
            + whyCannotFollow(s) + "; its rows are unindexed until the index is optimized");
      }
    }
  }

  /**
   * The actions that keep the index list right after {@code removed} (a group of one signature)
   * is rewritten into the fragments {@code added} names; made at commit, when those refs are
   * final. A following segment that records its coverage moves it to the new fragments. A
   * segment that loses coverage on a table with stable row ids drops the old fragments from its
   * coverage, as upstream's compaction does for indexes keyed by fragment offsets; without stable
   * row ids its coverage is left as it is (it names fragments that no longer exist, which readers
   * ignore), as a legacy Rewrite that remaps no index leaves it.
   */
  List<Action> actions(List<Long> removed, List<Ref> added) {
    List<Action> out = new ArrayList<>();
    long first = removed.get(0);
    for (Segment s : segments) {
      if (!s.covers(first) || s.covered().isEmpty()) {
        continue;
      }
      if (s.follows()) {
        out.add(new AdjustIndexCoverage(s.segment().uuid(), s.name(), added, removed));
      } else if (stable) {
        out.add(new AdjustIndexCoverage(s.segment().uuid(), s.name(), List.of(), removed));
      }
    }
    return out;
  }

  /** Fragments held back for an index's sake. */
  int fragmentsSkipped() {
    return skipped.size();
  }

  /**
   * Every outcome, per index name; an index that lost coverage and covers no fragment left after
   * {@code removedAll} is removed is {@link IndexCoverage.Outcome#DROPPED} when it is a vector
   * index (lance-core keeps an empty scalar index, but drops a vector one).
   */
  List<IndexCoverage> outcomes(Collection<Long> tableFragments, Set<Long> removedAll) {
    List<IndexCoverage> out = new ArrayList<>();
    for (Map.Entry<Key, Set<Long>> e : fragments.entrySet()) {
      Key k = e.getKey();
      IndexCoverage.Outcome outcome = k.outcome();
      String reason = reasons.get(k);
      if (outcome == IndexCoverage.Outcome.LOST && coversNothingAfter(k.index(), tableFragments,
          removedAll)) {
        outcome = IndexCoverage.Outcome.DROPPED;
        reason = reason + "; it covers no other fragment, so the index is dropped (lance-core "
            + "drops a vector index that covers nothing): build it again";
      }
      out.add(new IndexCoverage(k.index(), outcome, e.getValue().size(), reason));
    }
    return out;
  }

  /** Whether every segment of vector index {@code name} covers only removed fragments. */
  private boolean coversNothingAfter(String name, Collection<Long> tableFragments,
      Set<Long> removedAll) {
    boolean any = false;
    for (Segment s : segments) {
      if (!s.name().equals(name)) {
        continue;
      }
      any = true;
      if (!s.vector() || s.covered().isEmpty() || s.follows()) {
        return false;
      }
      for (long f : tableFragments) {
        if (!removedAll.contains(f) && s.covers(f)) {
          return false;
        }
      }
    }
    return any;
  }

  private void note(String index, IndexCoverage.Outcome outcome, List<Long> group, String why) {
    Key k = new Key(index, outcome);
    fragments.computeIfAbsent(k, x -> new TreeSet<>()).addAll(group);
    reasons.putIfAbsent(k, why);
  }

  private String whySkipped(Segment s) {
    if (s.covered().isEmpty()) {
      return "the index records no fragment coverage, so no rewrite of its fragments can keep it "
          + "right (not even with allowIndexCoverageLoss(true)); rebuild the index to record it";
    }
    return whyCannotFollow(s) + "; allowIndexCoverageLoss(true) rewrites them anyway, leaving "
        + "their rows unindexed until the index is optimized";
  }

  private String whyCannotFollow(Segment s) {
    if (!stable) {
      return "the table has no stable row ids, so the index names rows by address, which a "
          + "rewrite changes, and Lancet cannot remap index files yet";
    }
    String kind = kind(s.segment()).replace("IndexDetails", "");
    if (kind.equals("ZoneMap") || kind.equals("BloomFilter")) {
      return "a " + kind + " index names rows by fragment and offset, not by row id, so it "
          + "cannot follow rows into new fragments";
    }
    return (kind.isEmpty() ? "an index without details" : "a " + kind + " index") + " is not "
        + "one Lancet knows to name rows by row id, so it is not trusted to follow rows into new "
        + "fragments";
  }

  /** The details message's name ("ZoneMapIndexDetails"), or "" when there are none. */
  private static String kind(IndexSegment s) {
    String url = s.detailsTypeUrl();
    return url.substring(url.lastIndexOf('.') + 1);
  }
}
