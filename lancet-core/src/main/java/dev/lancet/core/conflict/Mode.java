package dev.lancet.core.conflict;

/**
 * How a footprint touches a coordinate or region, weakest first (v2-semantics §4.3). A
 * footprint keeps the strongest mode per coordinate.
 */
public enum Mode {
  /** Reads it and needs it unchanged. */
  REQUIRES,
  /** Changes some of its cells without replacing the rest (data overlays). */
  PARTIAL_WRITE,
  /**
   * Replaces a fragment's deletion file with a new one whose added rows can be derived (a
   * row-level delete): a full write, except that two of them on one fragment are decided row
   * by row (docs/decisions/0016).
   */
  WRITES_ROWS,
  /** Replaces it. */
  WRITES;

  /** The stronger of this mode and {@code other}. */
  public Mode strongest(Mode other) {
    return compareTo(other) >= 0 ? this : other;
  }

  /**
   * The directional pair rule: whether a set touching something with {@code committing} may not
   * land after a set that touched it with {@code committed}. A write collides with anything but
   * a requirement (the committed side's requirements held when it committed); a partial write
   * or a requirement collides only with a committed full write.
   */
  public static boolean pairConflicts(Mode committing, Mode committed) {
    if (committing.writesAll()) {
      return committed != REQUIRES;
    }
    return committed.writesAll();
  }

  /** Whether two claims on one coordinate are decided row by row rather than colliding. */
  static boolean rowByRow(Mode committing, Mode committed) {
    return committing == WRITES_ROWS && committed == WRITES_ROWS;
  }

  private boolean writesAll() {
    return this == WRITES || this == WRITES_ROWS;
  }

  String verb() {
    switch (this) {
      case REQUIRES:
        return "requires";
      case PARTIAL_WRITE:
        return "partially writes";
      case WRITES_ROWS:
        return "deletes rows of";
      default:
        return "writes";
    }
  }
}
