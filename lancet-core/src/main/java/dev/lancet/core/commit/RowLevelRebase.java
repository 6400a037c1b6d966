package dev.lancet.core.commit;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.conflict.deletions.DeletionMerge;
import dev.lancet.core.conflict.deletions.DeletionVectors;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The row-level rebase of a composite operation's deletions (docs/decisions/0016). For each
 * committed fragment that this operation and a concurrent winner both gave a new deletion file,
 * the rows each side added since this operation's read version are compared on the deletion
 * files: rows both deleted (or moved) are a conflict naming the fragment and the rows; disjoint
 * ones are merged into a new deletion file (the union of the newest vector and ours), written
 * with put-if-absent before the manifest, and every SetDeletionFile of that fragment in the
 * operation is rewritten to carry it. A union that deletes every row removes the fragment
 * instead (a RemoveFragment at the end of the operation), as the legacy rebase and Lance's own
 * delete do. The logic that compares and merges is {@link DeletionMerge}, shared with the legacy
 * rebase.
 */
final class RowLevelRebase {
  private RowLevelRebase() {}

  /** The newest winner that raised a row check on a fragment: a conflict there is charged to it. */
  record Winner(long version, String operation) {}

  static CompositeOperation rebase(CompositeOperation op, Map<Long, Winner> checks, Manifest read,
      Manifest latest, DeletionVectors vectors) throws IOException {
    Map<Long, DeletionFile> merged = new LinkedHashMap<>();
    Map<Long, Boolean> emptied = new LinkedHashMap<>();
    for (Map.Entry<Long, Winner> check : checks.entrySet()) {
      long f = check.getKey();
      Winner winner = check.getValue();
      String frag = "fragment " + Long.toUnsignedString(f);
      Optional<SetDeletionFile> ours = lastDeletion(op, f);
      if (ours.isEmpty() || ours.get().deletionFile().isEmpty()) {
        continue;
      }
      Optional<Fragment> atRead = read.fragment(f);
      Optional<Fragment> now = latest.fragment(f);
      if (atRead.isEmpty()) {
        throw conflict(winner, new Collision.FragmentDeletions(f, DeletionVector.empty(), frag
            + ": it is not in this transaction's read version " + read.version()
            + ", so the rows it deletes cannot be derived (fail closed)"));
      }
      if (now.isEmpty()) {
        throw conflict(winner, new Collision.Fragment(f, frag + ": this transaction deletes rows of it, "
            + "and a concurrent transaction removed it"));
      }
      if (atRead.get().deletionFile().equals(now.get().deletionFile())) {
        continue;
      }
      DeletionVector before = read(f, atRead.get().deletionFile(), winner, vectors);
      DeletionVector newest = read(f, now.get().deletionFile(), winner, vectors);
      DeletionVector mine = read(f, ours.get().deletionFile(), winner, vectors);
      Optional<DeletionMerge.RowConflict> why = DeletionMerge.conflict(before, newest, mine,
          DeletionMerge.added(before, mine));
      if (why.isPresent()) {
        throw conflict(winner, new Collision.FragmentDeletions(f, why.get().rows(), frag + ": "
            + why.get().reason()));
      }
      DeletionMerge.Merged union = DeletionMerge.merge(newest, mine, now.get().physicalRows());
      if (union.emptied()) {
        emptied.put(f, ours.get().dataChange());
      } else {
        merged.put(f, FragmentCodec.fromProto(vectors.write(f, latest.version(), union.deletions())));
      }
    }
    if (merged.isEmpty() && emptied.isEmpty()) {
      return op;
    }
    return rewrite(op, merged, emptied);
  }

  private static Optional<SetDeletionFile> lastDeletion(CompositeOperation op, long fragment) {
    SetDeletionFile last = null;
    for (Action a : op.actions()) {
      if (a instanceof SetDeletionFile s && s.fragment() == fragment) {
        last = s;
      }
    }
    return Optional.ofNullable(last);
  }

  private static DeletionVector read(long fragment, Optional<DeletionFile> file, Winner winner,
      DeletionVectors vectors) throws IOException {
    if (file.isEmpty()) {
      return DeletionVector.empty();
    }
    if (file.get().baseId().isPresent()) {
      throw conflict(winner, new Collision.FailClosed("fragment " + Long.toUnsignedString(fragment)
          + ": its deletion file lives in base path " + file.get().baseId().getAsInt() + ", which the row-level "
          + "rebase cannot resolve, so concurrent deletes of it cannot be merged (fail closed)"));
    }
    return vectors.read(fragment, FragmentCodec.toProto(file.get()));
  }

  /**
   * Every SetDeletionFile of a merged fragment carries the merged file; an emptied fragment's
   * are dropped and one RemoveFragment of it ends the operation.
   */
  private static CompositeOperation rewrite(CompositeOperation op, Map<Long, DeletionFile> merged,
      Map<Long, Boolean> emptied) {
    List<UserStep> steps = new ArrayList<>(op.steps().size());
    for (UserStep step : op.steps()) {
      List<Action> actions = new ArrayList<>(step.actions().size());
      for (Action a : step.actions()) {
        if (a instanceof SetDeletionFile s && emptied.containsKey(s.fragment())) {
          continue;
        }
        if (a instanceof SetDeletionFile s && merged.containsKey(s.fragment())) {
          actions.add(new SetDeletionFile(s.fragment(), Optional.of(merged.get(s.fragment())), s.dataChange()));
          continue;
        }
        actions.add(a);
      }
      steps.add(new UserStep(step.description(), actions));
    }
    if (!emptied.isEmpty()) {
      UserStep last = steps.get(steps.size() - 1);
      List<Action> actions = new ArrayList<>(last.actions());
      emptied.forEach((f, dataChange) -> actions.add(new RemoveFragment(Ref.committed(f), dataChange)));
      steps.set(steps.size() - 1, new UserStep(last.description(), actions));
    }
    return new CompositeOperation(steps);
  }

  private static ConflictingCommitException conflict(Winner winner, Collision collision) {
    return new ConflictingCommitException(winner.version(), winner.operation(), List.of(collision));
  }
}
