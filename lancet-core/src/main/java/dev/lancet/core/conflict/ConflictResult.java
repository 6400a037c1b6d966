package dev.lancet.core.conflict;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The outcome of {@link Conflicts#check}: every collision found (none = no conflict), and the
 * committed fragments whose deletions both sides extended ({@code rowChecks}). Those are not
 * collisions yet: which rows each side deleted is derived by reading the deletion files
 * (docs/decisions/0016), so the commit decides them row by row before it publishes, merging
 * disjoint deletions and failing on a row both deleted.
 */
public record ConflictResult(List<Collision> collisions, Set<Long> rowChecks) {
  public ConflictResult {
    collisions = List.copyOf(collisions);
    rowChecks = rowChecks.isEmpty() ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(rowChecks));
  }

  public ConflictResult(List<Collision> collisions) {
    this(collisions, Set.of());
  }

  public boolean conflicts() {
    return !collisions.isEmpty();
  }

  /** One line per collision, for an error message. */
  public String describe() {
    return collisions.isEmpty() ? "no conflict"
        : collisions.stream().map(Collision::description).collect(Collectors.joining("; "));
  }
}
