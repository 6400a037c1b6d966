package dev.lancet.core.conflict;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.format.model.DataOverlayFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * Collects one operation's footprint; each action records its contribution through these
 * recorders (v2-semantics §4.3). A coordinate or region touched twice keeps the strongest mode.
 * Refs to ids the operation mints record nothing (no concurrent writer can name them); a
 * committed field id that does not fit an i32 is ignored, as upstream does.
 */
public final class FootprintBuilder {
  private final Map<Coordinate, Mode> claims = new LinkedHashMap<>();
  private final Map<Region, Mode> regions = new LinkedHashMap<>();
  private final Set<Long> requiredFragments = new LinkedHashSet<>();
  private boolean exclusive;
  private boolean insertsRows;
  private final List<KeyAssertion> keyAssertions = new ArrayList<>();
  private final List<IndexClaim> indexClaims = new ArrayList<>();
  private final CellFootprint.Builder cells = new CellFootprint.Builder();
  private final FieldBacking.Builder backing = new FieldBacking.Builder();

  public FootprintBuilder() {}

  // ---- raw recorders ------------------------------------------------------------------------

  /** Writes (replaces) {@code c}. */
  public FootprintBuilder write(Coordinate c) {
    return claim(c, Mode.WRITES);
  }

  /** Needs {@code c} unchanged by any concurrent full write. */
  public FootprintBuilder require(Coordinate c) {
    return claim(c, Mode.REQUIRES);
  }

  /** Records {@code c} with {@code mode}, keeping the strongest mode seen. */
  public FootprintBuilder claim(Coordinate c, Mode mode) {
    claims.merge(c, mode, Mode::strongest);
    return this;
  }

  /** Claims a whole region with {@code mode}, keeping the strongest mode seen. */
  public FootprintBuilder claimRegion(Region r, Mode mode) {
    regions.merge(r, mode, Mode::strongest);
    return this;
  }

  // ---- fragment and field recorders ---------------------------------------------------------

  /**
   * Partially writes {@code field} in {@code fragment} (a data overlay): P(FieldData) and
   * R(FieldDefinition) when the fragment is committed; nothing for a minted fragment.
   */
  public FootprintBuilder writePart(Ref fragment, int field) {
    if (fragment instanceof Ref.Committed f && field >= 0) {
      claim(new Coordinate.FieldData(f.id(), field), Mode.PARTIAL_WRITE);
      require(new Coordinate.FieldDefinition(field));
    }
    return this;
  }

  /**
   * Replaces the data of {@code fields} in {@code fragment} (AddDataFile, TombstoneFieldData):
   * R(FieldDefinition) for every committed field; if the fragment is committed also
   * req-frag(fragment) and W(FieldData) for every committed field.
   */
  public FootprintBuilder writeFieldData(Ref fragment, List<Ref> fields) {
    for (Ref f : fields) {
      requireFieldDefinition(f);
    }
    if (fragment instanceof Ref.Committed frag) {
      requiredFragments.add(frag.id());
      for (Ref f : fields) {
        fieldId(f).ifPresent(id -> write(new Coordinate.FieldData(frag.id(), id)));
      }
    }
    return this;
  }

  /** W(FieldDefinition(field)) for a committed field. */
  public FootprintBuilder writeFieldDefinition(Ref field) {
    fieldId(field).ifPresent(id -> write(new Coordinate.FieldDefinition(id)));
    return this;
  }

  /** R(FieldDefinition(field)) for a committed field. */
  public FootprintBuilder requireFieldDefinition(Ref field) {
    fieldId(field).ifPresent(id -> require(new Coordinate.FieldDefinition(id)));
    return this;
  }

  /**
   * Removes a committed field: W(FieldDefinition) and, so that a drop and a concurrent edit of the
   * field's metadata collide in either order (as upstream's config-update test pins), the whole
   * of that field's metadata map as a written region.
   */
  public FootprintBuilder removeField(Ref field) {
    fieldId(field).ifPresent(id -> {
      write(new Coordinate.FieldDefinition(id));
      claimRegion(new Region.Map(ConfigMap.field(id)), Mode.WRITES);
    });
    return this;
  }

  /** A committed fragment must still exist when this set lands. */
  public FootprintBuilder requireFragment(Ref fragment) {
    if (fragment instanceof Ref.Committed f) {
      requiredFragments.add(f.id());
    }
    return this;
  }

