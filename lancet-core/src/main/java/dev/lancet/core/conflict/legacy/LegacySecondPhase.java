package dev.lancet.core.conflict.legacy;

import dev.lancet.core.conflict.legacy.SecondPhaseObligation.IntersectDeletions;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.MovedRowsAgainstOurOverlay;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation.OurMovedRowsAgainstTheirOverlay;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.conflict.deletions.DeletionMerge;
import dev.lancet.core.conflict.deletions.DeletionVectors;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * Discharges the conflicting second-phase obligations (seed §9.6) by reading deletion vectors:
 * an OK verdict here means the rows each side affected do not meet; RETRYABLE names the fragment
 * and a few of the offsets that do. Writes nothing; {@link LegacyRebase} writes the merged
 * deletion files.
 *
 * <p>Our affected rows in a fragment are, for a Delete or a row-moving Update, the rows our new
 * deletion vector has that the fragment's deletion vector at our read version lacked; for a
 * column-rewriting Update, the offsets it records as matched. Their affected rows are whatever
 * the newest version deleted since our read version.
 */
public final class LegacySecondPhase {
  private LegacySecondPhase() {}

  public static LegacyVerdict check(Transaction ours, List<SecondPhaseObligation> obligations,
      FragmentStates states, DeletionVectors vectors) throws IOException {
    String who = "this " + LegacyKind.of(ours).map(LegacyKind::operationName).orElse("transaction")
        + " (" + ours.getUuid() + "): ";
    String retry = "; retry against the newer version";
    for (long f : fragments(obligations, IntersectDeletions.class)) {
      Optional<DeletionMerge.RowConflict> why = deletionConflict(ours, f, states, vectors);
      if (why.isPresent()) {
        return LegacyVerdict.retryable(new Collision.FragmentDeletions(f, why.get().rows(),
            who + "fragment " + Long.toUnsignedString(f) + ": " + why.get().reason() + retry));
      }
    }
    for (long f : fragments(obligations, MovedRowsAgainstOurOverlay.class)) {
      Optional<Collision> why = movedRowsMeetOurOverlay(ours, f, states, vectors, who, retry);
      if (why.isPresent()) {
        return LegacyVerdict.retryable(why.get());
      }
    }
    for (SecondPhaseObligation o : obligations) {
      if (o instanceof OurMovedRowsAgainstTheirOverlay c) {
        Optional<DeletionVector> moved = affectedRows(ours, c.fragment(), states, vectors);
        if (moved.isEmpty()) {
          return LegacyVerdict.retryable(new Collision.FailClosed(who + "the rows it moves out of fragment "
              + Long.toUnsignedString(c.fragment()) + " cannot be derived, so they cannot be checked against "
              + "the committed overlay (fail closed)" + retry));
        }
        RoaringBitmap hit = RoaringBitmap.and(moved.get().toBitmap(), c.coverage().toBitmap());
        if (!hit.isEmpty()) {
          return LegacyVerdict.retryable(new Collision.Relocation(c.fragment(), DeletionVector.fromBitmap(hit),
              who + "it moves rows " + sample(hit) + " of fragment " + Long.toUnsignedString(c.fragment())
                  + ", which the committed overlay covers, computed without the overlay's values" + retry));
        }
      }
    }
    return LegacyVerdict.ok(who + "the rows affected by both sides do not intersect");
  }

  /** Why the rows we and the newest version deleted in {@code f} collide, if they do. */
  private static Optional<DeletionMerge.RowConflict> deletionConflict(Transaction ours, long f, FragmentStates states,
      DeletionVectors vectors) throws IOException {
    Optional<TableProtos.DataFragment> read = states.read(f);
    Optional<TableProtos.DataFragment> now = states.now(f);
    DeletionVector none = DeletionVector.empty();
    if (read.isEmpty()) {
      return Optional.of(new DeletionMerge.RowConflict(none, "it is not in this transaction's read version, so "
          + "its rows cannot be compared"));
    }
    if (now.isEmpty()) {
      return Optional.of(new DeletionMerge.RowConflict(none, "it was removed by a concurrent transaction"));
    }
    if (!read.get().getFilesList().equals(now.get().getFilesList())) {
      return Optional.of(new DeletionMerge.RowConflict(none, "its data files were changed by a concurrent "
          + "transaction, so deletion files cannot be merged"));
    }
    if (sameDeletionFile(read.get(), now.get())) {
      return Optional.empty();
    }
    Optional<DeletionVector> mine = affectedRows(ours, f, states, vectors);
    if (mine.isEmpty()) {
      return Optional.of(new DeletionMerge.RowConflict(none, "this transaction records no affected rows for it, "
          + "so they cannot be compared (fail closed)"));
    }
    DeletionVector post = LegacyOps.updatedFragment(ours, f).isPresent()
        ? deletions(LegacyOps.updatedFragment(ours, f).get(), vectors) : deletions(read.get(), vectors);
    return DeletionMerge.conflict(deletions(read.get(), vectors), deletions(now.get(), vectors), post, mine.get());
  }

