package dev.lancet.core.conflict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import dev.lancet.core.keys.KeyFilters;
import dev.lancet.format.deletion.DeletionVector;
import org.roaringbitmap.RoaringBitmap;

/**
 * The directional conflict check (v2-semantics §4.3–4.5): may {@code committing} land after
 * {@code committed}, which committed after {@code committing} read? The committed side's
 * requirements never matter (they held when it committed); required fragments against
 * removals, index claims and key assertions are checked both ways.
 *
 * <p>Row- and cell-granular rules ({@link CellFootprint}): two sets that both replace a
 * fragment's deletion file with a new one are not a collision but a row check
 * ({@link ConflictResult#rowChecks()}, decided by the commit on the deletion files,
 * docs/decisions/0016); moved rows collide with overlays of them and with in-place rewrites of
 * their fragment, either order (0004, 0018); cells a committing set read and copied collide
 * with a committed set that changed them (0018).
 */
public final class Conflicts {
  private Conflicts() {}

  public static ConflictResult check(Footprint committing, Footprint committed) {
    List<Collision> out = new ArrayList<>();
    Set<Long> rowChecks = Set.of();  // rarely needed: allocated on the first row check
    if (committing.exclusive() || committed.exclusive()) {
      out.add(new Collision.WholeTable((committing.exclusive()
          ? "this transaction replaces the whole table" : "the committed transaction replaced the whole table")
          + ", which conflicts with every concurrent change"));
    }
    // The same coordinate on both sides: look the smaller claim map up in the larger.
    boolean oursSmaller = committing.claims().size() <= committed.claims().size();
    Map<Coordinate, Mode> scan = oursSmaller ? committing.claims() : committed.claims();
    Map<Coordinate, Mode> probe = oursSmaller ? committed.claims() : committing.claims();
    for (Map.Entry<Coordinate, Mode> e : scan.entrySet()) {
      Mode other = probe.get(e.getKey());
      if (other != null) {
        Mode ours = oursSmaller ? e.getValue() : other;
        Mode theirs = oursSmaller ? other : e.getValue();
        if (Mode.pairConflicts(ours, theirs)) {
          if (Mode.rowByRow(ours, theirs) && e.getKey() instanceof Coordinate.FragmentDeletions d) {
            // Both delete rows of the fragment: decided row by row (decision 0016).
            if (rowChecks.isEmpty()) {
              rowChecks = new java.util.TreeSet<>();
            }
            rowChecks.add(d.fragment());
            continue;
          }
          out.add(Collision.at(e.getKey(), e.getKey() + ": this transaction "
              + ours.verb() + " it and the committed transaction " + theirs.verb() + " it"));
        }
      }
    }
    // Our claims inside their regions. A coordinate lies in at most one fragment region and
    // one map region, so each claim looks its regions up instead of scanning them.
    if (!committed.regions().isEmpty()) {
      for (Map.Entry<Coordinate, Mode> ours : committing.claims().entrySet()) {
        for (Region r : regionsOf(ours.getKey())) {
          Mode theirs = committed.regions().get(r);
          if (theirs != null && Mode.pairConflicts(ours.getValue(), theirs)) {
            out.add(inRegion(ours.getKey(), r, ours.getKey() + ": this transaction "
                + ours.getValue().verb() + " it and the committed transaction " + theirs.verb() + " " + r));
          }
        }
      }
    }
    // Their claims inside our regions.
    if (!committing.regions().isEmpty()) {
      for (Map.Entry<Coordinate, Mode> theirs : committed.claims().entrySet()) {
        for (Region r : regionsOf(theirs.getKey())) {
          Mode ours = committing.regions().get(r);
          if (ours != null && Mode.pairConflicts(ours, theirs.getValue())) {
            out.add(inRegion(theirs.getKey(), r, theirs.getKey() + ": this transaction "
                + ours.verb() + " " + r + " and the committed transaction " + theirs.getValue().verb() + " it"));
          }
        }
      }
    }
    // The same region on both sides.
    for (Map.Entry<Region, Mode> ours : committing.regions().entrySet()) {
      Mode theirMode = committed.regions().get(ours.getKey());
      if (theirMode != null && Mode.pairConflicts(ours.getValue(), theirMode)) {
        out.add(Collision.at(ours.getKey(), ours.getKey() + ": both transactions claim it ("
            + ours.getValue().verb() + " / " + theirMode.verb() + ")"));
      }
    }
    // Required fragments against removals, both ways.
    for (long f : committed.regions().isEmpty() ? Set.<Long>of() : committing.requiredFragments()) {
      if (committed.regions().containsKey(new Region.Fragment(f))) {
        out.add(new Collision.Fragment(f, "fragment "
            + Long.toUnsignedString(f) + ": this transaction needs it and the committed transaction removed it"));
      }
    }
    for (long f : committing.regions().isEmpty() ? Set.<Long>of() : committed.requiredFragments()) {
      if (committing.regions().containsKey(new Region.Fragment(f))) {
        out.add(new Collision.Fragment(f, "fragment "
            + Long.toUnsignedString(f) + ": this transaction removes it and the committed transaction needed it"));
      }
    }
    // Index claims (symmetric).
    for (IndexClaim ours : committing.indexClaims()) {
      for (IndexClaim theirs : committed.indexClaims()) {
        ours.collision(theirs).ifPresent(d ->
            out.add(new Collision.Index(Optional.of(ours.name()), Optional.empty(), d)));
      }
    }
    cellCollisions(committing, committed, out);
    // Nullability (seed §5.2, symmetric): a field made non-nullable against rows or files that
    // leave it without data.
    FieldBacking.violation(committing.backing(), committed.backing(), "this transaction's",
        "the committed transaction").ifPresent(out::add);
    FieldBacking.violation(committed.backing(), committing.backing(), "the committed transaction's",
        "this transaction").ifPresent(out::add);
    // Key assertions (symmetric).
    keyViolation(committing, committed, "this transaction's", "the committed transaction")
        .ifPresent(out::add);
    keyViolation(committed, committing, "the committed transaction's", "this transaction")
        .ifPresent(out::add);
    return new ConflictResult(out, rowChecks);
  }

