package dev.lancet.core.conflict;

import dev.lancet.core.action.Ref;
import dev.lancet.format.deletion.DeletionVector;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * One reason two transactions conflict, as a value a program can act on: what collided (a
 * fragment, its deletions and the rows both sides deleted, a field's data, a schema entry, a
 * config key, an index, key columns and the shared key hashes, ...) plus a sentence for people
 * ({@link #description()}; {@link #toString()} is {@code KIND: description}).
 *
 * <p>Fragment ids are unsigned 64-bit values held in {@code long}s, field ids are the schema's
 * {@code int}s, row offsets are physical offsets in a {@link DeletionVector}.
 */
public sealed interface Collision {

  /** What collided: the variant of the collision. */
  enum Kind {
    /** One side replaces the whole table (ResetTable), which conflicts with everything. */
    WHOLE_TABLE,
    /** A fragment one side needs, writes or removes and the other removes. */
    FRAGMENT,
    /** A fragment's deletions: the rows both sides deleted, or the deletion file as a whole. */
    FRAGMENT_DELETIONS,
    /** A fragment's per-row version sequences. */
    ROW_VERSIONS,
    /** The data of one field in one fragment. */
    FIELD_DATA,
    /** A field's schema entry (definition or name). */
    SCHEMA,
    /** A base path's name or location. */
    BASE,
    /** A key of one of the table's string maps (or the whole map). */
    CONFIG,
    /** The table-wide unenforced primary or clustering key. */
    UNENFORCED_KEY,
    /** A logical index or one of its segments. */
    INDEX,
    /** A uniqueness assertion the other side may violate. */
    KEY_ASSERTION,
    /** Rows one side moves to another fragment while the other changes them in place. */
    RELOCATION,
    /** Cells one side read and copied, which the other side changed (AssertCellsUnchanged). */
    CELLS_CHANGED,
    /** A field made non-nullable while the other side leaves it without data (seed §5.2). */
    NULLABILITY,
    /** A rule of the legacy pairwise matrix (seed §9) between two legacy operations. */
    LEGACY_RULE,
    /**
     * The transaction is valid on the version it read, but what it produces on top of the
     * versions committed since breaks a rule of the format (checked before publishing).
     */
    INVALID_AFTER_REBASE,
    /** The pair cannot be checked (unreadable or unknown transaction): it fails closed. */
    FAIL_CLOSED
  }

  Kind kind();

  /** A sentence for people: what collided and how. */
  String description();

  /** One side replaces the whole table. */
  record WholeTable(String description) implements Collision {
    public WholeTable {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.WHOLE_TABLE;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** Fragment {@code fragment} as a whole: needed, claimed or removed by one side, removed by the other. */
  record Fragment(long fragment, String description) implements Collision {
    public Fragment {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.FRAGMENT;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /**
   * The deletions of {@code fragment}. {@code rows} are the physical offsets both sides deleted
   * (or moved); empty when the deletion file collided as a whole (a side that clears it, or whose
   * deleted rows cannot be derived).
   */
  record FragmentDeletions(long fragment, DeletionVector rows, String description) implements Collision {
    public FragmentDeletions {
      Objects.requireNonNull(rows, "rows");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.FRAGMENT_DELETIONS;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** The row-version sequences of {@code fragment}. */
  record RowVersions(long fragment, String description) implements Collision {
    public RowVersions {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.ROW_VERSIONS;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** The data of {@code field} in {@code fragment}. */
  record FieldData(long fragment, int field, String description) implements Collision {
    public FieldData {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.FIELD_DATA;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** A schema entry: a field's definition ({@code field}) or a field name ({@code name}). */
  record Schema(OptionalInt field, Optional<String> name, String description) implements Collision {
    public Schema {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.SCHEMA;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** A base path, by name or by location. */
  record Base(Optional<String> name, Optional<String> location, String description) implements Collision {
    public Base {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.BASE;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** Key {@code key} of string map {@code map}; no key when the whole map was replaced. */
  record Config(ConfigMap map, Optional<String> key, String description) implements Collision {
    public Config {
      Objects.requireNonNull(map, "map");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.CONFIG;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** The table-wide unenforced primary or clustering key. */
  record UnenforcedKey(Coordinate.KeyKind key, String description) implements Collision {
    public UnenforcedKey {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.UNENFORCED_KEY;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** Logical index {@code name} (when known) or its segment {@code segment} (when one is named). */
  record Index(Optional<String> name, Optional<UUID> segment, String description) implements Collision {
    public Index {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(segment, "segment");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.INDEX;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /**
   * A uniqueness assertion over {@code keyFields} that the other side may violate. When both
   * sides carry exact key sets over those columns, {@code sharedKeyHashes} are the colliding
   * keys: the 64-bit hashes of the key values (an exact filter carries hashes, not values; a
   * writer that knows its keys maps them back with {@code dev.lancet.core.keys.KeyHasher}).
   * Empty for Bloom filters, which cannot name keys, and for an in-place write of a key column.
   */
  record KeyAssertion(List<Ref> keyFields, List<Long> sharedKeyHashes, String description) implements Collision {
    public KeyAssertion {
      keyFields = List.copyOf(keyFields);
      sharedKeyHashes = List.copyOf(sharedKeyHashes);
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.KEY_ASSERTION;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** Rows {@code rows} of {@code fragment}, moved by one side and changed in place by the other. */
  record Relocation(long fragment, DeletionVector rows, String description) implements Collision {
    public Relocation {
      Objects.requireNonNull(rows, "rows");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.RELOCATION;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /**
   * Cells of {@code fields} at offsets {@code rows} of {@code fragment} that this transaction
   * read and copied, and that the committed transaction changed.
   */
  record CellsChanged(long fragment, List<Integer> fields, DeletionVector rows, String description)
      implements Collision {
    public CellsChanged {
      fields = List.copyOf(fields);
      Objects.requireNonNull(rows, "rows");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.CELLS_CHANGED;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** Field {@code field} (when committed) made non-nullable while the other side leaves it without data. */
  record Nullability(OptionalInt field, String description) implements Collision {
    public Nullability {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.NULLABILITY;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /**
   * A legacy matrix rule between {@code ourOperation} and {@code theirOperation} (Lance's
   * operation names); {@code fragments} are the fragments it names, when it names any.
   */
  record LegacyRule(String ourOperation, String theirOperation, List<Long> fragments, String description)
      implements Collision {
    public LegacyRule {
      Objects.requireNonNull(ourOperation, "ourOperation");
      Objects.requireNonNull(theirOperation, "theirOperation");
      fragments = List.copyOf(fragments);
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.LEGACY_RULE;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /**
   * Valid on the read version, invalid on the newest one (decision 0015): for example a cast of
   * a field a concurrent commit gave data the cast does not rewrite.
   */
  record InvalidAfterRebase(String description) implements Collision {
    public InvalidAfterRebase {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.INVALID_AFTER_REBASE;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** The pair could not be checked, so it conflicts (fail closed). */
  record FailClosed(String description) implements Collision {
    public FailClosed {
      Objects.requireNonNull(description, "description");
    }

    @Override
    public Kind kind() {
      return Kind.FAIL_CLOSED;
    }

    @Override
    public String toString() {
      return kind() + ": " + description;
    }
  }

  /** The collision on coordinate {@code c}, typed by what it names. */
  static Collision at(Coordinate c, String description) {
    if (c instanceof Coordinate.FragmentExistence e) {
      return new Fragment(e.fragment(), description);
    } else if (c instanceof Coordinate.FragmentDeletions d) {
      return new FragmentDeletions(d.fragment(), DeletionVector.empty(), description);
    } else if (c instanceof Coordinate.FragmentRowVersions v) {
      return new RowVersions(v.fragment(), description);
    } else if (c instanceof Coordinate.FieldData d) {
      return new FieldData(d.fragment(), d.field(), description);
    } else if (c instanceof Coordinate.FieldDefinition d) {
      return new Schema(OptionalInt.of(d.field()), Optional.empty(), description);
    } else if (c instanceof Coordinate.FieldName n) {
      return new Schema(OptionalInt.empty(), Optional.of(n.name()), description);
    } else if (c instanceof Coordinate.BaseName n) {
      return new Base(Optional.of(n.name()), Optional.empty(), description);
    } else if (c instanceof Coordinate.BaseLocation l) {
      return new Base(Optional.empty(), Optional.of(l.path()), description);
    } else if (c instanceof Coordinate.ConfigEntry e) {
      return new Config(e.map(), Optional.of(e.key()), description);
    } else if (c instanceof Coordinate.UnenforcedKey k) {
      return new UnenforcedKey(k.kind(), description);
    }
    return new Index(Optional.empty(), Optional.of(((Coordinate.IndexSegment) c).uuid()), description);
  }

  /** The collision on region {@code r} as a whole. */
  static Collision at(Region r, String description) {
    if (r instanceof Region.Fragment f) {
      return new Fragment(f.id(), description);
    }
    return new Config(((Region.Map) r).map(), Optional.empty(), description);
  }
}
