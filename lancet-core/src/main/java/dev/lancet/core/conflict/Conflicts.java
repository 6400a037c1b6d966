package dev.lancet.core.conflict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * The directional conflict check (v2-semantics §4.3–4.5): may {@code committing} land after
 * {@code committed}, which committed after {@code committing} read? The committed side's
 * requirements never matter (they held when it committed); required fragments against
 * removals, index claims and key assertions are checked both ways.
 */
public final class Conflicts {
  private Conflicts() {}

  public static ConflictResult check(Footprint committing, Footprint committed) {
    List<Collision> out = new ArrayList<>();
    if (committing.exclusive() || committed.exclusive()) {
      out.add(new Collision(Collision.Kind.EXCLUSIVE, (committing.exclusive()
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
          out.add(new Collision(Collision.Kind.COORDINATE, e.getKey() + ": this transaction "
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
            out.add(new Collision(Collision.Kind.REGION, ours.getKey() + ": this transaction "
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
            out.add(new Collision(Collision.Kind.REGION, theirs.getKey() + ": this transaction "
                + ours.verb() + " " + r + " and the committed transaction " + theirs.getValue().verb() + " it"));
          }
        }
      }
    }
    // The same region on both sides.
    for (Map.Entry<Region, Mode> ours : committing.regions().entrySet()) {
      Mode theirMode = committed.regions().get(ours.getKey());
      if (theirMode != null && Mode.pairConflicts(ours.getValue(), theirMode)) {
        out.add(new Collision(Collision.Kind.REGION, ours.getKey() + ": both transactions claim it ("
            + ours.getValue().verb() + " / " + theirMode.verb() + ")"));
      }
    }
    // Required fragments against removals, both ways.
    for (long f : committed.regions().isEmpty() ? Set.<Long>of() : committing.requiredFragments()) {
      if (committed.regions().containsKey(new Region.Fragment(f))) {
        out.add(new Collision(Collision.Kind.REQUIRED_FRAGMENT, "fragment "
            + Long.toUnsignedString(f) + ": this transaction needs it and the committed transaction removed it"));
      }
    }
    for (long f : committing.regions().isEmpty() ? Set.<Long>of() : committed.requiredFragments()) {
      if (committing.regions().containsKey(new Region.Fragment(f))) {
        out.add(new Collision(Collision.Kind.REQUIRED_FRAGMENT, "fragment "
            + Long.toUnsignedString(f) + ": this transaction removes it and the committed transaction needed it"));
      }
    }
    // Index claims (symmetric).
    for (IndexClaim ours : committing.indexClaims()) {
      for (IndexClaim theirs : committed.indexClaims()) {
        ours.collision(theirs).ifPresent(d -> out.add(new Collision(Collision.Kind.INDEX_CLAIM, d)));
      }
    }
    // Overlaid rows against relocated rows, both ways: the move would copy the old values and
    // lose the overlay. A plain delete of overlaid rows, or two overlays, do not conflict.
    relocationLosesOverlay(committing.overlaidRows(), committed.relocatedRows(),
        "this transaction overlays", "the committed transaction moved them to another fragment")
        .ifPresent(out::add);
    relocationLosesOverlay(committed.overlaidRows(), committing.relocatedRows(),
        "the committed transaction overlaid", "this transaction moves them to another fragment")
        .ifPresent(out::add);
    // Nullability (seed §5.2, symmetric): a field made non-nullable against rows or files that
    // leave it without data.
    FieldBacking.violation(committing.backing(), committed.backing(), "this transaction's",
        "the committed transaction").ifPresent(d -> out.add(new Collision(Collision.Kind.NULLABILITY, d)));
    FieldBacking.violation(committed.backing(), committing.backing(), "the committed transaction's",
        "this transaction").ifPresent(d -> out.add(new Collision(Collision.Kind.NULLABILITY, d)));
    // Key assertions (symmetric).
    keyViolation(committing, committed, "this transaction's", "the committed transaction")
        .ifPresent(out::add);
    keyViolation(committed, committing, "the committed transaction's", "this transaction")
        .ifPresent(out::add);
    return new ConflictResult(out);
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

  private static Optional<Collision> relocationLosesOverlay(Map<Long, RoaringBitmap> overlaid,
      Map<Long, RoaringBitmap> relocated, String overlayer, String mover) {
    for (Map.Entry<Long, RoaringBitmap> o : overlaid.entrySet()) {
      RoaringBitmap moved = relocated.get(o.getKey());
      if (moved != null && RoaringBitmap.intersects(o.getValue(), moved)) {
        RoaringBitmap both = RoaringBitmap.and(o.getValue(), moved);
        return Optional.of(new Collision(Collision.Kind.RELOCATION, "fragment "
            + Long.toUnsignedString(o.getKey()) + ": " + overlayer + " " + both.getLongCardinality()
            + " row(s) (first offset " + Integer.toUnsignedString(both.first()) + ") and " + mover));
      }
    }
    return Optional.empty();
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
        return Optional.of(new Collision(Collision.Kind.KEY_ASSERTION, whose
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
          return Optional.of(new Collision(Collision.Kind.KEY_ASSERTION,
              prefix + "both assert over key columns " + ours.keyFields() + " and " + why.get()));
        }
      }
      if (!spokenFor) {
        return Optional.of(new Collision(Collision.Kind.KEY_ASSERTION, prefix + (other.keyAssertions().isEmpty()
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
