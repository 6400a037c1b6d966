package dev.lancet.core.conflict;

import java.util.List;
import java.util.stream.Collectors;

/** The outcome of {@link Conflicts#check}: every collision found (none = no conflict). */
public record ConflictResult(List<Collision> collisions) {
  public ConflictResult {
    collisions = List.copyOf(collisions);
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
