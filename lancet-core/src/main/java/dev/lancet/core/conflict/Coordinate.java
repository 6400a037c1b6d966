package dev.lancet.core.conflict;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * One thing a transaction can touch (v2-semantics §4.1). Coordinates name committed ids only:
 * nothing a transaction mints can be named by a concurrent writer.
 */
public sealed interface Coordinate {

  /** A committed fragment is still part of the table. */
  record FragmentExistence(long fragment) implements Coordinate {
    @Override
    public String toString() {
      return "existence of fragment " + Long.toUnsignedString(fragment);
    }
  }

  /** A committed fragment's deletion file. */
  record FragmentDeletions(long fragment) implements Coordinate {
    @Override
    public String toString() {
      return "deletions of fragment " + Long.toUnsignedString(fragment);
    }
  }

  /** A committed fragment's per-row version sequences. */
  record FragmentRowVersions(long fragment) implements Coordinate {
    @Override
    public String toString() {
      return "row versions of fragment " + Long.toUnsignedString(fragment);
    }
  }

  /** The data backing one field in one committed fragment. */
  record FieldData(long fragment, int field) implements Coordinate {
    @Override
    public String toString() {
      return "data of field " + field + " in fragment " + Long.toUnsignedString(fragment);
    }
  }

  /** A field's schema entry (type, nullability, name, existence). */
  record FieldDefinition(int field) implements Coordinate {
    @Override
    public String toString() {
      return "definition of field " + field;
    }
  }

  /** A field name, table-wide (a footprint has no schema to place it among siblings). */
  record FieldName(String name) implements Coordinate {
    public FieldName {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
      return "field name '" + name + "'";
    }
  }

  /** A base path's name (only set names are recorded). */
  record BaseName(String name) implements Coordinate {
    public BaseName {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
      return "base name '" + name + "'";
    }
  }

  /** A base path's location. */
  record BaseLocation(String path) implements Coordinate {
    public BaseLocation {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
      return "base location '" + path + "'";
    }
  }

  /** One key of one string map. */
  record ConfigEntry(ConfigMap map, String key) implements Coordinate {
    public ConfigEntry {
      Objects.requireNonNull(map, "map");
      Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
      return "key '" + key + "' of the " + map;
    }
  }

  /** Which of the two table-wide unenforced keys. */
  enum KeyKind {
    PRIMARY,
    CLUSTERING
  }

  /** The table-wide unenforced key declared through reserved field metadata. */
  record UnenforcedKey(KeyKind kind) implements Coordinate {
    public UnenforcedKey {
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
      return "unenforced " + kind.name().toLowerCase(java.util.Locale.ROOT) + " key";
    }
  }

  /** One index segment. */
  record IndexSegment(UUID uuid) implements Coordinate {
    public IndexSegment {
      Objects.requireNonNull(uuid, "uuid");
    }

    @Override
    public String toString() {
      return "index segment " + uuid;
    }
  }

  /** The fragment a fragment-scoped coordinate lives in, if it is fragment-scoped. */
  default OptionalLong scopeFragment() {
    if (this instanceof FragmentExistence c) {
      return OptionalLong.of(c.fragment());
    } else if (this instanceof FragmentDeletions c) {
      return OptionalLong.of(c.fragment());
    } else if (this instanceof FragmentRowVersions c) {
      return OptionalLong.of(c.fragment());
    } else if (this instanceof FieldData c) {
      return OptionalLong.of(c.fragment());
    }
    return OptionalLong.empty();
  }

  /** The map a map-scoped coordinate lives in, if it is map-scoped. */
  default Optional<ConfigMap> scopeMap() {
    return this instanceof ConfigEntry e ? Optional.of(e.map()) : Optional.empty();
  }
}