  private static Optional<Collision> movedRowsMeetOurOverlay(Transaction ours, long f, FragmentStates states,
      DeletionVectors vectors, String who, String retry) throws IOException {
    String frag = "fragment " + Long.toUnsignedString(f);
    Optional<TableProtos.DataFragment> now = states.now(f);
    if (now.isEmpty()) {
      return Optional.of(new Collision.Fragment(f, who + "overlaid " + frag
          + " was removed by a concurrent transaction" + retry));
    }
    DeletionVector before = states.read(f).isPresent() ? deletions(states.read(f).get(), vectors)
        : DeletionVector.empty();
    RoaringBitmap moved = RoaringBitmap.andNot(deletions(now.get(), vectors).toBitmap(), before.toBitmap());
    if (moved.isEmpty()) {
      return Optional.empty();
    }
    for (Transaction.DataOverlayGroup g : ours.getDataOverlay().getGroupsList()) {
      if (g.getFragmentId() != f) {
        continue;
      }
      Optional<DeletionVector> coverage = LegacyOps.overlayCoverage(g);
      if (coverage.isEmpty()) {
        return Optional.of(new Collision.FailClosed(who + "its overlay of " + frag + " states no readable "
            + "coverage, and a concurrent update moved rows " + sample(moved) + " out of it" + retry));
      }
      RoaringBitmap hit = RoaringBitmap.and(moved, coverage.get().toBitmap());
      if (!hit.isEmpty()) {
        return Optional.of(new Collision.Relocation(f, DeletionVector.fromBitmap(hit), who
            + "a concurrent update moved rows " + sample(hit) + " of " + frag
            + " that its overlay covers, so their overlaid values would be lost" + retry));
      }
    }
    return Optional.empty();
  }

  /**
   * The rows our Delete/Update affects in {@code f}; empty when they cannot be derived (no
   * read-version fragment, or a column rewrite that records no matched offsets).
   */
  static Optional<DeletionVector> affectedRows(Transaction ours, long f, FragmentStates states,
      DeletionVectors vectors) throws IOException {
    if (ours.hasUpdate() && ours.getUpdate().getUpdateMode() == Transaction.UpdateMode.REWRITE_COLUMNS) {
      return matchedOffsets(ours.getUpdate(), f);
    }
    Optional<TableProtos.DataFragment> mine = LegacyOps.updatedFragment(ours, f);
    Optional<TableProtos.DataFragment> read = states.read(f);
    if (mine.isEmpty() || read.isEmpty()) {
      return Optional.empty();
    }
    RoaringBitmap after = deletions(mine.get(), vectors).toBitmap();
    RoaringBitmap before = deletions(read.get(), vectors).toBitmap();
    return Optional.of(DeletionVector.fromBitmap(RoaringBitmap.andNot(after, before)));
  }

  private static Optional<DeletionVector> matchedOffsets(Transaction.Update u, long f) {
    ByteString bitmap = u.getUpdatedFragmentOffsetBitmapsMap().get(f);
    if (bitmap != null) {
      RoaringBitmap r = new RoaringBitmap();
      try {
        r.deserialize(ByteBuffer.wrap(bitmap.toByteArray()));
      } catch (IOException | RuntimeException e) {
        return Optional.empty();
      }
      return Optional.of(DeletionVector.fromBitmap(r));
    }
    Transaction.UInt32List list = u.getUpdatedFragmentOffsetsMap().get(f);
    if (list != null) {
      RoaringBitmap r = new RoaringBitmap();
      list.getValuesList().forEach(r::add);
      return Optional.of(DeletionVector.fromBitmap(r));
    }
    return Optional.empty();
  }

  /** The rows a fragment's deletion file deletes (none without a file). */
  static DeletionVector deletions(TableProtos.DataFragment f, DeletionVectors vectors) throws IOException {
    if (!f.hasDeletionFile()) {
      return DeletionVector.empty();
    }
    return vectors.read(f.getId(), f.getDeletionFile());
  }

  static boolean sameDeletionFile(TableProtos.DataFragment a, TableProtos.DataFragment b) {
    return a.hasDeletionFile() == b.hasDeletionFile() && a.getDeletionFile().equals(b.getDeletionFile());
  }

  static Set<Long> fragments(List<SecondPhaseObligation> obligations, Class<?> kind) {
    Set<Long> out = new TreeSet<>();
    for (SecondPhaseObligation o : obligations) {
      if (o instanceof IntersectDeletions d && kind == IntersectDeletions.class) {
        out.addAll(d.fragments());
      } else if (o instanceof MovedRowsAgainstOurOverlay m && kind == MovedRowsAgainstOurOverlay.class) {
        out.addAll(m.fragments());
      }
    }
    return out;
  }

  private static String sample(RoaringBitmap rows) {
    return DeletionMerge.sample(rows);
  }
}
