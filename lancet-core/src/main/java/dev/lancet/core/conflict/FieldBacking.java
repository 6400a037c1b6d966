package dev.lancet.core.conflict;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a set does to the guarantee that every non-nullable field has data in every fragment
 * (seed §5.2, the V2 form of the legacy nullability guard G1): which fields it makes
 * non-nullable, and which rows or values it leaves without data for a field. Two concurrent
 * sets where one tightens a field and the other leaves it unbacked conflict in either order,
 * so a rebase never publishes a non-nullable field without data.
 *
 * @param madeNonNullable committed fields the set makes non-nullable (AlterField nullable=false)
 * @param mintsNonNullable whether the set adds a non-nullable field (AddField, or AlterField of
 *     a field it mints): no concurrent set can have data for it
 * @param addedFragments per fragment the set adds with rows, the committed fields its data files
 *     back (a fragment reads every other field as null)
 * @param unbacked per committed fragment, the committed fields whose data the set tombstones
 *     there without writing new data for them
 */
public record FieldBacking(
    Set<Integer> madeNonNullable,
    boolean mintsNonNullable,
    List<Set<Integer>> addedFragments,
    Map<Long, Set<Integer>> unbacked) {

  public static final FieldBacking NONE = new FieldBacking(Set.of(), false, List.of(), Map.of());

  public FieldBacking {
    madeNonNullable = Collections.unmodifiableSet(new TreeSet<>(madeNonNullable));
    addedFragments = addedFragments.stream().map(s -> Set.copyOf(s)).toList();
    Map<Long, Set<Integer>> copy = new LinkedHashMap<>();
    unbacked.forEach((f, fields) -> {
      if (!fields.isEmpty()) {
        copy.put(f, Collections.unmodifiableSet(new TreeSet<>(fields)));
      }
    });
    unbacked = Collections.unmodifiableMap(copy);
  }

  /**
   * Why {@code tightening}'s non-nullable fields may be left without data by {@code other}, or
   * empty. Checked both ways by {@link Conflicts}.
   */
  static Optional<Collision> violation(FieldBacking tightening, FieldBacking other, String whose, String otherName) {
    if (tightening.mintsNonNullable && !other.addedFragments.isEmpty()) {
      return Optional.of(new Collision.Nullability(java.util.OptionalInt.empty(),
          whose + " new non-nullable field has no data in the rows " + otherName
          + " adds (it cannot know the field), which would leave the field unbacked in those fragments"));
    }
    for (int field : tightening.madeNonNullable) {
      for (Set<Integer> backed : other.addedFragments) {
        if (!backed.contains(field)) {
          return Optional.of(new Collision.Nullability(java.util.OptionalInt.of(field), whose
              + " change makes field " + field + " non-nullable, and " + otherName
              + " adds rows with no data for it (they would read as null)"));
        }
      }
      for (Map.Entry<Long, Set<Integer>> e : other.unbacked.entrySet()) {
        if (e.getValue().contains(field)) {
          return Optional.of(new Collision.Nullability(java.util.OptionalInt.of(field), whose
              + " change makes field " + field + " non-nullable, and " + otherName
              + " removes its data from fragment " + Long.toUnsignedString(e.getKey())
              + " without writing new data (the rows would read as null)"));
        }
      }
    }
    return Optional.empty();
  }

  /** Collects a set's backing facts in action order. */
  static final class Builder {
    private final Set<Integer> madeNonNullable = new LinkedHashSet<>();
    private boolean mintsNonNullable;
    // Keyed by the fragment ref as the set names it (a Local token or a reserved committed id).
    private final Map<Object, Set<Integer>> addedFragments = new LinkedHashMap<>();
    private final Map<Long, Set<Integer>> unbacked = new LinkedHashMap<>();

    void makeNonNullable(int committedField) {
      madeNonNullable.add(committedField);
    }

    void mintNonNullable() {
      mintsNonNullable = true;
    }

    void addFragment(Object key) {
      addedFragments.putIfAbsent(key, new LinkedHashSet<>());
    }

    /** Data for {@code fields} in the fragment {@code key}: an added one, or a committed one. */
    void back(Object key, Optional<Long> committedFragment, Set<Integer> fields) {
      Set<Integer> added = addedFragments.get(key);
      if (added != null) {
        added.addAll(fields);
      } else if (committedFragment.isPresent()) {
        Set<Integer> gone = unbacked.get(committedFragment.get());
        if (gone != null) {
          gone.removeAll(fields);
        }
      }
    }

    /** Data for {@code fields} tombstoned in the fragment {@code key} and not (yet) rewritten. */
    void unback(Object key, Optional<Long> committedFragment, Set<Integer> fields) {
      Set<Integer> added = addedFragments.get(key);
      if (added != null) {
        added.removeAll(fields);
      } else if (committedFragment.isPresent()) {
        unbacked.computeIfAbsent(committedFragment.get(), f -> new LinkedHashSet<>()).addAll(fields);
      }
    }

    FieldBacking build() {
      return new FieldBacking(madeNonNullable, mintsNonNullable, List.copyOf(addedFragments.values()), unbacked);
    }
  }
}
