package dev.lancet.core.commit;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Manifest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An independent model of a table for the reliability tests: it replays committed composite
 * operations with its own, deliberately plain reading of each action (v2-semantics §3), not
 * with {@code CompositeApply}, so that a replay of the history can be compared with the
 * manifests the kernel published. It knows only the actions the tests use and fails loudly on
 * any other.
 *
 * <p>Rules it encodes: a Local fragment gets the next id above the highest fragment id the
 * table ever had; a Local field gets the next id above the largest id in the schema or in any
 * data file slot; dropping a field removes it from the schema and removes the data files that
 * hold no schema field any more (slots and overlays keep the dropped id: decision record §1,
 * "DropField matches legacy Project"); tombstoning a field's data turns its slots into -2 (in
 * data files and overlays) and a data file with no live slot disappears; an overlay is stamped
 * with the version that commits it.
 */
public final class TableModel {
  private static final int TOMBSTONED = -2;

  private final TreeMap<Long, Frag> fragments = new TreeMap<>();
  private final TreeMap<Integer, String> fields = new TreeMap<>();
  private final TreeMap<String, String> config = new TreeMap<>();
  private long fragmentHighWater;

  private static final class Frag {
    final long id;
    final long physicalRows;
    long deletedRows;
    final List<ModelState.FileState> files = new ArrayList<>();
    final List<ModelState.OverlayState> overlays = new ArrayList<>();

    Frag(long id, long physicalRows) {
      this.id = id;
      this.physicalRows = physicalRows;
    }
  }

  private TableModel() {}

  /** A model of the table as it is at {@code seed} (the first version the test created). */
  public static TableModel startingFrom(Manifest seed) {
    TableModel model = new TableModel();
    ModelState s = ModelState.of(seed);
    for (ModelState.FragmentState f : s.fragments().values()) {
      Frag frag = new Frag(f.id(), f.physicalRows());
      frag.deletedRows = f.deletedRows();
      frag.files.addAll(f.files());
      frag.overlays.addAll(f.overlays());
      model.fragments.put(f.id(), frag);
    }
    model.fields.putAll(s.fields());
    model.config.putAll(s.config());
    model.fragmentHighWater = Math.max(seed.maxFragmentId().orElse(-1),
        s.fragments().isEmpty() ? -1 : s.fragments().lastKey());
    return model;
  }

  public ModelState state() {
    Map<Long, ModelState.FragmentState> out = new TreeMap<>();
    for (Frag f : fragments.values()) {
      out.put(f.id, new ModelState.FragmentState(f.id, f.physicalRows, f.deletedRows, f.files, f.overlays));
    }
    return new ModelState(new TreeMap<>(out), fields, config);
  }

  /** Replays one committed operation that produced {@code version}. */
  public void replay(CompositeOperation op, long version) {
    Map<Integer, Long> fragmentTokens = new HashMap<>();
    Map<Integer, Integer> fieldTokens = new HashMap<>();
    int nextFieldId = largestFieldId() + 1;
    for (UserStep step : op.steps()) {
      for (Action a : step.actions()) {
        if (a instanceof AddFragment af) {
          long id;
          if (af.id() instanceof Ref.Local l) {
            id = ++fragmentHighWater;
            fragmentTokens.put(l.token(), id);
          } else {
            id = ((Ref.Committed) af.id()).id();
            fragmentHighWater = Math.max(fragmentHighWater, id);
          }
          require(!fragments.containsKey(id), "fragment " + id + " added twice", version);
          fragments.put(id, new Frag(id, af.physicalRows()));
        } else if (a instanceof AddDataFile ad) {
          Frag f = fragment(fragment(ad.fragment(), fragmentTokens), version);
          List<Integer> slots = new ArrayList<>();
          for (Ref r : ad.fieldIds()) {
            slots.add(field(r, fieldTokens));
          }
          f.files.add(new ModelState.FileState(ad.file().path(), slots));
        } else if (a instanceof AddField add) {
          require(add.parent().isEmpty(), "the model knows only top-level fields", version);
          int id = nextFieldId++;
          fieldTokens.put(add.local(), id);
          fields.put(id, add.def().name());
        } else if (a instanceof RemoveFragment rf) {
          long id = fragment(rf.fragment(), fragmentTokens);
          require(fragments.remove(id) != null, "removing absent fragment " + id, version);
        } else if (a instanceof SetDeletionFile sd) {
          fragment(sd.fragment(), version).deletedRows = sd.deletionFile().map(d -> d.numDeletedRows()).orElse(0L);
        } else if (a instanceof DropField df) {
          int id = field(df.field(), fieldTokens);
          require(fields.remove(id) != null, "dropping absent field " + id, version);
          for (Frag f : fragments.values()) {
            pruneDeadFiles(f);
          }
        } else if (a instanceof TombstoneFieldData t) {
          Frag f = fragment(fragment(t.fragment(), fragmentTokens), version);
          for (Ref r : t.fieldIds()) {
            tombstone(f, field(r, fieldTokens));
          }
        } else if (a instanceof AlterField alter) {
          require(alter.logicalType().isEmpty() && alter.nullable().isEmpty(),
              "the model knows only renames", version);
          int id = field(alter.field(), fieldTokens);
          require(fields.containsKey(id), "renaming absent field " + id, version);
          alter.name().ifPresent(n -> fields.put(id, n));
        } else if (a instanceof ConfigUpdate cu) {
          require(cu.tableMetadata().isEmpty() && cu.schemaMetadata().isEmpty() && cu.fieldMetadata().isEmpty(),
              "the model knows only config updates", version);
          cu.config().ifPresent(u -> applyMap(u));
        } else if (a instanceof AddOverlays ao) {
          Frag f = fragment(fragment(ao.fragment(), fragmentTokens), version);
          for (DataOverlayFile o : ao.overlays()) {
            f.overlays.add(new ModelState.OverlayState(o.dataFile().path(), o.dataFile().fields(), version));
          }
        } else if (a instanceof AssertUniqueKeys) {
          // A precondition: changes nothing.
        } else {
          throw new AssertionError("version " + version + ": the model does not know " + a);
        }
      }
    }
  }

