package dev.lancet.core.transaction;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AdjustIndexCoverage;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.AssertCellsUnchanged;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RefreshRowVersionMetadata;
import dev.lancet.core.action.RelocateRows;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.operation.Append;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.operation.Merge;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.operation.Project;
import dev.lancet.core.operation.Rewrite;
import dev.lancet.core.operation.Update;
import dev.lancet.core.operation.UpdateConfig;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The legacy form of a composite operation: the one legacy operation that expresses it exactly,
 * for the {@link WriteForm#LEGACY_WHEN_EXACT} write form (docs/decisions/0023). The opposite
 * direction, a committed legacy operation lowered to actions for the conflict check, is
 * {@code dev.lancet.core.conflict.legacy.LegacyLowering}.
 *
 * <p>"Exactly" means two things. The legacy operation's apply on the read version produces the
 * same manifest and index list as the composite's apply: this is not argued but checked, every
 * time — both are applied to the read version and compared field by field
 * ({@link ManifestParity}); any difference keeps the composite form. And its conflict rules
 * protect at least what the composite's footprint protects: only shapes whose legacy carrier
 * claims as much are lowered (a key assertion rides on an Update's {@code inserted_rows}, which
 * both Lancet's legacy rules and lance-core's check; an {@code AssertCellsUnchanged} only on a
 * fragment the Update moves rows out of, which the Update claims whole). Several statements in
 * one commit, reservations, overlays, column rewrites in place, index and base changes stay
 * composite, except a compaction's index coverage following its rows, which a Rewrite carries
 * (docs/decisions/0026).
 */
public final class LegacyForm {
  private LegacyForm() {}

  /** The lowered operation, or why the commit stays composite. */
  public record Outcome(Optional<LegacyOperation> operation, String whyNot) {
    static Outcome of(LegacyOperation op) {
      return new Outcome(Optional.of(op), "");
    }

    static Outcome none(String why) {
      return new Outcome(Optional.empty(), why);
    }
  }

  /**
   * The legacy operation that expresses {@code op}, planned against {@code read} (version
   * {@code readVersion}, with its {@code indices}), exactly; or why there is none.
   */
  public static Outcome lower(CompositeOperation op, Manifest read, List<IndexSegment> indices,
      long readVersion) {
    List<UserStep> steps = op.steps().stream().filter(s -> !s.actions().isEmpty()).toList();
    if (steps.size() != 1) {
      return Outcome.none(steps.isEmpty() ? "it has no action"
          : "it has " + steps.size() + " steps; a legacy operation is one statement");
    }
    UserStep step = steps.get(0);
    CompositeApply.Result composite;
    try {
      composite = CompositeApply.apply(read, indices, op, readVersion);
    } catch (RuntimeException e) {
      // The composite commit reports its own error, with the action named.
      return Outcome.none("its apply fails: " + e.getMessage());
    }
    List<LegacyOperation> candidates;
    try {
      candidates = candidates(step, read, indices, composite.manifest());
    } catch (NotLowerable e) {
      return Outcome.none(e.getMessage());
    }
    if (candidates.isEmpty()) {
      return Outcome.none("no legacy operation has its shape (" + shape(step) + ")");
    }
    ManifestHistory history = readOnly(read, indices, readVersion);
    String why = "";
    for (LegacyOperation candidate : candidates) {
      LegacyApply.Result legacy;
      try {
        legacy = LegacyApply.apply(read, indices, candidate, readVersion, history);
      } catch (RuntimeException e) {
        why = "a legacy " + candidate.operationName() + " of it does not apply: " + e.getMessage();
        continue;
      }
      Optional<String> difference = ManifestParity.difference(composite.manifest(),
          composite.indices(), legacy.manifest(), legacy.indices(), Set.of());
      if (difference.isEmpty()) {
        return Outcome.of(candidate);
      }
      why = "a legacy " + candidate.operationName() + " of it differs: " + difference.get();
    }
    return Outcome.none(why);
  }

  /** The legacy operations that may express {@code step}, most specific first. */
  private static List<LegacyOperation> candidates(UserStep step, Manifest read,
      List<IndexSegment> indices, Manifest post) {
    Shape s = new Shape(step.actions());
    if (s.only(ConfigUpdate.class)) {
      return s.count(ConfigUpdate.class) == 1
          ? List.of(updateConfig((ConfigUpdate) step.actions().get(0)))
          : List.of();
    }
    if (s.has(ResetTable.class)) {
      return s.only(ResetTable.class, AddField.class, ConfigUpdate.class, AddFragment.class,
          AddDataFile.class) && s.count(ResetTable.class) == 1 && s.schemaMetadataOnly()
          ? List.of(overwrite(s, post)) : List.of();
    }
    if (s.only(AddFragment.class, AddDataFile.class) && s.has(AddFragment.class)) {
      s.requireNewFragments(true);
      return List.of(new Append(newFragments(s, read, post)));
    }
    if (s.only(SetDeletionFile.class, RemoveFragment.class)) {
      s.requireDeletions();
      return List.of(delete(s, step.description(), post));
    }
    if (s.only(SetDeletionFile.class, RemoveFragment.class, RelocateRows.class, AddFragment.class,
        AddDataFile.class, AssertUniqueKeys.class, AssertCellsUnchanged.class)
        && (s.has(RelocateRows.class) || s.has(AssertUniqueKeys.class))) {
      s.requireDeletions();
      if (s.has(AddFragment.class)) {
        s.requireNewFragments(true);
      }
      return List.of(update(s, read, post));
    }
    if (s.only(RemoveFragment.class, AddFragment.class, AddDataFile.class,
        AdjustIndexCoverage.class) && s.has(RemoveFragment.class) && s.has(AddFragment.class)) {
      s.requireNewFragments(false);
      return List.of(rewrite(step.actions(), read, indices, post));
    }
    if (s.only(AddField.class, DropField.class, AlterField.class) && s.renamesOnly()) {
      List<LegacyOperation> out = new ArrayList<>();
      out.add(new Project(post.schema().fields(), preservesNullability(read, post)));
      out.add(new Merge(post.fragments(), post.schema(), preservesNullability(read, post)));
      return out;
    }
    if (s.only(AddField.class, DropField.class, AlterField.class, AddDataFile.class,
        TombstoneFieldData.class, RefreshRowVersionMetadata.class) && s.has(AddDataFile.class)) {
      s.requireCommittedDataFileTargets();
      return List.of(new Merge(post.fragments(), post.schema(), preservesNullability(read, post)));
    }
    return List.of();
  }

  private static UpdateConfig updateConfig(ConfigUpdate c) {
    Map<Integer, UpdateMap> fields = new LinkedHashMap<>();
    for (ConfigUpdate.FieldMetadataUpdate f : c.fieldMetadata()) {
      fields.put(committedField(f.field(), "a field metadata update"), f.updates());
    }
    return new UpdateConfig(c.config(), c.tableMetadata(), c.schemaMetadata(), fields);
  }

  private static Overwrite overwrite(Shape s, Manifest post) {
    s.requireNewFragments(true);
    // After the reset every fragment is new: ids as minted, row ids and versions as declared.
    List<AddFragment> declared = s.actions(AddFragment.class);
    if (declared.size() != post.fragments().size()) {
      throw new NotLowerable("it adds " + declared.size() + " fragment(s) but the result holds "
          + post.fragments().size());
    }
    List<Fragment> fragments = new ArrayList<>();
    for (int i = 0; i < declared.size(); i++) {
      fragments.add(asDeclared(post.fragments().get(i), declared.get(i)));
    }
    return new Overwrite(fragments, post.schema(), Map.of(), List.of());
  }

  private static Fragment asDeclared(Fragment f, AddFragment a) {
    return f.toBuilder().rowIds(a.rowIds()).lastUpdatedAtVersions(a.lastUpdatedAtVersions())
        .createdAtVersions(a.createdAtVersions()).build();
  }

  private static Delete delete(Shape s, String description, Manifest post) {
    return new Delete(updatedFragments(s, post), s.removed(), description);
  }

  private static Update update(Shape s, Manifest read, Manifest post) {
    Set<Long> leaving = new HashSet<>(s.removed());
    s.actions(SetDeletionFile.class).forEach(d -> leaving.add(d.fragment()));
    for (RelocateRows r : s.actions(RelocateRows.class)) {
      if (!leaving.contains(r.fragment())) {
        throw new NotLowerable("it moves rows of fragment " + Long.toUnsignedString(r.fragment())
            + " without deleting them there");
      }
    }
    for (AssertCellsUnchanged a : s.actions(AssertCellsUnchanged.class)) {
      // An Update claims only the fragments it moves rows out of, whole.
      if (!(a.fragment() instanceof Ref.Committed c) || !leaving.contains(c.id())) {
        throw new NotLowerable("it asserts cells of " + a.fragment() + " unchanged, which an "
            + "Update has no claim to carry (it claims only the fragments it moves rows out of)");
      }
    }
    List<AssertUniqueKeys> keys = s.actions(AssertUniqueKeys.class);
    if (keys.size() > 1) {
      throw new NotLowerable("it asserts " + keys.size() + " key sets unique; an Update carries one");
    }
    Optional<Update.InsertedRows> inserted = Optional.empty();
    if (!keys.isEmpty()) {
      List<Integer> fieldIds = new ArrayList<>();
      for (Ref r : keys.get(0).keyFields()) {
        fieldIds.add(committedField(r, "a key assertion"));
      }
      inserted = Optional.of(new Update.InsertedRows(fieldIds, keys.get(0).filter()));
    }
    return new Update(s.removed(), updatedFragments(s, post), newFragments(s, read, post),
        List.of(), List.of(), List.of(), Update.UpdateMode.REWRITE_ROWS, inserted, Map.of());
  }

  /**
   * A compaction as a Rewrite of one group per rewrite group of the composite, read off the
   * action order the table API writes a group in: its new fragments, the old ones removed, the
   * index coverage that follows the rows (docs/decisions/0026). A group starts at a new fragment
   * after a removal, or at a removal that follows an index adjustment or a removal of a fragment
   * the read version's index segments cover differently (two consecutive groups without new
   * fragments are told apart that way; merging groups with the same coverage changes nothing a
   * Rewrite does). The new fragments keep their order, so the legacy apply mints the ids the
   * composite does; the apply comparison checks the rest, index coverage included. Actions in
   * another order make one group.
   */
  private static Rewrite rewrite(List<Action> actions, Manifest read, List<IndexSegment> indices,
      Manifest post) {
    Map<Long, Fragment> before = new HashMap<>();
    read.fragments().forEach(f -> before.put(f.id(), f));
    List<Fragment> added = newFragments(new Shape(actions), read, post);
    List<List<Fragment>> olds = new ArrayList<>();
    List<List<Fragment>> news = new ArrayList<>();
    int next = 0;
    Action previous = null;
    List<Integer> previousCoverage = List.of();
    for (Action a : actions) {
      if (a instanceof AddFragment) {
        if (olds.isEmpty() || !olds.get(olds.size() - 1).isEmpty()) {
          olds.add(new ArrayList<>());
          news.add(new ArrayList<>());
        }
        news.get(news.size() - 1).add(added.get(next++));
      } else if (a instanceof RemoveFragment r) {
        if (r.dataChange()) {
          throw new NotLowerable("it removes fragment " + r.fragment() + " as a data change");
        }
        long id = committedFragment(r.fragment(), "a compaction");
        Fragment f = before.get(id);
        if (f == null) {
          throw new NotLowerable("it removes fragment " + Long.toUnsignedString(id)
              + ", which the read version does not hold");
        }
        List<Integer> coverage = coveringSegments(indices, id);
        boolean sameGroup = previous instanceof AddFragment || previous instanceof AddDataFile
            || previous instanceof RemoveFragment && coverage.equals(previousCoverage);
        if (olds.isEmpty() || !sameGroup) {
          olds.add(new ArrayList<>());
          news.add(new ArrayList<>());
        }
        olds.get(olds.size() - 1).add(f);
        previousCoverage = coverage;
      } else if (a instanceof AdjustIndexCoverage && olds.isEmpty()) {
        throw new NotLowerable("it adjusts index coverage before it rewrites anything");
      }
      previous = a;
    }
    if (olds.stream().anyMatch(List::isEmpty)) {
      // Not in the table API's order (removals first, say): one group, as a Rewrite of a
      // compaction that no index constrains.
      List<Fragment> all = new ArrayList<>();
      olds.forEach(all::addAll);
      return new Rewrite(List.of(new Rewrite.Group(all, added)), List.of());
    }
    List<Rewrite.Group> groups = new ArrayList<>();
    for (int g = 0; g < olds.size(); g++) {
      groups.add(new Rewrite.Group(olds.get(g), news.get(g)));
    }
    return new Rewrite(groups, List.of());
  }

  /** The positions of the index segments whose recorded coverage holds fragment {@code id}. */
  private static List<Integer> coveringSegments(List<IndexSegment> indices, long id) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < indices.size(); i++) {
      var covered = indices.get(i).coveredFragments();
      if (covered.isPresent() && id <= 0xFFFF_FFFFL && covered.get().contains((int) id)) {
        out.add(i);
      }
    }
    return out;
  }

  /** The post-images of the fragments that got a deletion file. */
  private static List<Fragment> updatedFragments(Shape s, Manifest post) {
    Map<Long, Fragment> after = new HashMap<>();
    post.fragments().forEach(f -> after.put(f.id(), f));
    List<Fragment> out = new ArrayList<>();
    for (SetDeletionFile d : s.actions(SetDeletionFile.class)) {
      Fragment f = after.get(d.fragment());
      if (f == null) {
        throw new NotLowerable("fragment " + Long.toUnsignedString(d.fragment())
            + " gets a deletion file but is not in the result");
      }
      out.add(f);
    }
    return out;
  }

  /**
   * The fragments the operation adds, as a legacy writer states them: id 0 (minted at commit,
   * so a rebase mints them again) and the row ids and row versions the writer declared (left
   * empty, they are assigned at commit, as Lance does).
   */
  private static List<Fragment> newFragments(Shape s, Manifest read, Manifest post) {
    Set<Long> existing = new HashSet<>();
    read.fragments().forEach(f -> existing.add(f.id()));
    List<Fragment> added = post.fragments().stream().filter(f -> !existing.contains(f.id())).toList();
    List<AddFragment> declared = s.actions(AddFragment.class);
    if (added.size() != declared.size()) {
      throw new NotLowerable("it adds " + declared.size() + " fragment(s) but the result holds "
          + added.size() + " new one(s)");
    }
    List<Fragment> out = new ArrayList<>();
    for (int i = 0; i < added.size(); i++) {
      out.add(asDeclared(added.get(i), declared.get(i)).toBuilder().id(0).build());
    }
    return out;
  }

  private static boolean preservesNullability(Manifest read, Manifest post) {
    Map<Integer, Field> before = read.schema().byId();
    for (Field f : post.schema().fields()) {
      Field was = before.get(f.id());
      if (!f.nullable() && (was == null || was.nullable())) {
        return false;
      }
    }
    return true;
  }

  private static int committedField(Ref r, String what) {
    if (r instanceof Ref.Committed c) {
      return (int) c.id();
    }
    throw new NotLowerable(what + " names " + r + ", a field minted in the same operation");
  }

  private static long committedFragment(Ref r, String what) {
    if (r instanceof Ref.Committed c) {
      return c.id();
    }
    throw new NotLowerable(what + " names " + r + ", a fragment minted in the same operation");
  }

  private static String shape(UserStep step) {
    Set<String> names = new java.util.LinkedHashSet<>();
    step.actions().forEach(a -> names.add(a.actionName()));
    return String.join(", ", names);
  }

  /** A history that holds only the read version: the lowering applies on it, nothing newer. */
  private static ManifestHistory readOnly(Manifest read, List<IndexSegment> indices, long version) {
    return new ManifestHistory() {
      @Override
      public Manifest manifestAt(long v) {
        if (v != version) {
          throw new IllegalStateException("the lowering reads only version " + version);
        }
        return read;
      }

      @Override
      public List<IndexSegment> indicesAt(long v) {
        if (v != version) {
          throw new IllegalStateException("the lowering reads only version " + version);
        }
        return indices;
      }
    };
  }

  /** Why a shape that looked lowerable is not (internal to the lowering). */
  private static final class NotLowerable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotLowerable(String why) {
      super(why, null, false, false);
    }
  }

  /** The actions of a step, by kind. */
  private static final class Shape {
    private final List<Action> actions;
    private final Set<Class<?>> kinds = new HashSet<>();

    Shape(List<Action> actions) {
      this.actions = actions;
      actions.forEach(a -> kinds.add(a.getClass()));
    }

    boolean has(Class<?> kind) {
      return kinds.contains(kind);
    }

    boolean only(Class<?>... allowed) {
      return Set.of(allowed).containsAll(kinds);
    }

    long count(Class<?> kind) {
      return actions.stream().filter(kind::isInstance).count();
    }

    <T> List<T> actions(Class<T> kind) {
      return actions.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    List<Long> removed() {
      List<Long> out = new ArrayList<>();
      for (RemoveFragment r : actions(RemoveFragment.class)) {
        out.add(committedFragment(r.fragment(), "a fragment removal"));
      }
      return out;
    }

    /** Deletions that are data changes, each a new deletion file or a removal. */
    void requireDeletions() {
      for (SetDeletionFile d : actions(SetDeletionFile.class)) {
        if (!d.dataChange() || d.deletionFile().isEmpty()) {
          throw new NotLowerable("fragment " + Long.toUnsignedString(d.fragment())
              + (d.deletionFile().isEmpty() ? " loses its deletion file" : " gets a deletion "
              + "file that is not a data change"));
        }
      }
      for (RemoveFragment r : actions(RemoveFragment.class)) {
        if (!r.dataChange()) {
          throw new NotLowerable("fragment " + r.fragment() + " is removed without a data change");
        }
      }
    }

    /** New fragments (Local refs) whose files are all the step's, with {@code dataChange}. */
    void requireNewFragments(boolean dataChange) {
      for (AddFragment a : actions(AddFragment.class)) {
        if (!(a.id() instanceof Ref.Local) || a.dataChange() != dataChange) {
          throw new NotLowerable("fragment " + a.id() + " is not a new fragment with data_change = "
              + dataChange);
        }
      }
      for (AddDataFile d : actions(AddDataFile.class)) {
        if (!(d.fragment() instanceof Ref.Local) || d.dataChange() != dataChange) {
          throw new NotLowerable("a data file of " + d.fragment() + " is not one of a new "
              + "fragment with data_change = " + dataChange);
        }
      }
    }

    /** Data files for committed fragments only (a new column's backfill or a cast). */
    void requireCommittedDataFileTargets() {
      for (AddDataFile d : actions(AddDataFile.class)) {
        committedFragment(d.fragment(), "a column's data file");
      }
    }

    /** Field alterations that rename or relax, never change a type. */
    boolean renamesOnly() {
      return actions(AlterField.class).stream()
          .allMatch(a -> a.logicalType().isEmpty() && a.newLocal().isEmpty());
    }

    /** An overwrite's config update sets the schema metadata, nothing else. */
    boolean schemaMetadataOnly() {
      return actions(ConfigUpdate.class).stream().allMatch(c -> c.config().isEmpty()
          && c.tableMetadata().isEmpty() && c.fieldMetadata().isEmpty());
    }
  }
}
