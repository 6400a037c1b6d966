package dev.lancet.core.conflict.legacy;

import static dev.lancet.core.conflict.legacy.LegacyKind.*;

import dev.lancet.core.conflict.legacy.SecondPhaseObligation.IntersectDeletions;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.MergeMemWalProgress;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.MovedRowsAgainstOurOverlay;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.OurMovedRowsAgainstTheirOverlay;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.PruneUpdatedFieldsFromIndices;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.keys.KeyFilters;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * The legacy pairwise conflict check (seed §9): may {@code ours}, the transaction being committed,
 * land after {@code theirs}, a transaction committed after ours read? Directional.
 *
 * <p>Order: an operation this build does not know fails closed; the two symmetric guards G1
 * (nullability claim vs value write) and G2 (Merge vs schema/field metadata update) run first;
 * a pair with a CompositeOperation on either side goes the footprint route
 * ({@link LegacyFootprints}); everything else is one arm of the three tables. Lancet departs from
 * upstream on the cells listed in docs/decisions/0005-legacy-conflict-matrix.md, each marked
 * "Lancet:" below.
 */
public final class LegacyConflicts {
  private LegacyConflicts() {}

  public static LegacyVerdict check(Transaction ours, Transaction theirs) {
    return check(ours, Optional.empty(), theirs);
  }

  /**
   * As {@link #check(Transaction, Transaction)} for a transaction whose footprint the caller
   * already has (a composite operation being committed: its footprint is computed once per
   * commit, not once per winner).
   */
  public static LegacyVerdict check(Transaction ours, dev.lancet.core.conflict.Footprint oursFootprint,
      Transaction theirs) {
    return check(ours, Optional.of(oursFootprint), theirs, Optional.empty());
  }

  /**
   * As {@link #check(Transaction, dev.lancet.core.conflict.Footprint, Transaction)}, with the
   * footprint of {@code theirs} lowered by the caller against the manifests around it
   * ({@link LegacyFootprints#ofCommitted}): the footprint route uses it instead of the
   * transaction-only lowering.
   */
  public static LegacyVerdict check(Transaction ours, dev.lancet.core.conflict.Footprint oursFootprint,
      Transaction theirs, LegacyFootprints.Lowering theirsLowered) {
    return check(ours, Optional.of(oursFootprint), theirs, Optional.of(theirsLowered));
  }

  private static LegacyVerdict check(Transaction ours, Optional<dev.lancet.core.conflict.Footprint> known,
      Transaction theirs) {
    return check(ours, known, theirs, Optional.empty());
  }

  private static LegacyVerdict check(Transaction ours, Optional<dev.lancet.core.conflict.Footprint> known,
      Transaction theirs, Optional<LegacyFootprints.Lowering> theirsLowered) {
    Optional<LegacyKind> o = LegacyKind.of(ours);
    Optional<LegacyKind> t = LegacyKind.of(theirs);
    if (o.isEmpty() || t.isEmpty()) {
      Transaction unknown = o.isEmpty() ? ours : theirs;
      return LegacyVerdict.retryable(new Collision.FailClosed("transaction " + unknown.getUuid()
          + " carries an operation this Lancet does not know (" + unknown.getOperationCase()
          + "), so the pair cannot be checked (fail closed)"));
    }
    for (Transaction side : List.of(ours, theirs)) {
      if (side.hasUpdateMemWalState() && !side.getUpdateMemWalState().getUnknownFields().asMap().isEmpty()) {
        // Tag 2 was require_index_catchup (removed upstream, lance-format/lance#8680, and free
        // for reuse): whatever it or another unknown field says now cannot be reasoned about.
        return LegacyVerdict.retryable(new Collision.FailClosed("transaction " + side.getUuid()
            + " is an UpdateMemWalState carrying field(s) "
            + side.getUpdateMemWalState().getUnknownFields().asMap().keySet()
            + " this Lancet does not know, so the pair cannot be checked (fail closed)"));
      }
    }
    Pair p = new Pair(ours, theirs, o.get(), t.get());
    // G1: a nullability-affecting Project/Merge against a value write, either order.
    if ((mayAlterNullability(ours) && suppliesValues(theirs))
        || (suppliesValues(ours) && mayAlterNullability(theirs))) {
      return p.retry("a " + (mayAlterNullability(ours) ? p.o : p.t).operationName()
          + " without preserves_nullability may change nullability, and the other side writes values "
          + "that were never checked against it (guard G1)");
    }
    // G2: a Merge carries its read version's whole schema; a metadata update would be lost.
    if ((p.o == MERGE && LegacyOps.updatesSchemaOrFieldMetadata(theirs))
        || (LegacyOps.updatesSchemaOrFieldMetadata(ours) && p.t == MERGE)) {
      return p.retry("a Merge rewrites the whole schema from its read version, so the other side's "
          + "schema or field metadata update would be lost (guard G2)");
    }
    if (p.o == COMPOSITE || p.t == COMPOSITE) {
      return footprintRoute(p, known, theirsLowered);
    }
    switch (p.o) {
      case APPEND: return append(p);
      case DELETE: return delete(p);
      case OVERWRITE: return overwrite(p);
      case CREATE_INDEX: return createIndex(p);
      case REWRITE: return rewrite(p);
      case DATA_REPLACEMENT: return dataReplacement(p);
      case DATA_OVERLAY: return dataOverlay(p);
      case MERGE: return merge(p);
      case RESTORE: return restore(p);
      case RESERVE_FRAGMENTS: return reserveFragments(p);
      case UPDATE: return update(p);
      case PROJECT: return project(p);
      case UPDATE_CONFIG: return updateConfig(p);
      case UPDATE_MEM_WAL_STATE: return updateMemWalState(p);
      case CLONE: return p.ok("a Clone starts a new table and is never checked against the source's history");
      case UPDATE_BASES: return updateBases(p);
      default: throw new IllegalStateException("unreachable: " + p.o);
    }
  }

