package dev.lancet.core.conflict;

import java.util.Objects;

/** One reason two footprints conflict, with a sentence a commit error can carry. */
public record Collision(Kind kind, String description) {

  /** Which rule found the collision. */
  public enum Kind {
    /** A set that replaces the whole table (ResetTable) collides with everything. */
    EXCLUSIVE,
    /** Two claims on one coordinate, under the directional pair rule. */
    COORDINATE,
    /** A region (whole fragment or map) against a coordinate in it, or against the same region. */
    REGION,
    /** A fragment one side needs and the other removes. */
    REQUIRED_FRAGMENT,
    /** Two claims on one index. */
    INDEX_CLAIM,
    /** A uniqueness assertion the other side's inserts may violate. */
    KEY_ASSERTION,
    /** Rows one side overlays and the other moves elsewhere (the overlay would be lost). */
    RELOCATION,
    /** A field one side makes non-nullable and the other leaves without data (seed §5.2). */
    NULLABILITY
  }

  public Collision {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(description, "description");
  }

  @Override
  public String toString() {
    return kind + ": " + description;
  }
}
