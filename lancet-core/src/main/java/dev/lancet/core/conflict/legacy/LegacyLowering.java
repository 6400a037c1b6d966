package dev.lancet.core.conflict.legacy;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RefreshRowVersionMetadata;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.operation.UpdateConfig;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import dev.lancet.format.pb.TransactionProtos.Transaction;

/**
 * Lowers a committed Merge or Project to the actions that take its own read version's manifest
 * to the manifest it produced (and an UpdateConfig or ReserveFragments to the one action that
 * says the same) (seed §3 option C point 2): the delta is a schema diff against
 * the read version, never against a later manifest (seed §3, the worked example of two Merges
 * in a row). Merge and Project are never restamped (seed §3 constraint 2), so their recorded
 * read version is the base they were planned on.
 *
 * <ul>
 *   <li>Merge: a field the read schema lacks is an {@code AddField} (ids minted in pre-order,
 *       as Lance assigns them); a data file a fragment gained, holding only added fields, is an
 *       {@code AddDataFile} into that fragment; a fragment it left out is a {@code RemoveFragment}.
 *   <li>Project: a field the new schema lacks is a {@code DropField} (its files pruned by the
 *       drop), a renamed field an {@code AlterField} rename.
 * </ul>
 *
 * A Rewrite is lowered against the version it was applied onto ({@link #rewrite}): lance-core
 * rebuilds its payload against the newest version while keeping the read version it recorded.
 *
 * <p>Anything else (a field whose type, nullability, parent or metadata changed, a fragment whose
 * rows, deletions or existing files changed, schema metadata) has no faithful lowering here: the
 * result is empty with the reason, and the caller fails closed.
 */
public final class LegacyLowering {
  private LegacyLowering() {}

  /** A lowering, or why there is none. */
  public record Result(Optional<CompositeOperation> operation, String whyNot) {
    public Result {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(whyNot, "whyNot");
    }

    static Result of(String description, List<Action> actions) {
      return new Result(Optional.of(new CompositeOperation(List.of(new UserStep(description, actions)))), "");
    }

    static Result none(String why) {
      return new Result(Optional.empty(), why);
    }
  }

  /** An UpdateConfig: one ConfigUpdate with the same map updates (needs no base). */
  public static Result updateConfig(Transaction t) {
    UpdateConfig u;
    try {
      u = (UpdateConfig) LegacyOperationCodec.decode(t);
    } catch (RuntimeException e) {
      return Result.none("its config update cannot be read (" + e.getMessage() + ")");
    }
    List<ConfigUpdate.FieldMetadataUpdate> fields = new ArrayList<>();
    new java.util.TreeMap<>(u.fieldMetadataUpdates()).forEach((id, map) ->
        fields.add(new ConfigUpdate.FieldMetadataUpdate(Ref.committed(id), map)));
    return Result.of("update config", List.of(new ConfigUpdate(u.configUpdates(), u.tableMetadataUpdates(),
        u.schemaMetadataUpdates(), fields)));
  }

  /** A ReserveFragments: a ReserveFragmentIds of the same count (a counter, no footprint). */
  public static Result reserveFragments(Transaction t) {
    long n = Integer.toUnsignedLong(t.getReserveFragments().getNumFragments());
    return Result.of("reserve " + n + " fragment ids", List.of(new ReserveFragmentIds(n)));
  }

