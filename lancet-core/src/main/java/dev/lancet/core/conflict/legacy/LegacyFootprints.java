package dev.lancet.core.conflict.legacy;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.Ref;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.core.conflict.IndexClaim;
import dev.lancet.core.conflict.Mode;
import dev.lancet.core.conflict.Region;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * The footprint of a transaction for comparison with a composite operation (seed §9.1's
 * {@code footprint_of}, v2-semantics §5.3), or empty where no faithful footprint exists and the
 * pair must fail closed.
 *
 * <p>A lowering is faithful only if it claims everything the operation's <em>legacy apply</em>
 * (Lancet's {@code LegacyApply}) changes. Lancet applies a Delete as a delta: it takes only the
 * deletion file of each fragment it names and keeps everything else of the fragment as the
 * newest version has it, so its footprint is exactly that of {@code SetDeletionFile} (plus the
 * fragment it needs) and {@code RemoveFragment}. An Update moves rows and replays its file
 * changes, so it keeps a whole-fragment claim (a {@link Region.Fragment} write): a concurrent
 * overlay of a moved row, or a concurrent column rewrite, always collides.
 *
 * <ul>
 *   <li>Append: inserts rows (minted fragments only), each fragment backing the fields its
 *       files hold.</li>
 *   <li>Delete: a row-level delete (as SetDeletionFile with a file; the fragment required) per
 *       updated fragment; a removal per deleted fragment.</li>
 *   <li>Update (REWRITE_ROWS only): a whole-fragment write per updated fragment and a removal
 *       per removed one, plus inserted rows, the key assertion its
 *       inserted-key filter makes, and a MemWAL claim when it records compaction progress.
 *       REWRITE_COLUMNS is left untranslated, as upstream does.</li>
 *   <li>UpdateBases: base name and location writes, as AddBase; only when every base leaves
 *       its id to the apply (an explicit id could collide with an id a composite mints).</li>
 *   <li>CreateIndex: a segment write per removed segment and an index claim per new one, as
 *       RemoveIndexSegment and AddIndexSegment.</li>
 *   <li>DataOverlay: partial field writes and the overlaid cells per field, as AddOverlays
 *       (overlays are appended, never replaced); not when a coverage bitmap is unreadable.</li>
 *   <li>DataReplacement: field-data writes in the named fragments that change the values in
 *       place, as a data-changing TombstoneFieldData + AddDataFile; not when a replaced file
 *       names an uncommitted (negative) field.</li>
 *   <li>UpdateMemWalState: a MemWAL index claim, as UpdateCompactedSsTables; not when it
 *       carries a field this build does not know (such as tag 2, the removed
 *       require_index_catchup).</li>
 *   <li>CompositeOperation: its own footprint; empty if its actions cannot be decoded.</li>
 *   <li>Overwrite, Rewrite, Merge, Restore, ReserveFragments, Project, UpdateConfig, Clone: none
 *       from the transaction alone.</li>
 * </ul>
 *
 * <p>A <em>committed</em> legacy winner is lowered with the manifests around it
 ({@link #ofCommitted(Transaction)}, and for Rewrite, Merge and Project with the manifests around
 * it, {@link #ofCommitted(Transaction, CommittedVersions)}; docs/decisions/0022): Rewrite, Merge,
 * Project, UpdateConfig, ReserveFragments, Overwrite and Restore then have footprints (Clone still
 * has none). Until issue 15 those seven kinds failed closed against every composite operation
 * (seed §9, row CO).
 */
public final class LegacyFootprints {
  private LegacyFootprints() {}

  public static Optional<Footprint> of(Transaction t) {
    return whyNotOrFootprint(t).footprint;
  }

  /** Why {@code t} has no footprint (a short phrase), or "it has one". */
  public static String whyNot(Transaction t) {
    return whyNotOrFootprint(t).whyNot;
  }

  /** A footprint, or why there is none (a short phrase). */
  public record Lowering(Optional<Footprint> footprint, String whyNot) {
    static Lowering of(FootprintBuilder fp) {
      return new Lowering(Optional.of(fp.build()), "it has one");
    }

    static Lowering none(String why) {
      return new Lowering(Optional.empty(), why);
    }
  }

  /**
   * Whether the footprint of a committed {@code t} depends on the manifests around it
   * ({@link #ofCommitted(Transaction, CommittedVersions)}): a Rewrite, a Merge and a Project.
   * Every other kind is lowered from the transaction alone ({@link #ofCommitted(Transaction)}),
   * so that checking a lance-core ingestion winner costs no extra request.
   */
  public static boolean readsVersions(Transaction t) {
    return switch (t.getOperationCase()) {
      case REWRITE, MERGE, PROJECT -> true;
      default -> false;
    };
  }

  /**
   * The footprint of {@code t} as a committed winner, from the transaction alone
   * (docs/decisions/0022): as {@link #of}, and besides
   *
   * <ul>
   *   <li>UpdateConfig: as ConfigUpdate (a key write per key, a map region per replacement);
   *   <li>ReserveFragments: nothing (a counter, as ReserveFragmentIds);
   *   <li>Overwrite, Restore: the whole table (as ResetTable): every composite collides.
   * </ul>
   *
   * A fragment a winner dropped beyond its payload (lance-core's Append drops fragments whose
   * rows are all deleted) is claimed by {@link #ofCommitted(Transaction, CommittedVersions)} when
   * the manifests around the winner are at hand; without them, a committing transaction that
   * names it is stopped when it is re-applied: the commit loop reports it as a conflict with
   * the version that removed it (decision 0022, rule 5).
   */
  public static Lowering ofCommitted(Transaction t) {
    return ofCommitted(t, Footprint.builder());
  }

  private static Lowering ofCommitted(Transaction t, FootprintBuilder fp) {
    switch (t.getOperationCase()) {
      case OVERWRITE:
      case RESTORE:
        return Lowering.of(fp.takeExclusive());
      case RESERVE_FRAGMENTS:
      case UPDATE_CONFIG: {
        LegacyLowering.Result lowered = t.hasUpdateConfig() ? LegacyLowering.updateConfig(t)
            : LegacyLowering.reserveFragments(t);
        if (lowered.operation().isEmpty()) {
          return Lowering.none(lowered.whyNot());
        }
        for (dev.lancet.core.action.Action a : lowered.operation().get().actions()) {
          a.footprint(fp);
        }
        return Lowering.of(fp);
      }
      default:
        return whyNotOrFootprint(t, fp);
    }
  }

  /**
   * The footprint of {@code t}, committed as version {@code v.landed()}, lowered against the
   * manifests around it (seed §3 option C point 2; docs/decisions/0022):
   *
   * <ul>
   *   <li>Rewrite (compaction): a removal of every fragment it rewrote; its new fragments are
   *       not data changes (no inserted rows, so no key assertion meets them); a segment write
   *       and an index claim over the rewritten fragments for every index segment it remapped
   *       or replaced.
   *   <li>Merge, Project: the footprint of their lowering against their own read version
   *       ({@link LegacyLowering}; they are never restamped, seed §3 constraint 2); fail closed
   *       when that version was cleaned up or no faithful lowering exists.
   *   <li>Each of them also removes every fragment its version dropped (in the version before
   *       it or in its read version, and not in its manifest).
   *   <li>Any other kind (an Append, a Delete, ...): {@link #ofCommitted(Transaction)}, plus a
   *       removal of every fragment in {@code v.before()} that is not in {@code v.landed()}
   *       beyond its payload (lance-core's Append drops fragments whose rows are all deleted).
   *       Only the published step V−1 → V is diffed, never the recorded read version: Delete,
   *       Update and DataOverlay restamp theirs (seed §3 constraint 3), and V−1 → V is what the
   *       version did whatever its transaction says it read. The commit path passes the
   *       manifests only when it holds them already (no request for a payload kind).
   * </ul>
   */
  public static Lowering ofCommitted(Transaction t, CommittedVersions v) {
    if (!readsVersions(t)) {
      Lowering payload = ofCommitted(t, removedBetween(Footprint.builder(), v));
      // A kind with no faithful footprint stays without one: the removals do not make it one.
      return payload.footprint().isPresent() ? payload : ofCommitted(t);
    }
    FootprintBuilder fp = Footprint.builder();
    if (t.hasRewrite()) {
      rewrite(fp, t, v);
    } else {
      if (v.read().isEmpty()) {
        return Lowering.none("its read version " + Long.toUnsignedString(t.getReadVersion())
            + " was cleaned up, and a " + (t.hasMerge() ? "Merge" : "Project")
            + " lowers only by a schema diff against it");
      }
      LegacyLowering.Result lowered = t.hasMerge()
          ? LegacyLowering.merge(v.read().get(), v.landed())
          : LegacyLowering.project(v.read().get(), v.landed());
      if (lowered.operation().isEmpty()) {
        return Lowering.none(lowered.whyNot());
      }
      for (dev.lancet.core.action.Action a : lowered.operation().get().actions()) {
        a.footprint(fp);
      }
    }
    return Lowering.of(removals(fp, v));
  }

  /** Removes every fragment in the version before that the version lacks (V−1 → V only). */
  private static FootprintBuilder removedBetween(FootprintBuilder fp, CommittedVersions v) {
    for (long id : v.removedFragments(false)) {
      fp.removeFragment(Ref.committed(id));
    }
    return fp;
  }

  /** Removes every fragment the version dropped (see {@link #ofCommitted}). */
  private static FootprintBuilder removals(FootprintBuilder fp, CommittedVersions v) {
    for (long id : v.removedFragments(true)) {
      fp.removeFragment(Ref.committed(id));
    }
    return fp;
  }

  /**
   * A compaction: its rewritten fragments removed, its new ones no data change; the index
   * segments it remapped (stable row ids) or replaced (rewritten indices) claimed over the
   * fragments it rewrote and wrote.
   */
  private static void rewrite(FootprintBuilder fp, Transaction t, CommittedVersions v) {
    List<Ref> touched = new ArrayList<>();
    for (long id : LegacyOps.rewrittenIds(t)) {
      fp.removeFragment(Ref.committed(id));
      touched.add(Ref.committed(id));
    }
    java.util.Set<Long> landedIds = CommittedVersions.ids(v.landed());
    for (long id : landedIds) {
      if (!CommittedVersions.ids(v.before()).contains(id)) {
        touched.add(Ref.committed(id));
      }
    }
    java.util.Map<java.util.UUID, dev.lancet.format.model.IndexSegment> after = new java.util.HashMap<>();
    v.landedIndices().forEach(s -> after.put(s.uuid(), s));
    java.util.Set<java.util.UUID> beforeIds = new java.util.HashSet<>();
    for (dev.lancet.format.model.IndexSegment s : v.beforeIndices()) {
      beforeIds.add(s.uuid());
      if (!s.equals(after.get(s.uuid()))) {
        fp.write(new Coordinate.IndexSegment(s.uuid()));
        fp.extendIndexCoverage(s.name(), touched);
      }
    }
    for (dev.lancet.format.model.IndexSegment s : v.landedIndices()) {
      if (!beforeIds.contains(s.uuid())) {
        fp.write(new Coordinate.IndexSegment(s.uuid()));
        fp.extendIndexCoverage(s.name(), touched);
      }
    }
  }

  private static Lowering whyNotOrFootprint(Transaction t) {
    return whyNotOrFootprint(t, Footprint.builder());
  }

  private static Lowering whyNotOrFootprint(Transaction t, FootprintBuilder fp) {
    switch (t.getOperationCase()) {
      case APPEND:
        backFragments(fp, t.getAppend().getFragmentsList());
        return Lowering.of(fp.insertRows());
      case DELETE:
        for (long id : LegacyOps.updatedIds(t)) {
          // Lancet's apply takes only the new deletion file: a row-level delete, as SetDeletionFile.
          if (LegacyOps.updatedFragment(t, id).map(TableProtos.DataFragment::hasDeletionFile).orElse(false)) {
            fp.deleteRows(id);
          } else {
            fp.write(new Coordinate.FragmentDeletions(id));
          }
          fp.requireFragment(Ref.committed(id));
        }
        for (long id : LegacyOps.removedIds(t)) {
          fp.removeFragment(Ref.committed(id));
        }
        return Lowering.of(fp);
      case UPDATE: {
        Transaction.Update u = t.getUpdate();
        if (u.getUpdateMode() != Transaction.UpdateMode.REWRITE_ROWS) {
          return Lowering.none("an Update that rewrites columns in place depends on its read version's files");
        }
        postImage(fp, t);
        if (u.getNewFragmentsCount() > 0) {
          fp.insertRows();
        }
        backFragments(fp, u.getNewFragmentsList());
        if (u.hasInsertedRows()) {
          List<Ref> keys = new ArrayList<>();
          u.getInsertedRows().getFieldIdsList().forEach(f -> keys.add(Ref.committed(f)));
          fp.assertUniqueKeys(keys, LegacyOps.filter(u.getInsertedRows()));
        }
        if (u.getCompactedSstablesCount() > 0) {
          fp.rewriteIndex(LegacyOps.MEM_WAL_INDEX);
        }
        return Lowering.of(fp);
      }
      case UPDATE_BASES:
        for (TableProtos.BasePath b : t.getUpdateBases().getNewBasesList()) {
          if (b.getId() != 0) {
            return Lowering.none("base path id " + Integer.toUnsignedString(b.getId())
                + " is chosen by the writer and could collide with an id a composite mints");
          }
          if (b.hasName()) {
            fp.write(new Coordinate.BaseName(b.getName()));
          }
          fp.write(new Coordinate.BaseLocation(b.getPath()));
        }
        return Lowering.of(fp);
      case CREATE_INDEX:
        for (TableProtos.IndexMetadata removed : t.getCreateIndex().getRemovedIndicesList()) {
          try {
            fp.write(new Coordinate.IndexSegment(IndexCodec.uuidFromProto(removed.getUuid(), "removed index")));
          } catch (RuntimeException e) {
            return Lowering.none("removed index '" + removed.getName() + "' has an unreadable uuid");
          }
        }
        for (TableProtos.IndexMetadata idx : t.getCreateIndex().getNewIndicesList()) {
          // Legacy form: fields = keys ++ covering; the identity keeps the two apart.
          int keyed = Math.max(0, idx.getFieldsCount() - idx.getCoveringFieldsCount());
          List<Ref> fields = new ArrayList<>();
          idx.getFieldsList().subList(0, keyed).forEach(f -> fields.add(Ref.committed(f)));
          List<Ref> covering = new ArrayList<>();
          idx.getCoveringFieldsList().forEach(f -> covering.add(Ref.committed(f)));
          Optional<List<Ref>> coverage = LegacyOps.fragmentBitmap(idx).map(LegacyFootprints::refs);
          fp.buildIndex(idx.getName(), new IndexClaim.Identity(fields, covering,
              idx.hasIndexDetails() ? Optional.of(idx.getIndexDetails()) : Optional.empty(),
              idx.hasIndexVersion() ? idx.getIndexVersion() : 0), coverage);
        }
        return Lowering.of(fp);
      case DATA_OVERLAY:
        for (Transaction.DataOverlayGroup g : t.getDataOverlay().getGroupsList()) {
          for (TableProtos.DataOverlayFile o : g.getOverlaysList()) {
            try {
              fp.overlay(Ref.committed(g.getFragmentId()), FragmentCodec.fromProto(o, g.getFragmentId()));
            } catch (RuntimeException e) {
              return Lowering.none("the overlay of fragment " + Long.toUnsignedString(g.getFragmentId())
                  + " states no readable coverage (" + e.getMessage() + ")");
            }
          }
        }
        return Lowering.of(fp);
      case DATA_REPLACEMENT:
        for (Transaction.DataReplacementGroup g : t.getDataReplacement().getReplacementsList()) {
          List<Ref> fields = new ArrayList<>();
          for (int field : g.getNewFile().getFieldsList()) {
            if (field < 0) {
              return Lowering.none("the replacement file for fragment " + Long.toUnsignedString(g.getFragmentId())
                  + " names field " + field + ", which is not a committed field");
            }
            fields.add(Ref.committed(field));
          }
          fp.writeFieldData(Ref.committed(g.getFragmentId()), fields);
          fp.rewriteCells(Ref.committed(g.getFragmentId()), fields);
        }
        return Lowering.of(fp);
      case UPDATE_MEM_WAL_STATE:
        if (!t.getUpdateMemWalState().getUnknownFields().asMap().isEmpty()) {
          return Lowering.none("it carries field(s) " + t.getUpdateMemWalState().getUnknownFields().asMap().keySet()
              + " this Lancet does not know (tag 2 was require_index_catchup, removed upstream)");
        }
        return Lowering.of(fp.rewriteIndex(LegacyOps.MEM_WAL_INDEX));
      case COMPOSITE_OPERATION:
        try {
          return new Lowering(Optional.of(Footprint.of(ActionCodec.decode(t.getCompositeOperation()))), "it has one");
        } catch (RuntimeException e) {
          return Lowering.none("its actions cannot be decoded: " + e.getMessage());
        }
      case OPERATION_NOT_SET:
        return Lowering.none("it carries no operation this Lancet knows");
      default:
        return Lowering.none("a " + LegacyKind.of(t).map(LegacyKind::operationName).orElse("?")
            + " is not expressed in actions");
    }
  }

  /**
   * An Update's updated fragments lose moved rows and gain or lose files (a whole-fragment
   * write); its removed fragments are removed.
   */
  private static void postImage(FootprintBuilder fp, Transaction t) {
    for (long id : LegacyOps.updatedIds(t)) {
      fp.write(new Coordinate.FragmentDeletions(id));
      fp.claimRegion(new Region.Fragment(id), Mode.WRITES);
    }
    for (long id : LegacyOps.removedIds(t)) {
      fp.removeFragment(Ref.committed(id));
    }
  }

  /** New fragments with the fields their files back (the rest read as null in them). */
  private static void backFragments(FootprintBuilder fp, List<TableProtos.DataFragment> fragments) {
    for (TableProtos.DataFragment f : fragments) {
      java.util.Set<Integer> fields = new java.util.LinkedHashSet<>();
      for (TableProtos.DataFile file : f.getFilesList()) {
        file.getFieldsList().stream().filter(id -> id >= 0).forEach(fields::add);
      }
      fp.addFragmentBacking(fields);
    }
  }

  private static List<Ref> refs(RoaringBitmap bitmap) {
    List<Ref> out = new ArrayList<>();
    bitmap.forEach((int f) -> out.add(Ref.committed(Integer.toUnsignedLong(f))));
    return out;
  }
}