  // ---- guards --------------------------------------------------------------------------------

  static boolean mayAlterNullability(Transaction t) {
    return (t.hasProject() && !t.getProject().getPreservesNullability())
        || (t.hasMerge() && !t.getMerge().getPreservesNullability());
  }

  static boolean suppliesValues(Transaction t) {
    return t.hasAppend() || t.hasUpdate() || t.hasDataReplacement() || t.hasDataOverlay();
  }

  // ---- the composite route -------------------------------------------------------------------

  private static LegacyVerdict footprintRoute(Pair p, Optional<dev.lancet.core.conflict.Footprint> known,
      Optional<LegacyFootprints.Lowering> theirsLowered) {
    // Lancet: a Clone has no footprint, so it fails closed against a composite (upstream: ok).
    Optional<dev.lancet.core.conflict.Footprint> mine = known.isPresent() ? known : LegacyFootprints.of(p.ours);
    Optional<dev.lancet.core.conflict.Footprint> other = theirsLowered.isPresent()
        ? theirsLowered.get().footprint() : LegacyFootprints.of(p.theirs);
    if (mine.isEmpty() || other.isEmpty()) {
      LegacyKind missing = mine.isEmpty() ? p.o : p.t;
      String why = mine.isEmpty() ? LegacyFootprints.whyNot(p.ours)
          : theirsLowered.map(LegacyFootprints.Lowering::whyNot).orElseGet(() -> LegacyFootprints.whyNot(p.theirs));
      return LegacyVerdict.retryable(new Collision.FailClosed(p.prefix() + "the " + missing.operationName()
          + " has no faithful footprint (" + why
          + "), so it cannot be compared with a composite operation (fail closed); retry against the newer version"));
    }
    dev.lancet.core.conflict.ConflictResult r = mine.get().checkAgainst(other.get());
    if (r.conflicts()) {
      return LegacyVerdict.retryable(p.prefix() + "their footprints collide: " + r.describe()
          + "; retry against the newer version", r.collisions());
    }
    if (!r.rowChecks().isEmpty()) {
      // Both delete rows of these fragments: decided row by row on the deletion files (0016).
      return p.ok("both delete rows of fragments " + LegacyOps.ids(r.rowChecks())
          + "; their deleted rows must not intersect", List.of(new IntersectDeletions(r.rowChecks())));
    }
    return p.ok("their footprints do not collide");
  }

  // ---- Table rows ----------------------------------------------------------------------------

  private static LegacyVerdict append(Pair p) {
    switch (p.t) {
      case OVERWRITE:
      case RESTORE:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it replaces the table (or its MemWAL state) the appended fragments were written against");
      case UPDATE:
        // Lancet: upstream lets an append land after a merge insert unchecked (seed §9.5 item 8),
        // which can duplicate a key the merge insert asserted new; the key check must hold in
        // both orders, and our rows carry no key filter to compare.
        if (p.theirs.getUpdate().hasInsertedRows()) {
          return p.retry("the committed Update asserted its inserted keys are new, and this Append's rows "
              + "carry no key filter, so they may duplicate one of those keys");
        }
        return p.ok("an append adds new fragments only");
      default:
        return p.ok("an append adds new fragments only");
    }
  }

