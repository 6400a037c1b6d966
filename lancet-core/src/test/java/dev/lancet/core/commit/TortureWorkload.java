package dev.lancet.core.commit;

import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.action.Action;
import dev.lancet.core.keys.KeyHasher;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plans the random transactions of the torture tests against a read manifest: appends (with
 * and without a key assertion), row deletions with real deletion files, fragment removals,
 * added and dropped columns, renames, config updates, overlays and compaction-shaped commits.
 * Each plan carries the change in live rows it makes if it lands on the state it was planned
 * on, so that a test can check that no committed change was lost (the conflict rules must
 * stop a plan from landing on a state where that is no longer true).
 *
 * <p>Thread-safe: counters are shared, each call gets its own {@link Random}.
 */
public final class TortureWorkload {

  /** The kinds of transaction, with their relative weights. */
  public enum Kind {
    APPEND(22), APPEND_WITH_KEYS(12), DELETE_ROWS(16), REMOVE_FRAGMENT(4), ADD_COLUMN(6),
    DROP_COLUMN(3), RENAME(5), CONFIG(12), OVERLAY(8), COMPACT(8);

    final int weight;

    Kind(int weight) {
      this.weight = weight;
    }
  }

  /** Where the data files of a plan come from (written before the commit, as a real writer does). */
  public interface DataFiles {
    /** A data file of {@code rows} rows holding {@code fieldIds} in order. */
    DataFile dataFile(List<Integer> fieldIds, long rows);

    /** An overlay data file holding new values of {@code fieldId}. */
    DataFile overlayFile(int fieldId);
  }

  /** A planned transaction and the live rows it adds (negative: removes) on its read state. */
  public record Plan(Kind kind, long readVersion, CompositeOperation operation, long rowDelta) {
    public String description() {
      return operation.steps().get(0).description();
    }
  }

  /** The field every append writes and every key assertion names; never dropped or renamed. */
  public static final int KEY_FIELD = 0;

  private static final int MAX_COLUMNS = 6;
  private static final int MAX_FRAGMENTS = 40;

  private final Set<Kind> kinds;
  private final ObjectStore files;
  private final DataFiles dataFiles;
  private final AtomicLong names = new AtomicLong();
  private final AtomicLong keys = new AtomicLong();

  /**
   * @param files the store deletion files are read from and written to (unfaulted: the tests
   *     inject faults into the commit, not into data writes)
   */
  public TortureWorkload(Set<Kind> kinds, ObjectStore files, DataFiles dataFiles) {
    this.kinds = EnumSet.copyOf(kinds);
    this.files = files;
    this.dataFiles = dataFiles;
  }

  /**
   * Fake data files: the kernel treats data files as opaque, so a placeholder of the recorded
   * size (written to {@code files}, unfaulted) stands in for each.
   */
  public static DataFiles fakeDataFiles(ObjectStore files) {
    return new DataFiles() {
      @Override
      public DataFile dataFile(List<Integer> fieldIds, long rows) {
        return dev.lancet.core.TestDataFiles.placed(files,
            unassigned(UUID.randomUUID() + ".lance", fieldIds.size()));
      }

      @Override
      public DataFile overlayFile(int fieldId) {
        return dev.lancet.core.TestDataFiles.placed(files,
            new DataFile("overlays/" + UUID.randomUUID() + ".lance", List.of(fieldId), List.of(0), 2, 1, 64));
      }
    };
  }