  /** Coordinate {@code c} inside region {@code r}: a map key keeps its name, anything else is the fragment. */
  private static Collision inRegion(Coordinate c, Region r, String description) {
    return r instanceof Region.Map && c instanceof Coordinate.ConfigEntry ? Collision.at(c, description)
        : Collision.at(r, description);
  }

  /**
   * The row- and cell-granular rules. Moved rows lose whatever another set changes in place on
   * them: an overlay of those rows, or a data-changing rewrite of any column of their fragment
   * (the copies carry the old values), in either order. Cells a committing set read and copied
   * must not have been changed by the committed set: a data-changing rewrite of a read field
   * in that fragment, an overlay of read cells, or a move of read rows.
   */
  private static void cellCollisions(Footprint committing, Footprint committed, List<Collision> out) {
    CellFootprint ours = committing.cells();
    CellFootprint theirs = committed.cells();
    relocationLoses(ours.relocatedRows(), theirs, "this transaction moves", "the committed transaction",
        out);
    relocationLoses(theirs.relocatedRows(), ours, "the committed transaction moved", "this transaction",
        out);
    if (ours.readCells().isEmpty()) {
      return;
    }
    for (Map.Entry<Long, Map<Integer, RoaringBitmap>> e : ours.readCells().entrySet()) {
      long fragment = e.getKey();
      String frag = "fragment " + Long.toUnsignedString(fragment);
      Set<Integer> rewritten = theirs.rewrittenFields().getOrDefault(fragment, Set.of());
      Map<Integer, RoaringBitmap> overlaid = theirs.overlaidCells().getOrDefault(fragment, Map.of());
      RoaringBitmap moved = theirs.relocatedRows().get(fragment);
      for (Map.Entry<Integer, RoaringBitmap> read : e.getValue().entrySet()) {
        int field = read.getKey();
        if (rewritten.contains(field)) {
          out.add(new Collision.CellsChanged(fragment, List.of(field), DeletionVector.fromBitmap(read.getValue()),
              frag + ": this transaction copied " + rows(read.getValue()) + " of field " + field
                  + ", and the committed transaction rewrote that field's data in place"));
          continue;
        }
        RoaringBitmap overlay = overlaid.get(field);
        if (overlay != null && RoaringBitmap.intersects(overlay, read.getValue())) {
          RoaringBitmap hit = RoaringBitmap.and(overlay, read.getValue());
          out.add(new Collision.CellsChanged(fragment, List.of(field), DeletionVector.fromBitmap(hit),
              frag + ": this transaction copied " + rows(hit) + " of field " + field
                  + ", which the committed transaction overlaid with new values"));
        }
      }
      if (moved != null) {
        RoaringBitmap readRows = RoaringBitmap.or(e.getValue().values().iterator());
        if (RoaringBitmap.intersects(moved, readRows)) {
          RoaringBitmap hit = RoaringBitmap.and(moved, readRows);
          out.add(new Collision.CellsChanged(fragment, List.copyOf(e.getValue().keySet()),
              DeletionVector.fromBitmap(hit), frag + ": this transaction copied " + rows(hit)
                  + ", which the committed transaction moved to another fragment (updated copies)"));
        }
      }
    }
  }

  /** Rows {@code mover} moves that {@code other} changes in place: an overlay, or a column rewrite. */
  private static void relocationLoses(Map<Long, RoaringBitmap> relocated, CellFootprint other, String mover,
      String otherName, List<Collision> out) {
    for (Map.Entry<Long, RoaringBitmap> m : relocated.entrySet()) {
      long fragment = m.getKey();
      String frag = "fragment " + Long.toUnsignedString(fragment);
      if (other.writesInPlace(fragment)) {
        Set<Integer> fields = other.rewrittenFields().getOrDefault(fragment, Set.of());
        out.add(new Collision.Relocation(fragment, DeletionVector.fromBitmap(m.getValue()), frag + ": "
            + mover + " " + rows(m.getValue()) + " to another fragment, and " + otherName + " rewrites "
            + (fields.isEmpty() ? "a new field's data" : "the data of field(s) " + fields)
            + " there in place; the moved copies would keep the old values"));
        continue;
      }
      if (!other.overlaidCells().containsKey(fragment)) {
        continue;
      }
      RoaringBitmap overlaid = other.overlaidRows(fragment);
      if (RoaringBitmap.intersects(overlaid, m.getValue())) {
        RoaringBitmap both = RoaringBitmap.and(overlaid, m.getValue());
        out.add(new Collision.Relocation(fragment, DeletionVector.fromBitmap(both), frag + ": " + otherName
            + (otherName.startsWith("this") ? " overlays " : " overlaid ") + rows(both) + " and " + mover
            + " them to another fragment"));
      }
    }
  }