  private static LegacyVerdict delete(Pair p) {
    Set<Long> modified = modifiedByDeleteOrUpdate(p.ours);
    switch (p.t) {
      case CREATE_INDEX:
      case RESERVE_FRAGMENTS:
      case CLONE:
      case PROJECT:
      case APPEND:
      case UPDATE_CONFIG:
      case UPDATE_BASES:
        return p.ok("it does not touch the rows this Delete removes");
      case DATA_OVERLAY:
        // Upstream's answer. Upstream's apply then drops the overlay (its Delete installs a
        // fragment post-image, seed §6 row 3); Lancet's takes only the deletion file and carries
        // the overlays forward (LegacyApply), so letting it through loses nothing.
        return p.ok("a delete of overlaid rows is harmless, and this Delete keeps the committed overlays");
      case REWRITE:
        return overlapRetry(p, modified, LegacyOps.rewrittenIds(p.theirs), "rewritten by the committed Rewrite");
      case DATA_REPLACEMENT:
        return overlapRetry(p, modified, LegacyOps.replacedIds(p.theirs), "given new data files by the committed DataReplacement");
      case DELETE:
      case UPDATE:
        return deleteUpdatePair(p);
      case MERGE:
        return p.retry("a Merge rewrites every fragment");
      case OVERWRITE:
      case RESTORE:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it replaced the table this Delete read");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict overwrite(Pair p) {
    switch (p.t) {
      case OVERWRITE: {
        Optional<String> key = LegacyOps.upsertKeyConflict(p.ours, p.theirs);
        if (key.isPresent()) {
          return p.inc("both set config key '" + key.get() + "'");
        }
        return p.retry("two concurrent overwrites: retry to decide whether this one should still replace the table");
      }
      case UPDATE_CONFIG: {
        Optional<String> key = LegacyOps.upsertKeyConflict(p.ours, p.theirs);
        if (key.isPresent()) {
          return p.inc("both write config key '" + key.get() + "'");
        }
        return p.ok("their config keys are disjoint");
      }
      case UPDATE_MEM_WAL_STATE:
        return p.inc("an Overwrite cannot carry the MemWAL progress the committed transaction recorded");
      default:
        return p.ok("an Overwrite replaces the table regardless");
    }
  }

  private static LegacyVerdict createIndex(Pair p) {
    List<TableProtos.IndexMetadata> ourNew = p.ours.getCreateIndex().getNewIndicesList();
    List<TableProtos.IndexMetadata> ourRemoved = p.ours.getCreateIndex().getRemovedIndicesList();
    switch (p.t) {
      case APPEND:
      case CLONE:
      case DATA_OVERLAY:
      case UPDATE_BASES:
      case DELETE:
      case RESERVE_FRAGMENTS:
      case PROJECT:
      case UPDATE_CONFIG:
        return p.ok("it does not invalidate the indexed data");
      case CREATE_INDEX:
        return createIndexPair(p);
      case UPDATE: {
        Transaction.Update u = p.theirs.getUpdate();
        Set<Long> frags = LegacyOps.updatedIds(p.theirs);
        Set<Integer> fields = new TreeSet<>();
        u.getFieldsModifiedList().forEach(f -> fields.add(f));
        if (frags.isEmpty() || fields.isEmpty()) {
          return p.ok("the Update rewrote no indexed field in place");
        }
        return p.ok("row ids survive the Update; the fields it rewrote must be pruned from the new indices",
            List.of(new PruneUpdatedFieldsFromIndices(frags, fields)));
      }
      case MERGE:
        if (LegacyOps.hasIndexNamed(ourNew, LegacyOps.MEM_WAL_INDEX)) {
          return p.retry("installing the MemWAL index validates schema-dependent state that the Merge changed");
        }
        return p.ok("a Merge keeps row ids");
      case REWRITE: {
        // Their fragment-reuse index never travels on the wire (a Rewrite read back from its
        // transaction file has none), so only the remap arm applies.
        Set<Long> rewritten = LegacyOps.rewrittenIds(p.theirs);
        Set<Long> covered = new TreeSet<>();
        for (TableProtos.IndexMetadata idx : ourNew) {
          Optional<RoaringBitmap> bitmap = LegacyOps.fragmentBitmap(idx);
          if (bitmap.isEmpty()) {
            return p.retry("new index '" + idx.getName() + "' records no fragment coverage, so it may "
                + "cover fragments the Rewrite moved");
          }
          bitmap.get().forEach((int f) -> covered.add(Integer.toUnsignedLong(f)));
        }
        return overlapRetry(p, covered, rewritten, "indexed by this CreateIndex and rewritten by the committed Rewrite");
      }
      case DATA_REPLACEMENT: {
        Set<Integer> indexed = new HashSet<>();
        ourNew.forEach(i -> indexed.addAll(i.getFieldsList()));
        for (Transaction.DataReplacementGroup g : p.theirs.getDataReplacement().getReplacementsList()) {
          for (int field : g.getNewFile().getFieldsList()) {
            if (indexed.contains(field)) {
              return p.retry("field " + field + " is indexed by this CreateIndex and was replaced in fragment "
                  + Long.toUnsignedString(g.getFragmentId()));
            }
          }
        }
        return p.ok("the replaced fields are not indexed by this CreateIndex");
      }
      case UPDATE_MEM_WAL_STATE:
        if (LegacyOps.hasIndexNamed(ourNew, LegacyOps.MEM_WAL_INDEX)) {
          return p.ok("the MemWAL index can absorb the committed compaction progress",
              List.of(new MergeMemWalProgress(p.theirs.getUpdateMemWalState().getCompactedSstablesList())));
        }
        return p.inc("the committed MemWAL state update does not rebase over an index build");
      case OVERWRITE:
      case RESTORE:
        return p.inc("it replaced the table the index was built on");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict createIndexPair(Pair p) {
    List<TableProtos.IndexMetadata> ourNew = p.ours.getCreateIndex().getNewIndicesList();
    List<TableProtos.IndexMetadata> ourRemoved = p.ours.getCreateIndex().getRemovedIndicesList();
    List<TableProtos.IndexMetadata> theirNew = p.theirs.getCreateIndex().getNewIndicesList();
    List<TableProtos.IndexMetadata> theirRemoved = p.theirs.getCreateIndex().getRemovedIndicesList();
    String fri = LegacyOps.FRAG_REUSE_INDEX;
    String memWal = LegacyOps.MEM_WAL_INDEX;
    if (LegacyOps.hasIndexNamed(ourNew, fri) && LegacyOps.hasIndexNamed(theirNew, fri)) {
      return p.retry("both change the fragment-reuse index '" + fri + "'");
    }
    if (LegacyOps.hasIndexNamed(ourNew, memWal) && LegacyOps.hasIndexNamed(theirNew, memWal)) {
      return p.retry("both install the MemWAL index '" + memWal + "'");
    }
    for (TableProtos.IndexMetadata mine : ourNew) {
      if (!mine.getName().equals(fri) && !mine.getName().equals(memWal)
          && LegacyOps.hasIndexNamed(theirNew, mine.getName())) {
        return p.retry("both build index '" + mine.getName() + "'");
      }
    }
    // A segment appended to a logical index (no removal of that name on its side) cannot land
    // while the other side drops that name.
    for (TableProtos.IndexMetadata mine : ourNew) {
      if (!LegacyOps.hasIndexNamed(ourRemoved, mine.getName()) && LegacyOps.hasIndexNamed(theirRemoved, mine.getName())) {
        return p.retry("this CreateIndex appends a segment to index '" + mine.getName()
            + "', which the committed transaction removed");
      }
    }
    for (TableProtos.IndexMetadata other : theirNew) {
      if (!LegacyOps.hasIndexNamed(theirRemoved, other.getName()) && LegacyOps.hasIndexNamed(ourRemoved, other.getName())) {
        return p.retry("the committed transaction appended a segment to index '" + other.getName()
            + "', which this CreateIndex removes");
      }
    }
    // Both removed the same segment and either side installs a replacement for it.
    for (TableProtos.IndexMetadata removed : ourRemoved) {
      for (TableProtos.IndexMetadata committedRemoved : theirRemoved) {
        if (!removed.getUuid().equals(committedRemoved.getUuid())) {
          continue;
        }
        boolean replaces = ourNew.stream().anyMatch(n -> n.getName().equals(removed.getName())
            || n.getName().equals(committedRemoved.getName()))
            || theirNew.stream().anyMatch(n -> n.getName().equals(removed.getName())
            || n.getName().equals(committedRemoved.getName()));
        if (replaces) {
          return p.retry("both replace the same segment of index '" + removed.getName()
              + "', so one replacement would be built from a stale source");
        }
      }
    }
    return p.ok("the two index changes touch different indices or segments");
  }

  private static LegacyVerdict rewrite(Pair p) {
    Set<Long> ours = LegacyOps.rewrittenIds(p.ours);
    switch (p.t) {
      case APPEND:
      case RESERVE_FRAGMENTS:
      case PROJECT:
      case CLONE:
      case UPDATE_CONFIG:
      case UPDATE_MEM_WAL_STATE:
      case UPDATE_BASES:
        return p.ok("it does not touch existing fragments");
      case DELETE:
      case UPDATE:
        return overlapRetry(p, ours, modifiedByDeleteOrUpdate(p.theirs), "rewritten here and changed by the committed " + p.t.operationName());
      case DATA_OVERLAY:
        return overlapRetry(p, ours, LegacyOps.overlaidIds(p.theirs), "rewritten here, which moves the offsets the committed overlays address");
      case REWRITE:
        // Neither side's fragment-reuse index is on the wire, so "both carry one" never holds.
        return overlapRetry(p, ours, LegacyOps.rewrittenIds(p.theirs), "rewritten by both");
      case DATA_REPLACEMENT:
        return overlapRetry(p, ours, LegacyOps.replacedIds(p.theirs), "rewritten here and given new data files by the committed DataReplacement");
      case MERGE:
        return p.retry("a Merge rewrites every fragment");
      case CREATE_INDEX: {
        List<TableProtos.IndexMetadata> theirNew = p.theirs.getCreateIndex().getNewIndicesList();
        if (LegacyOps.hasIndexNamed(theirNew, LegacyOps.FRAG_REUSE_INDEX)) {
          if (theirNew.size() != 1 || p.theirs.getCreateIndex().getRemovedIndicesCount() != 1) {
            return p.inc("the committed fragment-reuse index change is mixed with other index changes");
          }
          return p.ok("the committed transaction only maintained the fragment-reuse index");
        }
        Set<Long> covered = new TreeSet<>();
        for (TableProtos.IndexMetadata idx : theirNew) {
          Optional<RoaringBitmap> bitmap = LegacyOps.fragmentBitmap(idx);
          if (bitmap.isEmpty()) {
            return p.retry("committed index '" + idx.getName() + "' records no fragment coverage, so the "
                + "rewrite cannot tell whether it must remap it");
          }
          bitmap.get().forEach((int f) -> covered.add(Integer.toUnsignedLong(f)));
        }
        return overlapRetry(p, ours, covered, "rewritten here and covered by the committed index");
      }
      case OVERWRITE:
      case RESTORE:
        return p.inc("it replaced the table this Rewrite compacted");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict dataReplacement(Pair p) {
    List<Transaction.DataReplacementGroup> mine = p.ours.getDataReplacement().getReplacementsList();
    switch (p.t) {
      case APPEND:
      case CLONE:
      case UPDATE_CONFIG:
      case RESERVE_FRAGMENTS:
      case DATA_OVERLAY:
      case UPDATE_BASES:
        return p.ok("it keeps the physical rows the replacement files are aligned to");
      case PROJECT: {
        Set<Integer> kept = new HashSet<>();
        p.theirs.getProject().getSchemaList().forEach(f -> kept.add(f.getId()));
        for (Transaction.DataReplacementGroup g : mine) {
          for (int field : g.getNewFile().getFieldsList()) {
            if (field >= 0 && !kept.contains(field)) {
              return p.inc("field " + field + ", replaced in fragment " + Long.toUnsignedString(g.getFragmentId())
                  + ", was dropped by the committed Project");
            }
          }
        }
        return p.ok("every replaced field survives the Project");
      }
      case MERGE:
        return p.retry("a Merge rewrites every fragment");
      case DELETE: {
        Set<Long> removed = LegacyOps.intersection(LegacyOps.replacedIds(p.ours), LegacyOps.removedIds(p.theirs));
        if (!removed.isEmpty()) {
          return p.inc(removed, "target fragments " + LegacyOps.ids(removed) + " were removed by the committed Delete");
        }
        return p.ok("a Delete only tombstones rows, which keeps the replacement aligned");
      }
      case UPDATE: {
        Transaction.Update u = p.theirs.getUpdate();
        Set<Long> removed = LegacyOps.removedIds(p.theirs);
        Set<Long> updated = LegacyOps.updatedIds(p.theirs);
        for (Transaction.DataReplacementGroup g : mine) {
          long frag = g.getFragmentId();
          if (removed.contains(frag)) {
            return p.inc(Set.of(frag), "target fragment " + Long.toUnsignedString(frag) + " was removed by the committed Update");
          }
          if (!updated.contains(frag)) {
            continue;
          }
          if (LegacyOps.movesRows(u)) {
            return p.retry(Set.of(frag), "the committed Update moved rows out of fragment " + Long.toUnsignedString(frag)
                + ", which the replacement file does not cover");
          }
          for (int field : g.getNewFile().getFieldsList()) {
            if (field >= 0 && u.getFieldsModifiedList().contains(field)) {
              return p.retry(Set.of(frag), "field " + field + " of fragment " + Long.toUnsignedString(frag)
                  + " was rewritten by the committed Update");
            }
          }
        }
        return p.ok("the committed Update neither removed, moved nor rewrote the replaced data");
      }
      case CREATE_INDEX: {
        Set<Integer> indexed = new HashSet<>();
        p.theirs.getCreateIndex().getNewIndicesList().forEach(i -> indexed.addAll(i.getFieldsList()));
        for (Transaction.DataReplacementGroup g : mine) {
          for (int field : g.getNewFile().getFieldsList()) {
            if (indexed.contains(field)) {
              return p.retry("field " + field + " is replaced here and indexed by the committed CreateIndex");
            }
          }
        }
        return p.ok("no replaced field is indexed by the committed CreateIndex");
      }
      case REWRITE:
        return overlapRetry(p, LegacyOps.replacedIds(p.ours), LegacyOps.rewrittenIds(p.theirs), "given new data files here and rewritten by the committed Rewrite");
      case DATA_REPLACEMENT:
        for (Transaction.DataReplacementGroup g : mine) {
          for (Transaction.DataReplacementGroup other : p.theirs.getDataReplacement().getReplacementsList()) {
            if (g.getFragmentId() != other.getFragmentId()) {
              continue;
            }
            for (int field : g.getNewFile().getFieldsList()) {
              if (other.getNewFile().getFieldsList().contains(field)) {
                return p.retry(Set.of(g.getFragmentId()), "both replace field " + field + " in fragment " + Long.toUnsignedString(g.getFragmentId()));
              }
            }
          }
        }
        return p.ok("the two replacements touch different fragments or fields");
      case OVERWRITE:
      case RESTORE:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it replaced the table (or its MemWAL state) this replacement was written against");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict dataOverlay(Pair p) {
    Set<Long> ours = LegacyOps.overlaidIds(p.ours);
    switch (p.t) {
      case APPEND:
      case CREATE_INDEX:
      case RESERVE_FRAGMENTS:
      case PROJECT:
      case UPDATE_CONFIG:
      case UPDATE_BASES:
      case CLONE:
      case DATA_REPLACEMENT:
      case DATA_OVERLAY:
        return p.ok("overlays stack on physical offsets it leaves in place");
      case DELETE:
        return overlapRetry(p, ours, LegacyOps.removedIds(p.theirs), "overlaid here and removed by the committed Delete");
      case UPDATE: {
        Set<Long> removed = LegacyOps.intersection(ours, LegacyOps.removedIds(p.theirs));
        if (!removed.isEmpty()) {
          return p.retry(removed, "fragments " + LegacyOps.ids(removed) + " are overlaid here and were removed by the committed Update");
        }
        if (LegacyOps.movesRows(p.theirs.getUpdate())) {
          Set<Long> moved = LegacyOps.intersection(ours, LegacyOps.updatedIds(p.theirs));
          if (!moved.isEmpty()) {
            return p.ok("the committed Update moved rows out of overlaid fragments " + LegacyOps.ids(moved)
                + "; the moved rows must miss the overlay coverage", List.of(new MovedRowsAgainstOurOverlay(moved)));
          }
        }
        return p.ok("the committed Update keeps the overlaid rows in place");
      }
      case REWRITE:
        return overlapRetry(p, ours, LegacyOps.rewrittenIds(p.theirs), "overlaid here and rewritten by the committed Rewrite, which moves their offsets");
      case MERGE:
        return p.retry("a Merge rewrites every fragment");
      case OVERWRITE:
      case RESTORE:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it replaced the table (or its MemWAL state) the overlay was written against");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict merge(Pair p) {
    switch (p.t) {
      case CREATE_INDEX:
        if (LegacyOps.hasIndexNamed(p.theirs.getCreateIndex().getNewIndicesList(), LegacyOps.MEM_WAL_INDEX)) {
          return p.retry("the committed MemWAL index was validated against the schema this Merge replaces");
        }
        return p.ok("a Merge keeps row ids, so the index stays valid");
      case RESERVE_FRAGMENTS:
      case CLONE:
      case UPDATE_CONFIG:
      case UPDATE_BASES:
        return p.ok("it does not touch the fragments or schema this Merge rewrites");
      case UPDATE:
      case APPEND:
      case DELETE:
      case REWRITE:
      case MERGE:
      case DATA_REPLACEMENT:
      case DATA_OVERLAY:
        return p.retry("this Merge's fragment list was built before the committed " + p.t.operationName() + " changed it");
      case OVERWRITE:
      case RESTORE:
      case PROJECT:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it changed the schema or table this Merge was built against");
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict restore(Pair p) {
    if (p.t == UPDATE_MEM_WAL_STATE) {
      return p.inc("a Restore cannot carry the committed MemWAL progress");
    }
    return p.ok("a Restore replaces the table regardless");
  }

  private static LegacyVerdict reserveFragments(Pair p) {
    if (p.t == OVERWRITE || p.t == RESTORE) {
      return p.inc("it replaced the table whose fragment ids were being reserved");
    }
    return p.ok("reserving fragment ids only moves a counter");
  }

  private static LegacyVerdict update(Pair p) {
    Transaction.Update mine = p.ours.getUpdate();
    if (p.t == UPDATE) {
      Transaction.Update other = p.theirs.getUpdate();
      if (mine.hasInsertedRows() && other.hasInsertedRows()) {
        if (!mine.getInsertedRows().getFieldIdsList().equals(other.getInsertedRows().getFieldIdsList())) {
          return p.retry("the inserted-key filters are over different key columns ("
              + mine.getInsertedRows().getFieldIdsList() + " vs " + other.getInsertedRows().getFieldIdsList() + ")");
        }
        KeyFilters.Intersection x = KeyFilters.intersect(LegacyOps.filter(mine.getInsertedRows()),
            LegacyOps.filter(other.getInsertedRows()));
        if (x.conflicts()) {
          // Typed as the key collision it is (decision 0017), with the key hashes both share.
          List<dev.lancet.core.action.Ref> keys = new ArrayList<>();
          mine.getInsertedRows().getFieldIdsList()
              .forEach(f -> keys.add(dev.lancet.core.action.Ref.committed(f)));
          return LegacyVerdict.retryable(new Collision.KeyAssertion(keys,
              KeyFilters.sharedKeyHashes(LegacyOps.filter(mine.getInsertedRows()),
                  LegacyOps.filter(other.getInsertedRows())),
              p.prefix() + "this Update's unique-key assertion over its inserted keys may be "
                  + "violated: the inserted keys may collide: " + x.reason()
                  + "; retry against the newer version"));
        }
      } else if (mine.hasInsertedRows()) {
        return p.retry("this Update asserts its inserted keys are new, but the committed Update inserted rows "
            + "without saying which keys");
      }
    }
    Set<Long> modified = modifiedByDeleteOrUpdate(p.ours);
    switch (p.t) {
      case CREATE_INDEX:
      case RESERVE_FRAGMENTS:
      case PROJECT:
      case CLONE:
      case UPDATE_CONFIG:
      case UPDATE_BASES:
        return p.ok("it does not touch the rows this Update rewrites");
      case DATA_OVERLAY:
        return updateAgainstOverlay(p, mine, modified);
      case APPEND:
        if (mine.hasInsertedRows()) {
          return p.retry("this Update asserts its inserted keys are new, but the committed Append inserted rows "
              + "without saying which keys");
        }
        return p.ok("an append adds new fragments only");
      case REWRITE:
        return overlapRetry(p, modified, LegacyOps.rewrittenIds(p.theirs), "changed here and rewritten by the committed Rewrite");
      case DATA_REPLACEMENT:
        return overlapRetry(p, modified, LegacyOps.replacedIds(p.theirs), "changed here and given new data files by the committed DataReplacement");
      case DELETE:
      case UPDATE:
        return deleteUpdatePair(p);
      case MERGE:
        return p.retry("a Merge rewrites every fragment");
      case OVERWRITE:
      case RESTORE:
        return p.inc("it replaced the table this Update read");
      case UPDATE_MEM_WAL_STATE:
        return compactedSsTables(p, p.theirs.getUpdateMemWalState().getCompactedSstablesList(),
            mine.getCompactedSstablesList());
      default:
        throw unreachable(p);
    }
  }

  private static LegacyVerdict updateAgainstOverlay(Pair p, Transaction.Update mine, Set<Long> modified) {
    List<Transaction.DataOverlayGroup> groups = p.theirs.getDataOverlay().getGroupsList();
    if (mine.getUpdateMode() == Transaction.UpdateMode.REWRITE_COLUMNS) {
      Set<Long> rewritten = LegacyOps.updatedIds(p.ours);
      for (Transaction.DataOverlayGroup g : groups) {
        if (!rewritten.contains(g.getFragmentId())) {
          continue;
        }
        for (int field : LegacyOps.overlaidFields(g)) {
          if (mine.getFieldsModifiedList().contains(field)) {
            return p.retry(Set.of(g.getFragmentId()), "field " + field + " of fragment " + Long.toUnsignedString(g.getFragmentId())
                + " is rewritten here from a snapshot without the committed overlay");
          }
        }
      }
      return p.ok("the column rewrite does not touch the overlaid fields");
    }
    if (!LegacyOps.movesRows(mine)) {
      return p.ok("this Update moves no rows");
    }
    Set<Long> removed = LegacyOps.removedIds(p.ours);
    List<SecondPhaseObligation> checks = new ArrayList<>();
    for (Transaction.DataOverlayGroup g : groups) {
      long frag = g.getFragmentId();
      if (!modified.contains(frag)) {
        continue;
      }
      if (removed.contains(frag)) {
        return p.retry(Set.of(frag), "fragment " + Long.toUnsignedString(frag) + " is overlaid by the committed transaction "
            + "and every row of it moves here, computed without the overlay");
      }
      Optional<DeletionVector> coverage = LegacyOps.overlayCoverage(g);
      if (coverage.isEmpty()) {
        return p.retry(Set.of(frag), "the committed overlay of fragment " + Long.toUnsignedString(frag)
            + " states no readable coverage, so the rows moved here may lose its values");
      }
      checks.add(new OurMovedRowsAgainstTheirOverlay(frag, coverage.get()));
    }
    if (checks.isEmpty()) {
      return p.ok("the committed overlays are on fragments this Update does not change");
    }
    return p.ok("this Update moves rows out of overlaid fragments; the moved rows must miss the overlay coverage", checks);
  }

  private static LegacyVerdict project(Pair p) {
    switch (p.t) {
      case MERGE:
      case PROJECT:
        return p.retry("the schema must be recomputed over the committed " + p.t.operationName());
      case OVERWRITE:
      case RESTORE:
      case UPDATE_MEM_WAL_STATE:
        return p.inc("it replaced the table (or its MemWAL state) this Project was built on");
      default:
        return p.ok("it does not change the schema");
    }
  }

  private static LegacyVerdict updateConfig(Pair p) {
    Transaction.UpdateConfig mine = p.ours.getUpdateConfig();
    switch (p.t) {
      case OVERWRITE: {
        if (LegacyOps.schemaMetadataUpdate(mine).isPresent() || !LegacyOps.fieldMetadataUpdates(mine).isEmpty()) {
          return p.inc("this UpdateConfig changes schema or field metadata of a schema the Overwrite replaced");
        }
        Optional<String> key = LegacyOps.upsertKeyConflict(p.ours, p.theirs);
        if (key.isPresent()) {
          return p.inc("both write config key '" + key.get() + "'");
        }
        return p.ok("the config keys are disjoint");
      }
      case UPDATE_CONFIG: {
        Optional<String> key = LegacyOps.upsertKeyConflict(p.ours, p.theirs);
        if (key.isPresent()) {
          return p.inc("both write config key '" + key.get() + "'");
        }
        Optional<String> same = LegacyOps.modifiesSameMetadata(mine, p.theirs.getUpdateConfig());
        if (same.isPresent()) {
          return p.inc("both modify " + same.get());
        }
        return p.ok("the two updates touch different keys");
      }
      default:
        return p.ok("it does not touch config or metadata");
    }
  }

  private static LegacyVerdict updateMemWalState(Pair p) {
    List<TableProtos.CompactedSsTable> mine = p.ours.getUpdateMemWalState().getCompactedSstablesList();
    switch (p.t) {
      case UPDATE_MEM_WAL_STATE:
        return compactedSsTables(p, p.theirs.getUpdateMemWalState().getCompactedSstablesList(), mine);
      case UPDATE:
        return compactedSsTables(p, p.theirs.getUpdate().getCompactedSstablesList(), mine);
      case CREATE_INDEX: {
        for (TableProtos.IndexMetadata idx : p.theirs.getCreateIndex().getNewIndicesList()) {
          if (!idx.getName().equals(LegacyOps.MEM_WAL_INDEX)) {
            continue;
          }
          Optional<List<TableProtos.CompactedSsTable>> progress = LegacyOps.memWalProgress(idx);
          if (progress.isEmpty()) {
            return p.retry("the committed MemWAL index details cannot be read, so its compaction progress "
                + "cannot be compared (fail closed)");
          }
          return compactedSsTables(p, progress.get(), mine);
        }
        return p.ok("the committed CreateIndex does not touch the MemWAL index");
      }
      case UPDATE_CONFIG:
      case REWRITE:
      case RESERVE_FRAGMENTS:
      case UPDATE_BASES:
        return p.ok("it does not touch MemWAL state or the rows it tracks");
      default:
        return p.inc("a MemWAL state update does not rebase over a committed " + p.t.operationName());
    }
  }

  private static LegacyVerdict updateBases(Pair p) {
    if (p.t != UPDATE_BASES) {
      return p.ok("base paths are independent of it");
    }
    for (TableProtos.BasePath mine : p.ours.getUpdateBases().getNewBasesList()) {
      for (TableProtos.BasePath other : p.theirs.getUpdateBases().getNewBasesList()) {
        if (mine.getId() != 0 && mine.getId() == other.getId()) {
          return p.inc("both add base path id " + Integer.toUnsignedString(mine.getId()));
        }
        if (mine.hasName() && other.hasName() && mine.getName().equals(other.getName())) {
          return p.inc("both add a base path named '" + mine.getName() + "'");
        }
        if (mine.getPath().equals(other.getPath())) {
          return p.inc("both add a base path at '" + mine.getPath() + "'");
        }
      }
    }
    return p.ok("the new base paths differ in id, name and location");
  }

  // ---- shared rules --------------------------------------------------------------------------

  /** Fragments a Delete/Update changes or removes. */
  static Set<Long> modifiedByDeleteOrUpdate(Transaction t) {
    Set<Long> ids = new TreeSet<>(LegacyOps.updatedIds(t));
    ids.addAll(LegacyOps.removedIds(t));
    return ids;
  }

  private static LegacyVerdict overlapRetry(Pair p, Set<Long> ours, Set<Long> theirs, String how) {
    Set<Long> shared = LegacyOps.intersection(ours, theirs);
    if (!shared.isEmpty()) {
      return p.retry(shared, "fragments " + LegacyOps.ids(shared) + " are " + how);
    }
    return p.ok("they touch different fragments");
  }

  /**
   * Delete/Update against Delete/Update: fragments both changed are decided row by row in the
   * second phase; a fragment either side removed outright cannot be (Lancet retries when we
   * removed a fragment they changed, where upstream would try to merge deletion files).
   */
  private static LegacyVerdict deleteUpdatePair(Pair p) {
    Set<Long> ourUpdated = LegacyOps.updatedIds(p.ours);
    Set<Long> ourRemoved = LegacyOps.removedIds(p.ours);
    Set<Long> theirUpdated = LegacyOps.updatedIds(p.theirs);
    Set<Long> theirRemoved = LegacyOps.removedIds(p.theirs);
    Set<Long> ours = modifiedByDeleteOrUpdate(p.ours);
    Set<Long> theirs = modifiedByDeleteOrUpdate(p.theirs);
    Set<Long> shared = LegacyOps.intersection(ours, theirs);
    if (shared.isEmpty()) {
      return p.ok("they change different fragments");
    }
    if (ourUpdated.isEmpty()) {
      return p.retry(shared, "this " + p.o.operationName() + " removes whole fragments " + LegacyOps.ids(shared)
          + " that the committed transaction also changed, and records no rows to merge");
    }
    Set<Long> removedByThem = LegacyOps.intersection(ours, theirRemoved);
    if (!removedByThem.isEmpty()) {
      return p.retry(removedByThem, "fragments " + LegacyOps.ids(removedByThem) + " are changed here and were removed by the committed "
          + p.t.operationName());
    }
    Set<Long> removedByUs = LegacyOps.intersection(ourRemoved, theirUpdated);
    if (!removedByUs.isEmpty()) {
      return p.retry(removedByUs, "fragments " + LegacyOps.ids(removedByUs) + " are removed here and were changed by the committed "
          + p.t.operationName());
    }
    Set<Long> both = LegacyOps.intersection(ourUpdated, theirUpdated);
    return p.ok("both changed fragments " + LegacyOps.ids(both) + "; their affected rows must not intersect",
        List.of(new IntersectDeletions(both)));
  }

  /** MemWAL progress: committed at or past our generation of a shard is final; behind it, retry. */
  private static LegacyVerdict compactedSsTables(Pair p, List<TableProtos.CompactedSsTable> committed,
      List<TableProtos.CompactedSsTable> toCommit) {
    for (TableProtos.CompactedSsTable c : committed) {
      for (TableProtos.CompactedSsTable mine : toCommit) {
        if (!c.getShardId().getUuid().equals(mine.getShardId().getUuid())) {
          continue;
        }
        if (Long.compareUnsigned(c.getGeneration(), mine.getGeneration()) >= 0) {
          return p.inc("MemWAL shard " + LegacyOps.shard(c) + " is already compacted to generation "
              + Long.toUnsignedString(c.getGeneration()) + ", at or past this transaction's generation "
              + Long.toUnsignedString(mine.getGeneration()));
        }
        return p.retry("both record compaction of MemWAL shard " + LegacyOps.shard(c) + " (committed generation "
            + Long.toUnsignedString(c.getGeneration()) + " < ours " + Long.toUnsignedString(mine.getGeneration()) + ")");
      }
    }
    return p.ok("they record progress of different MemWAL shards");
  }

  private static IllegalStateException unreachable(Pair p) {
    return new IllegalStateException("unreachable pair " + p.o + " / " + p.t);
  }

  /** One directional pair, with its verdict constructors. */
  private record Pair(Transaction ours, Transaction theirs, LegacyKind o, LegacyKind t) {
    private String prefix() {
      return "this " + o.operationName() + " (" + ours.getUuid() + ") against the committed "
          + t.operationName() + " (" + theirs.getUuid() + "): ";
    }

    LegacyVerdict ok(String why) {
      return LegacyVerdict.ok(prefix() + why);
    }

    LegacyVerdict ok(String why, List<SecondPhaseObligation> obligations) {
      return LegacyVerdict.ok(prefix() + why, obligations);
    }

    LegacyVerdict retry(String why) {
      return retry(Set.of(), why);
    }

    /** A retryable verdict of the legacy matrix, naming the {@code fragments} it is about. */
    LegacyVerdict retry(Set<Long> fragments, String why) {
      return LegacyVerdict.retryable(new Collision.LegacyRule(o.operationName(), t.operationName(),
          List.copyOf(new TreeSet<>(fragments)), prefix() + why + "; retry against the newer version"));
    }

    LegacyVerdict inc(String why) {
      return inc(Set.of(), why);
    }

    LegacyVerdict inc(Set<Long> fragments, String why) {
      return LegacyVerdict.incompatible(new Collision.LegacyRule(o.operationName(), t.operationName(),
          List.copyOf(new TreeSet<>(fragments)), prefix() + why + "; no retry can succeed, rebuild the transaction"));
    }
  }
}
