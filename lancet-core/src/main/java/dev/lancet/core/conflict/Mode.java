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
    if (committing == WRITES) {
      return committed != REQUIRES;
    }
    return committed == WRITES;
  }

  String verb() {
    switch (this) {
      case REQUIRES:
        return "requires";
      case PARTIAL_WRITE:
        return "partially writes";
      default:
        return "writes";
    }
  }
}