  /** Removes a committed fragment: W(FragmentExistence) and the whole fragment as a region. */
  public FootprintBuilder removeFragment(Ref fragment) {
    if (fragment instanceof Ref.Committed f) {
      write(new Coordinate.FragmentExistence(f.id()));
      claimRegion(new Region.Fragment(f.id()), Mode.WRITES);
    }
    return this;
  }

  // ---- rows and cells ------------------------------------------------------------------------

  /**
   * Replaces committed {@code fragment}'s deletion file with a new one: FragmentDeletions with
   * mode WRITES_ROWS, a full write decided row by row against another set that does the same
   * (docs/decisions/0016). A clear (no file) in the same set makes it a plain write.
   */
  public FootprintBuilder deleteRows(long fragment) {
    return claim(new Coordinate.FragmentDeletions(fragment), Mode.WRITES_ROWS);
  }

  /** Moves {@code rows} (physical offsets) out of committed {@code fragment} (RelocateRows). */
  public FootprintBuilder relocate(long fragment, RoaringBitmap rows) {
    cells.relocate(fragment, rows);
    return this;
  }

  /**
   * Overlays new values on cells of {@code fragment} (AddOverlays, a legacy DataOverlay): a
   * partial write of every overlaid field, and the overlaid offsets per field; nothing for a
   * minted fragment.
   */
  public FootprintBuilder overlay(Ref fragment, DataOverlayFile overlay) {
    for (int field : overlay.dataFile().fields()) {
      writePart(fragment, field);
    }
    if (fragment instanceof Ref.Committed f) {
      overlay.coveredOffsetsByField().forEach((field, rows) -> cells.overlay(f.id(), field, rows));
    }
    return this;
  }

  /**
   * Changes the values of {@code fields} in place for every row of {@code fragment} (a
   * data-changing TombstoneFieldData or AddDataFile): a field the set mints counts as new data
   * for the fragment's rows. Nothing for a minted fragment.
   */
  public FootprintBuilder rewriteCells(Ref fragment, List<Ref> fields) {
    if (fragment instanceof Ref.Committed frag) {
      for (Ref f : fields) {
        OptionalInt id = fieldId(f);
        if (id.isPresent()) {
          cells.rewrite(frag.id(), id.getAsInt());
        } else if (f instanceof Ref.Local) {
          cells.newFieldData(frag.id());
        }
      }
    }
    return this;
  }

  /**
   * The set read the cells of {@code fields} at {@code rows} of {@code fragment} and copied them
   * into what it writes (AssertCellsUnchanged): the fragment is required, each committed field's
   * definition required, and the cells recorded. Minted fragments and fields record nothing.
   */
  public FootprintBuilder readCells(Ref fragment, List<Ref> fields, RoaringBitmap rows) {
    if (fragment instanceof Ref.Committed frag) {
      requiredFragments.add(frag.id());
      for (Ref f : fields) {
        requireFieldDefinition(f);
        fieldId(f).ifPresent(id -> cells.read(frag.id(), id, rows));
      }
    }
    return this;
  }

  // ---- maps, exclusivity, inserts -----------------------------------------------------------

  /** A replacement claims the whole map; a merge writes each key it names (sets and deletes). */
  public FootprintBuilder writeMapUpdate(ConfigMap map, UpdateMap update) {
    if (update.replace()) {
      claimRegion(new Region.Map(map), Mode.WRITES);
    } else {
      for (String key : update.keys()) {
        write(new Coordinate.ConfigEntry(map, key));
      }
    }
    return this;
  }

  /** The set replaces the whole table: it conflicts with every concurrent set. */
  public FootprintBuilder takeExclusive() {
    exclusive = true;
    return this;
  }

  /** The set adds rows (a data-change fragment). */
  public FootprintBuilder insertRows() {
    insertsRows = true;
    return this;
  }

  /** The keys this set inserted under {@code keyFields} are unique. */
  public FootprintBuilder assertUniqueKeys(List<Ref> keyFields, KeyExistenceFilter filter) {
    keyAssertions.add(new KeyAssertion(keyFields, filter));
    return this;
  }

  // ---- indices ------------------------------------------------------------------------------

