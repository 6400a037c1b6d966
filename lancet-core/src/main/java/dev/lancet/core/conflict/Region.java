package dev.lancet.core.conflict;

import java.util.Objects;

/**
 * A whole fragment or a whole string map, claimed by a removal or a replacement. A region
 * contains the coordinates scoped to it and matches only an equal region.
 */
public sealed interface Region {

  /** Every fragment-scoped coordinate of one committed fragment. */
  record Fragment(long id) implements Region {
    @Override
    public String toString() {
      return "all of fragment " + Long.toUnsignedString(id);
    }
  }

  /** Every entry of one string map. */
  record Map(ConfigMap map) implements Region {
    public Map {
      Objects.requireNonNull(map, "map");
    }

    @Override
    public String toString() {
      return "the whole " + map;
    }
  }

  /** Whether {@code c} is scoped to this region. */
  default boolean contains(Coordinate c) {
    if (this instanceof Fragment f) {
      return c.scopeFragment().isPresent() && c.scopeFragment().getAsLong() == f.id();
    }
    Map m = (Map) this;
    return c.scopeMap().isPresent() && c.scopeMap().get().equals(m.map());
  }
}
