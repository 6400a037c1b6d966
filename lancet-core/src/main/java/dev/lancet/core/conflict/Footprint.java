package dev.lancet.core.conflict;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a composite operation touches, for conflict detection (v2-semantics §4.3, the Gen-C model
 * with partial writes, key assertions and index claims). Computed from the actions at conflict
 * time, never stored.
 *
 * <p>Coordinates, regions and required fragments name committed ids only. Key assertions and
 * index claims keep the refs their actions gave; comparing them across two transactions is
 * <b>conservative</b>: a {@code Ref.Local} never equals anything from the other transaction (not
 * even the same token), so such key columns or index identities count as different and collide.
 *
 * @param claims the strongest mode per coordinate
 * @param regions the strongest mode per region (whole fragments removed, whole maps replaced)
 * @param requiredFragments committed fragments that must survive
 * @param exclusive whether the set replaces the whole table
 * @param insertsRows whether the set adds data-change fragments (matters to key assertions)
 * @param keyAssertions uniqueness assertions, in action order
 * @param indexClaims index claims, in action order
 * @param cells which rows and cells of committed fragments the set deletes, moves, overlays,
 *     rewrites in place or read and copied
 * @param backing which fields the set makes non-nullable and which it leaves without data
 */
public record Footprint(
    Map<Coordinate, Mode> claims,
    Map<Region, Mode> regions,
    Set<Long> requiredFragments,
    boolean exclusive,
    boolean insertsRows,
    List<KeyAssertion> keyAssertions,
    List<IndexClaim> indexClaims,
    CellFootprint cells,
    FieldBacking backing) {

  public Footprint {
    claims = Collections.unmodifiableMap(new LinkedHashMap<>(claims));
    regions = Collections.unmodifiableMap(new LinkedHashMap<>(regions));
    requiredFragments = Collections.unmodifiableSet(new LinkedHashSet<>(requiredFragments));
    keyAssertions = List.copyOf(keyAssertions);
    indexClaims = List.copyOf(indexClaims);
    java.util.Objects.requireNonNull(cells, "cells");
    java.util.Objects.requireNonNull(backing, "backing");
  }

  /** Folds every action's footprint, in application order. */
  public static Footprint of(CompositeOperation operation) {
    FootprintBuilder fp = new FootprintBuilder();
    for (Action a : operation.actions()) {
      a.footprint(fp);
    }
    return fp.build();
  }

  public static FootprintBuilder builder() {
    return new FootprintBuilder();
  }

  /** Whether this footprint conflicts when it commits after {@code committed}. */
  public ConflictResult checkAgainst(Footprint committed) {
    return Conflicts.check(this, committed);
  }
}