  /** A Merge planned on {@code read} that produced {@code landed}. */
  public static Result merge(Manifest read, Manifest landed) {
    Schema from = read.schema();
    Schema to = landed.schema();
    if (!from.metadata().equals(to.metadata())) {
      return Result.none("the Merge changes the schema metadata");
    }
    Map<Integer, Field> old = from.byId();
    Map<Integer, Field> now = to.byId();
    for (Field f : old.values()) {
      Field g = now.get(f.id());
      if (g == null) {
        return Result.none("the Merge drops field " + f.id() + " ('" + f.name() + "')");
      }
      if (!g.equals(f)) {
        return Result.none("the Merge changes field " + f.id() + " ('" + f.name() + "')");
      }
    }
    List<Action> actions = new ArrayList<>();
    Map<Integer, Integer> tokenOf = new HashMap<>();
    // Pre-order over the new schema: a parent is minted before its children.
    for (Field f : preOrder(to)) {
      if (old.containsKey(f.id())) {
        continue;
      }
      int token = tokenOf.size();
      tokenOf.put(f.id(), token);
      Optional<Ref> parent = f.parentId() == Field.NO_PARENT ? Optional.empty()
          : Optional.of(tokenOf.containsKey(f.parentId()) ? Ref.local(tokenOf.get(f.parentId()))
              : Ref.committed(f.parentId()));
      actions.add(new AddField(token, parent, f));
    }
    Map<Long, Fragment> before = new HashMap<>();
    read.fragments().forEach(f -> before.put(f.id(), f));
    Set<Long> seen = new HashSet<>();
    List<Long> refresh = new ArrayList<>();
    for (Fragment f : landed.fragments()) {
      Fragment b = before.get(f.id());
      if (b == null) {
        return Result.none("the Merge adds fragment " + f.id() + ", which its read version lacks");
      }
      seen.add(f.id());
      // With stable row ids the rows of a fragment given a new column are stamped as updated by
      // the Merge's version (a row-version refresh); nothing else of the fragment may change.
      boolean refreshed = !f.lastUpdatedAtVersions().equals(b.lastUpdatedAtVersions());
      if (refreshed) {
        refresh.add(f.id());
      }
      if (f.files().size() < b.files().size() || !f.files().subList(0, b.files().size()).equals(b.files())
          || !f.toBuilder().files(b.files()).lastUpdatedAtVersions(b.lastUpdatedAtVersions()).build().equals(b)) {
        return Result.none("the Merge changes fragment " + f.id() + " beyond adding data files");
      }
      for (DataFile file : f.files().subList(b.files().size(), f.files().size())) {
        List<Ref> fields = new ArrayList<>();
        for (int id : file.fields()) {
          if (!tokenOf.containsKey(id)) {
            return Result.none("the Merge's new file " + file.path() + " in fragment " + f.id()
                + " holds field " + id + ", which the Merge does not add");
          }
          fields.add(Ref.local(tokenOf.get(id)));
        }
        actions.add(new AddDataFile(Ref.committed(f.id()), file, fields, true));
      }
    }
    for (Fragment b : read.fragments()) {
      if (!seen.contains(b.id())) {
        actions.add(new RemoveFragment(Ref.committed(b.id()), true));
      }
    }
    if (!refresh.isEmpty()) {
      actions.add(new RefreshRowVersionMetadata(refresh));
    }
    return Result.of("merge: add " + tokenOf.size() + " field(s)", actions);
  }