  private void applyMap(UpdateMap u) {
    if (u.replace()) {
      config.clear();
    }
    for (UpdateMap.Entry e : u.entries()) {
      if (e.value().isPresent()) {
        config.put(e.key(), e.value().get());
      } else {
        config.remove(e.key());
      }
    }
  }

  /**
   * As legacy Project (decision record §1): a drop leaves the dropped id in the slots of
   * surviving files (the field-id watermark), removes only files holding no field of the
   * schema any more, and leaves overlays alone.
   */
  private void pruneDeadFiles(Frag f) {
    f.files.removeIf(file -> file.fields().stream().noneMatch(fields::containsKey));
  }

  private static void tombstone(Frag f, int fieldId) {
    List<ModelState.FileState> files = new ArrayList<>();
    for (ModelState.FileState file : f.files) {
      List<Integer> slots = replaced(file.fields(), fieldId);
      if (slots.stream().anyMatch(s -> s >= 0)) {
        files.add(new ModelState.FileState(file.path(), slots));
      }
    }
    f.files.clear();
    f.files.addAll(files);
    List<ModelState.OverlayState> overlays = new ArrayList<>();
    for (ModelState.OverlayState o : f.overlays) {
      overlays.add(new ModelState.OverlayState(o.path(), replaced(o.fields(), fieldId), o.committedVersion()));
    }
    f.overlays.clear();
    f.overlays.addAll(overlays);
  }

  private static List<Integer> replaced(List<Integer> slots, int fieldId) {
    List<Integer> out = new ArrayList<>(slots.size());
    for (int s : slots) {
      out.add(s == fieldId ? TOMBSTONED : s);
    }
    return out;
  }

  private int largestFieldId() {
    int max = fields.isEmpty() ? -1 : fields.lastKey();
    for (Frag f : fragments.values()) {
      for (ModelState.FileState file : f.files) {
        for (int s : file.fields()) {
          max = Math.max(max, s);
        }
      }
    }
    return max;
  }

  private static long fragment(Ref ref, Map<Integer, Long> tokens) {
    if (ref instanceof Ref.Local l) {
      Long id = tokens.get(l.token());
      if (id == null) {
        throw new AssertionError("unbound fragment token " + l.token());
      }
      return id;
    }
    return ((Ref.Committed) ref).id();
  }

  private static int field(Ref ref, Map<Integer, Integer> tokens) {
    if (ref instanceof Ref.Local l) {
      Integer id = tokens.get(l.token());
      if (id == null) {
        throw new AssertionError("unbound field token " + l.token());
      }
      return id;
    }
    return Math.toIntExact(((Ref.Committed) ref).id());
  }

  private Frag fragment(long id, long version) {
    Frag f = fragments.get(id);
    if (f == null) {
      throw new AssertionError("version " + version + " names fragment " + id
          + ", which the model does not have (it has " + fragments.keySet() + ")");
    }
    return f;
  }

  private static void require(boolean ok, String what, long version) {
    if (!ok) {
      throw new AssertionError("version " + version + ": " + what);
    }
  }
}