  private static DataFile unassigned(String path, int columns) {
    List<Integer> slots = new ArrayList<>();
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      slots.add(DataFile.UNASSIGNED);
      indices.add(i);
    }
    return new DataFile(path, slots, indices, 2, 1, 100);
  }

  /** A random plan valid on {@code read}; falls back to an append when a kind does not apply. */
  public Plan plan(Manifest read, Random rnd) {
    Kind kind = pick(rnd);
    // Keep the table bounded, so that long runs (thousands of commits) stay linear in memory.
    if (kind == Kind.ADD_COLUMN && read.schema().topLevel().size() > MAX_COLUMNS && kinds.contains(Kind.DROP_COLUMN)) {
      kind = Kind.DROP_COLUMN;
    }
    if ((kind == Kind.APPEND || kind == Kind.APPEND_WITH_KEYS) && read.fragments().size() > MAX_FRAGMENTS
        && kinds.contains(Kind.COMPACT)) {
      kind = Kind.COMPACT;
    }
    Optional<Plan> plan = switch (kind) {
      case APPEND -> Optional.of(append(read, rnd, false));
      case APPEND_WITH_KEYS -> Optional.of(append(read, rnd, true));
      case DELETE_ROWS -> deleteRows(read, rnd);
      case REMOVE_FRAGMENT -> removeFragment(read, rnd);
      case ADD_COLUMN -> addColumn(read);
      case DROP_COLUMN -> dropColumn(read, rnd);
      case RENAME -> rename(read, rnd);
      case CONFIG -> Optional.of(config(read, rnd));
      case OVERLAY -> overlay(read, rnd);
      case COMPACT -> compact(read, rnd);
    };
    return plan.orElseGet(() -> append(read, rnd, false));
  }

  private Kind pick(Random rnd) {
    int total = 0;
    for (Kind k : kinds) {
      total += k.weight;
    }
    int r = rnd.nextInt(total);
    for (Kind k : kinds) {
      r -= k.weight;
      if (r < 0) {
        return k;
      }
    }
    throw new IllegalStateException("no kind enabled");
  }

  private Plan append(Manifest read, Random rnd, boolean withKeys) {
    long rows = 1 + rnd.nextInt(40);
    List<Integer> fields = liveFields(read);
    DataFile file = dataFiles.dataFile(fields, rows);
    List<Action> actions = new ArrayList<>();
    actions.add(AddFragment.local(0, rows));
    actions.add(new AddDataFile(Ref.local(0), file, committedRefs(fields), true));
    String what = "append " + rows + " rows";
    if (withKeys) {
      // Fresh keys: the assertion never fails on the keys, only on unqualified inserts.
      List<Long> hashes = new ArrayList<>();
      long first = keys.getAndAdd(rows);
      for (long k = first; k < first + rows; k++) {
        hashes.add(KeyHasher.hash(KeyHasher.encodeSigned(k)));
      }
      actions.add(new AssertUniqueKeys(List.of(Ref.committed(KEY_FIELD)), new KeyExistenceFilter.Exact(hashes)));
      what += " with unique keys " + first + ".." + (first + rows - 1);
    }
    return plan(Kind.APPEND, what, read, actions, rows);
  }

  private Optional<Plan> deleteRows(Manifest read, Random rnd) {
    List<Fragment> candidates = read.fragments().stream().filter(f -> f.liveRows() > 0).toList();
    if (candidates.isEmpty() || !kinds.contains(Kind.DELETE_ROWS)) {
      return Optional.empty();
    }
    Fragment f = candidates.get(rnd.nextInt(candidates.size()));
    DeletionVector existing = existingDeletions(f);
    List<Integer> live = new ArrayList<>();
    for (int offset = 0; offset < f.physicalRows(); offset++) {
      if (!existing.contains(offset)) {
        live.add(offset);
      }
    }
    Collections.shuffle(live, rnd);
    int n = 1 + rnd.nextInt(Math.min(5, live.size()));
    int[] fresh = live.subList(0, n).stream().mapToInt(Integer::intValue).toArray();
    DeletionVector post = existing.union(DeletionVector.of(fresh));
    DeletionFile.Kind kind = rnd.nextBoolean() ? DeletionFile.Kind.ARROW_ARRAY : DeletionFile.Kind.BITMAP;
    DeletionFile df = new DeletionFile(kind, read.version(), DeletionFileNames.newId(), post.cardinality());
    try {
      files.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(f.id()), DeletionFileFormat.write(post, kind));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Optional.of(plan(Kind.DELETE_ROWS, "delete " + n + " rows of fragment " + f.id(), read,
        List.of(new SetDeletionFile(f.id(), Optional.of(df), true)), -n));
  }

  /** The deletion vector a fragment's deletion file holds (empty without one). */
  public DeletionVector existingDeletions(Fragment f) {
    if (f.deletionFile().isEmpty()) {
      return DeletionVector.empty();
    }
    DeletionFile df = f.deletionFile().get();
    String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(f.id());
    try {
      return DeletionFileFormat.read(files.get(path), df.kind(), path);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }

  private Optional<Plan> removeFragment(Manifest read, Random rnd) {
    if (read.fragments().size() < 3) {
      return Optional.empty();
    }
    Fragment f = read.fragments().get(rnd.nextInt(read.fragments().size()));
    return Optional.of(plan(Kind.REMOVE_FRAGMENT, "remove fragment " + f.id(), read,
        List.of(new RemoveFragment(Ref.committed(f.id()), true)), -f.liveRows()));
  }

  private Optional<Plan> addColumn(Manifest read) {
    if (!kinds.contains(Kind.ADD_COLUMN)) {
      return Optional.empty();
    }
    String name = "c" + names.incrementAndGet();
    List<Action> actions = new ArrayList<>();
    actions.add(AddField.topLevel(0, Field.builder(99, name, "int32").nullable(true).build()));
    for (Fragment f : read.fragments()) {
      actions.add(new AddDataFile(Ref.committed(f.id()), dataFiles.dataFile(List.of(-1), f.physicalRows()),
          List.of(Ref.local(0)), true));
    }
    return Optional.of(plan(Kind.ADD_COLUMN, "add column " + name + " with data in " + read.fragments().size()
        + " fragment(s)", read, actions, 0));
  }

  private Optional<Plan> dropColumn(Manifest read, Random rnd) {
    List<Field> droppable = droppable(read);
    if (droppable.isEmpty()) {
      return Optional.empty();
    }
    Field f = droppable.get(rnd.nextInt(droppable.size()));
    return Optional.of(plan(Kind.DROP_COLUMN, "drop column " + f.name() + " (" + f.id() + ")", read,
        List.of(new DropField(Ref.committed(f.id()))), 0));
  }

  private Optional<Plan> rename(Manifest read, Random rnd) {
    List<Field> renamable = droppable(read);
    if (renamable.isEmpty()) {
      return Optional.empty();
    }
    Field f = renamable.get(rnd.nextInt(renamable.size()));
    String to = "r" + names.incrementAndGet();
    return Optional.of(plan(Kind.RENAME, "rename " + f.name() + " (" + f.id() + ") to " + to, read,
        List.of(AlterField.rename(Ref.committed(f.id()), to)), 0));
  }

  private Plan config(Manifest read, Random rnd) {
    String key = "torture.k" + rnd.nextInt(6);
    UpdateMap update = rnd.nextInt(5) == 0 ? UpdateMap.remove(key) : UpdateMap.set(key, "v" + names.incrementAndGet());
    return plan(Kind.CONFIG, "config " + update.entries(), read, List.of(ConfigUpdate.ofConfig(update)), 0);
  }

  private Optional<Plan> overlay(Manifest read, Random rnd) {
    List<Fragment> candidates = read.fragments().stream().filter(f -> !backedFields(f).isEmpty()).toList();
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    Fragment f = candidates.get(rnd.nextInt(candidates.size()));
    // A file keeps a dropped field's id in its slot: overlay only fields the schema still has.
    List<Integer> backed = new ArrayList<>(backedFields(f));
    backed.removeIf(id -> read.schema().field(id).isEmpty());
    if (backed.isEmpty()) {
      return Optional.empty();
    }
    int field = backed.get(rnd.nextInt(backed.size()));
    List<Long> offsets = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      offsets.add((long) rnd.nextInt(Math.toIntExact(f.physicalRows())));
    }
    DataOverlayFile o = new DataOverlayFile(dataFiles.overlayFile(field),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(offsets)), 0,
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
    return Optional.of(plan(Kind.OVERLAY, "overlay field " + field + " of fragment " + f.id(), read,
        List.of(new AddOverlays(Ref.committed(f.id()), List.of(o), true)), 0));
  }

  private Optional<Plan> compact(Manifest read, Random rnd) {
    if (read.fragments().size() < 3) {
      return Optional.empty();
    }
    List<Fragment> all = new ArrayList<>(read.fragments());
    Collections.shuffle(all, rnd);
    List<Fragment> chosen = all.subList(0, 2 + rnd.nextInt(Math.min(2, all.size() - 2)));
    long rows = chosen.stream().mapToLong(Fragment::liveRows).sum();
    List<Action> actions = new ArrayList<>();
    for (Fragment f : chosen) {
      actions.add(new RemoveFragment(Ref.committed(f.id()), false));
    }
    if (rows > 0) {
      List<Integer> fields = liveFields(read);
      actions.add(new AddFragment(Ref.local(0), rows, Optional.empty(), Optional.empty(), Optional.empty(), false));
      actions.add(new AddDataFile(Ref.local(0), dataFiles.dataFile(fields, rows), committedRefs(fields), false));
    }
    return Optional.of(plan(Kind.COMPACT, "compact fragments " + chosen.stream().map(Fragment::id).toList()
        + " into one of " + rows + " rows", read, actions, 0));
  }

  private static Plan plan(Kind kind, String description, Manifest read, List<Action> actions, long rowDelta) {
    return new Plan(kind, read.version(),
        new CompositeOperation(List.of(new UserStep(description, actions))), rowDelta);
  }

  /** Top-level fields in schema order. */
  private static List<Integer> liveFields(Manifest read) {
    return read.schema().topLevel().stream().map(Field::id).toList();
  }

  private static List<Field> droppable(Manifest read) {
    return read.schema().topLevel().stream().filter(f -> f.id() != KEY_FIELD).toList();
  }

  private static Set<Integer> backedFields(Fragment f) {
    Set<Integer> out = new TreeSet<>();
    for (DataFile d : f.files()) {
      for (int id : d.fields()) {
        if (id >= 0) {
          out.add(id);
        }
      }
    }
    return out;
  }

  private static List<Ref> committedRefs(List<Integer> fields) {
    return fields.stream().<Ref>map(id -> Ref.committed(id)).toList();
  }
}