  /**
   * A committed Rewrite (compaction) that produced {@code landed} on {@code before} (the version
   * it was applied onto): a {@code RemoveFragment} of every fragment it rewrote, then per new
   * fragment (those {@code landed} has and {@code before} lacks, in id order) an
   * {@code AddFragment} carrying the row ids and row versions lance-core wrote and an
   * {@code AddDataFile} per file, all with {@code data_change = false} (seed §3 constraint 1).
   * The new fragments are taken from the manifest, not the transaction, which may carry them
   * before their ids were assigned.
   *
   * <p>lance-core's {@code compact()} reserves the new fragments' ids in a ReserveFragments
   * version just before the Rewrite: a new id at or below the base's {@code max_fragment_id} is
   * added as that reserved Committed id (a deletion file on it is a {@code SetDeletionFile});
   * an id above it must be the next one the apply mints for a Local token.
   *
   * <p>No lowering (empty, with the reason) where actions cannot say it: a minted (Local) new
   * fragment with a deletion file (it cannot be named by id, so no SetDeletionFile reaches it),
   * new fragment ids other than reserved ones or the ones the apply mints,
   * a file holding a field that is not in the schema, a fragment kept but changed, remapped or
   * replaced index segments (kept for the footprint route, which claims them), and a fragment
   * order other than ascending ids (lance-core puts a group's new fragments where its old ones
   * were, Lancet's apply orders fragments by id). The footprint of a Rewrite does not depend on
   * this lowering ({@link LegacyFootprints}); it is the proof that the route's claims describe
   * what lance-core wrote (LanceRewriteLoweringInteropTest).
   */
  public static Result rewrite(Transaction t, Manifest before, List<IndexSegment> beforeIndices,
      Manifest landed, List<IndexSegment> landedIndices) {
    if (!t.hasRewrite()) {
      return Result.none("not a Rewrite");
    }
    if (!new HashSet<>(beforeIndices).equals(new HashSet<>(landedIndices))) {
      return Result.none("the Rewrite remapped or replaced index segments, which this lowering does not express");
    }
    Set<Long> rewritten = LegacyOps.rewrittenIds(t);
    Map<Long, Fragment> old = new HashMap<>();
    before.fragments().forEach(f -> old.put(f.id(), f));
    for (long id : rewritten) {
      if (!old.containsKey(id)) {
        return Result.none("the Rewrite rewrote fragment " + id + ", which version " + before.version() + " lacks");
      }
    }
    List<Long> order = new ArrayList<>();
    landed.fragments().forEach(f -> order.add(f.id()));
    List<Long> sorted = new ArrayList<>(order);
    sorted.sort(null);
    if (!order.equals(sorted)) {
      return Result.none("lance-core placed the new fragments among the kept ones (fragment order " + order
          + "); Lancet's apply orders fragments by id");
    }
    List<Action> actions = new ArrayList<>();
    for (long id : rewritten) {
      actions.add(new RemoveFragment(Ref.committed(id), false));
    }
    // lance-core's compact() reserves the new ids first (a ReserveFragments version before the
    // Rewrite): an id up to the base's max_fragment_id is such a reserved id, added as Committed.
    long reservedUpTo = before.maxFragmentId().orElse(-1);
    long nextId = reservedUpTo + 1;
    Set<Integer> fields = before.schema().byId().keySet();
    int token = 0;
    int added = 0;
    for (Fragment f : landed.fragments()) {
      Fragment b = old.get(f.id());
      if (b != null) {
        if (rewritten.contains(f.id()) || !b.equals(f)) {
          return Result.none("the Rewrite changes fragment " + f.id() + ", which it does not replace");
        }
        continue;
      }
      Ref ref;
      if (f.id() <= reservedUpTo) {
        ref = Ref.committed(f.id());
      } else if (f.id() == nextId) {
        ref = Ref.local(token++);
        nextId++;
      } else {
        return Result.none("the Rewrite's new fragment " + f.id() + " is neither a reserved id nor the id the apply mints ("
            + nextId + ")");
      }
      if (f.deletionFile().isPresent() && !(ref instanceof Ref.Committed)) {
        return Result.none("the Rewrite's new fragment " + f.id() + " has a deletion file, which no action sets on a minted fragment");
      }
      added++;
      actions.add(new AddFragment(ref, f.physicalRows(), f.rowIds(), f.lastUpdatedAtVersions(),
          f.createdAtVersions(), false));
      for (DataFile file : f.files()) {
        List<Ref> refs = new ArrayList<>();
        for (int id : file.fields()) {
          if (!fields.contains(id)) {
            return Result.none("the Rewrite's file " + file.path() + " holds field " + id + ", which is not in the schema");
          }
          refs.add(Ref.committed(id));
        }
        actions.add(new AddDataFile(ref, file, refs, false));
      }
      if (f.deletionFile().isPresent()) {
        actions.add(new SetDeletionFile(f.id(), f.deletionFile(), false));
      }
    }
    for (long id : rewritten) {
      if (landed.fragments().stream().anyMatch(f -> f.id() == id)) {
        return Result.none("the Rewrite keeps fragment " + id + ", which it says it rewrote");
      }
    }
    return Result.of("compaction: rewrite " + rewritten.size() + " fragment(s) into " + added, actions);
  }

  /** A Project planned on {@code read} that produced {@code landed}. */
  public static Result project(Manifest read, Manifest landed) {
    Schema from = read.schema();
    Schema to = landed.schema();
    if (!from.metadata().equals(to.metadata())) {
      return Result.none("the Project changes the schema metadata");
    }
    Map<Integer, Field> now = to.byId();
    Map<Integer, Field> old = from.byId();
    for (Field g : now.values()) {
      if (!old.containsKey(g.id())) {
        return Result.none("the Project adds field " + g.id() + " ('" + g.name() + "')");
      }
    }
    List<Action> actions = new ArrayList<>();
    Set<Integer> dropped = new HashSet<>();
    for (Field f : preOrder(from)) {
      Field g = now.get(f.id());
      if (g == null) {
        if (!dropped.contains(f.parentId())) {
          // Dropping a parent drops its children with it.
          actions.add(new DropField(Ref.committed(f.id())));
        }
        dropped.add(f.id());
        continue;
      }
      if (g.equals(f)) {
        continue;
      }
      if (g.withName(f.name()).equals(f)) {
        actions.add(AlterField.rename(Ref.committed(f.id()), g.name()));
      } else {
        return Result.none("the Project changes field " + f.id() + " ('" + f.name()
            + "') other than by a rename");
      }
    }
    return Result.of("project: drop " + dropped.size() + " field(s)", actions);
  }

  private static List<Field> preOrder(Schema s) {
    List<Field> out = new ArrayList<>();
    for (Field top : s.topLevel()) {
      walk(s, top, out);
    }
    return out;
  }

  private static void walk(Schema s, Field f, List<Field> out) {
    out.add(f);
    for (Field c : s.children(f.id())) {
      walk(s, c, out);
    }
  }
}
