package dev.lancet.core.commit;

import dev.lancet.core.apply.Provenance;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.List;

/**
 * What the commit loop needs from a transaction being committed, whatever its form (a
 * composite operation or a legacy one): its stored message, a check against each concurrent
 * winner, and the manifest it produces on top of the newest version.
 */
public interface PendingCommit {
  /** The transaction message as it will be stored. */
  TransactionProtos.Transaction transaction();

  /**
   * Checks this commit against {@code theirs}, the transaction that produced the concurrent
   * version {@code winnerVersion}. Throws {@link ConflictingCommitException} (retryable by
   * re-planning) or {@link IncompatibleTransactionException}; otherwise returns the commit to
   * continue with: itself, or a rewritten one (a row-level rebase).
   */
  PendingCommit checkAgainst(long winnerVersion, TransactionProtos.Transaction theirs) throws IOException;

  /**
   * As {@link #checkAgainst(long, TransactionProtos.Transaction)}, with the winner's version as
   * the commit loop loaded it: a commit whose check needs the winner's manifest (a composite
   * lowering a legacy winner, decision 0022) uses it instead of reading it again.
   */
  default PendingCommit checkAgainst(Snapshot winner, TransactionProtos.Transaction theirs) throws IOException {
    return checkAgainst(winner.version(), theirs);
  }

  /** The manifest and indices this commit produces on top of {@code latest}. */
  Rebased applyTo(Snapshot latest) throws IOException;

  /**
   * A commit re-applied on top of the newest version, not yet stamped or published, with the
   * transaction message to store (the original, or one a row-level rebase rewrote), and which
   * action produced each part of the manifest (for the checks before publishing).
   */
  record Rebased(Manifest manifest, List<IndexSegment> indices, TransactionProtos.Transaction transaction,
      Provenance provenance) {
    public Rebased(Manifest manifest, List<IndexSegment> indices, TransactionProtos.Transaction transaction) {
      this(manifest, indices, transaction, Provenance.none());
    }
  }
}