  /**
   * Builds a segment of index {@code name}: an index claim with identity and the committed
   * covered fragments (empty = unstated), R(FieldDefinition) per committed key or carried field,
   * and R(FieldData) per such field in each committed covered fragment.
   */
  public FootprintBuilder buildIndex(String name, IndexClaim.Identity identity,
      Optional<List<Ref>> coveredFragments) {
    Optional<Set<Long>> coverage = coveredFragments.map(FootprintBuilder::committedIds);
    indexClaims.add(new IndexClaim(name, Optional.of(identity), coverage));
    List<Ref> dependencies = identity.dependencies();
    for (Ref f : dependencies) {
      requireFieldDefinition(f);
    }
    for (long fragment : coverage.orElse(Set.of())) {
      for (Ref f : dependencies) {
        fieldId(f).ifPresent(id -> require(new Coordinate.FieldData(fragment, id)));
      }
    }
    return this;
  }

  /** Widens an index onto {@code additions}: a claim with no identity over the committed ones. */
  public FootprintBuilder extendIndexCoverage(String name, List<Ref> additions) {
    if (!additions.isEmpty()) {
      indexClaims.add(new IndexClaim(name, Optional.empty(), Optional.of(committedIds(additions))));
    }
    return this;
  }

  /** Rewrites index {@code name} wholesale: a claim with no identity and unstated coverage. */
  public FootprintBuilder rewriteIndex(String name) {
    indexClaims.add(new IndexClaim(name, Optional.empty(), Optional.empty()));
    return this;
  }

  // ---- nullability (seed §5.2) ----------------------------------------------------------------

  /**
   * The set adds fragment {@code id}; its data files follow. Counted whatever its row count (a
   * legacy 0 means "unknown"), so a fragment the set never backs a field in leaves it unbacked.
   */
  public FootprintBuilder addFragment(Ref id) {
    backing.addFragment(id);
    return this;
  }

  /** A legacy operation's new fragment with rows, whose files back {@code committedFields}. */
  public FootprintBuilder addFragmentBacking(Set<Integer> committedFields) {
    Object key = new Object();
    backing.addFragment(key);
    backing.back(key, Optional.empty(), committedFields);
    return this;
  }

  /** A data file in {@code fragment} holds data for {@code fields} (AddDataFile). */
  public FootprintBuilder backFieldData(Ref fragment, List<Ref> fields) {
    backing.back(fragment, committedFragment(fragment), committedFieldIds(fields));
    return this;
  }

  /** The data of {@code fields} in {@code fragment} is tombstoned (TombstoneFieldData). */
  public FootprintBuilder unbackFieldData(Ref fragment, List<Ref> fields) {
    backing.unback(fragment, committedFragment(fragment), committedFieldIds(fields));
    return this;
  }

  /** {@code field} becomes non-nullable (AlterField nullable=false). */
  public FootprintBuilder makeNonNullable(Ref field) {
    if (field instanceof Ref.Local) {
      backing.mintNonNullable();
    } else {
      fieldId(field).ifPresent(backing::makeNonNullable);
    }
    return this;
  }

  /** The set mints a non-nullable field (AddField): no concurrent set has data for it. */
  public FootprintBuilder mintNonNullable() {
    backing.mintNonNullable();
    return this;
  }

  public Footprint build() {
    return new Footprint(claims, regions, requiredFragments, exclusive, insertsRows,
        keyAssertions, indexClaims, cells.build(), backing.build());
  }

  private static Optional<Long> committedFragment(Ref fragment) {
    return fragment instanceof Ref.Committed c ? Optional.of(c.id()) : Optional.empty();
  }

  private static Set<Integer> committedFieldIds(List<Ref> fields) {
    Set<Integer> ids = new LinkedHashSet<>();
    for (Ref f : fields) {
      fieldId(f).ifPresent(ids::add);
    }
    return ids;
  }

  private static Set<Long> committedIds(List<Ref> refs) {
    Set<Long> ids = new LinkedHashSet<>();
    for (Ref r : refs) {
      r.committedId().ifPresent(ids::add);
    }
    return ids;
  }

  private static OptionalInt fieldId(Ref field) {
    if (field instanceof Ref.Committed c && c.id() >= Integer.MIN_VALUE && c.id() <= Integer.MAX_VALUE) {
      return OptionalInt.of((int) c.id());
    }
    return OptionalInt.empty();
  }
}
