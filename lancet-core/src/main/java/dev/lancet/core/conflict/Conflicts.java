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

  /** Whether {@code asserting}'s key assertions may be violated by {@code inserting}'s rows. */
  private static Optional<Collision> keyViolation(Footprint asserting, Footprint inserting,
      String whose, String other) {
    if (asserting.keyAssertions().isEmpty() || !inserting.insertsRows()) {
      return Optional.empty();
    }
    String prefix = whose + " unique-key assertion may be violated by rows " + other + " inserted: ";
    if (inserting.keyAssertions().isEmpty()) {
      return Optional.of(new Collision(Collision.Kind.KEY_ASSERTION,
          prefix + "those rows carry no key assertion, so their keys cannot be checked"));
    }
    for (KeyAssertion x : asserting.keyAssertions()) {
      for (KeyAssertion y : inserting.keyAssertions()) {
        Optional<String> why = x.collision(y);
        if (why.isPresent()) {
          return Optional.of(new Collision(Collision.Kind.KEY_ASSERTION, prefix + why.get()));
        }
      }
    }
    return Optional.empty();
  }
}