  /** "3 row(s) (first offset 2)". */
  private static String rows(RoaringBitmap rows) {
    return rows.getLongCardinality() + " row(s)"
        + (rows.isEmpty() ? "" : " (first offset " + Integer.toUnsignedString(rows.first()) + ")");
  }

  /** The regions {@code c} lies in: its fragment's and its map's, when scoped to one. */
  private static List<Region> regionsOf(Coordinate c) {
    OptionalLong fragment = c.scopeFragment();
    Optional<ConfigMap> map = c.scopeMap();
    if (fragment.isEmpty() && map.isEmpty()) {
      return List.of();
    }
    List<Region> out = new ArrayList<>(2);
    fragment.ifPresent(f -> out.add(new Region.Fragment(f)));
    map.ifPresent(m -> out.add(new Region.Map(m)));
    return out;
  }

  /**
   * Whether {@code asserting}'s key assertions may be violated by {@code other}, the rule of
   * upstream's {@code key_assertion_violated_by} (lance-format/lance
   * {@code rust/lance-table/src/transaction/action/footprint.rs} @6d18f6ee). A key can arrive two
   * ways. A write into a key column of rows that are already there (a column rewrite, an
   * overlay) can put any value in it and says nothing about which: a violation outright, in
   * either order. Inserted rows are compatible only if {@code other} asserts over the same
   * key-column set with a filter that provably shares no key: each assertion speaks for every
   * row its set inserts, so assertions are matched per key-column set, and an insert with no
   * assertion over our columns could have put anything in them.
   */
  private static Optional<Collision> keyViolation(Footprint asserting, Footprint other,
      String whose, String otherName) {
    if (asserting.keyAssertions().isEmpty()) {
      return Optional.empty();
    }
    for (KeyAssertion ours : asserting.keyAssertions()) {
      Optional<Coordinate.FieldData> written = writeIntoAnyOf(other, ours.keyFields());
      if (written.isPresent()) {
        return Optional.of(new Collision.KeyAssertion(ours.keyFields(), List.of(), whose
            + " unique-key assertion over " + ours.keyFields() + " may be violated: " + otherName
            + " writes the " + written.get() + " in place (a column rewrite or an overlay can put "
            + "any value in a key column, and says nothing about which)"));
      }
    }
    if (!other.insertsRows()) {
      return Optional.empty();
    }
    String prefix = whose + " unique-key assertion may be violated by rows " + otherName + " inserted: ";
    for (KeyAssertion ours : asserting.keyAssertions()) {
      boolean spokenFor = false;
      for (KeyAssertion theirs : other.keyAssertions()) {
        if (!ours.sameKeyColumns(theirs)) {
          continue;
        }
        spokenFor = true;
        Optional<String> why = ours.mayShareAKeyWith(theirs);
        if (why.isPresent()) {
          return Optional.of(new Collision.KeyAssertion(ours.keyFields(),
              KeyFilters.sharedKeyHashes(ours.filter(), theirs.filter()),
              prefix + "both assert over key columns " + ours.keyFields() + " and " + why.get()));
        }
      }
      if (!spokenFor) {
        return Optional.of(new Collision.KeyAssertion(ours.keyFields(), List.of(), prefix + (other.keyAssertions().isEmpty()
            ? "those rows carry no key assertion, so their keys cannot be checked"
            : "they carry no assertion over key columns " + ours.keyFields() + " (only over "
                + other.keyAssertions().stream().map(KeyAssertion::keyFields).toList()
                + "), so the keys they put in those columns cannot be checked")));
      }
    }
    return Optional.empty();
  }

  /**
   * A (full or partial) write by {@code fp} of committed data of one of {@code keyFields}, or
   * empty. A key column the asserting side mints is never named by another transaction.
   */
  private static Optional<Coordinate.FieldData> writeIntoAnyOf(Footprint fp, List<dev.lancet.core.action.Ref> keyFields) {
    java.util.Set<Long> keys = new java.util.HashSet<>();
    keyFields.forEach(r -> r.committedId().ifPresent(keys::add));
    if (keys.isEmpty()) {
      return Optional.empty();
    }
    for (Map.Entry<Coordinate, Mode> e : fp.claims().entrySet()) {
      if (e.getKey() instanceof Coordinate.FieldData d && e.getValue() != Mode.REQUIRES
          && keys.contains((long) d.field())) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }
}
