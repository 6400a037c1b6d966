package dev.lancet.core.commit;

import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoreErrors;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.WriterVersion;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The last step of every commit: write the transaction file, then publish the manifest of
 * the new version with put-if-absent. Version N+1 exists exactly when its manifest does, so
 * of two writers racing for one version exactly one wins; the loser gets a
 * {@link CommitConflictException} and nothing it wrote is visible (its .txn file is garbage).
 */
public final class VersionPublisher {
  /**
   * A published version and its manifest as stamped (the section offsets, a detail of the
   * file layout, are filled in only in the stored bytes).
   */
  public record Published(VersionEntry entry, Manifest manifest) {}

  private final ObjectStore store;
  private final Clock clock;

  public VersionPublisher(ObjectStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  public VersionPublisher(ObjectStore store) {
    this(store, Clock.systemUTC());
  }

  /**
   * Stamps and publishes {@code next} as version {@code next.version()} under {@code naming}.
   * Stamping, as Lance does on every commit: timestamp, writer version, feature flags derived
   * from content, the fragment-id high-water mark raised to the ids present, and the
   * transaction's file name. The transaction is also written inline, unless it is a composite
   * operation (see {@link #inlineCopy}). Returns the published version and its stamped
   * manifest, so that callers need not read back what they just wrote.
   */
  public Published publish(Manifest next, List<IndexSegment> indices,
      TransactionProtos.Transaction transaction, ManifestNaming naming) throws IOException {
    writeTransactionFile(transaction);
    return publishManifest(next, indices, transaction, naming);
  }

  /**
   * Writes the transaction's .txn file (the first half of {@link #publish}). Atomically, but as
   * an advisory write (a local store does not fsync it): the version itself is the manifest,
   * which is durable; a .txn file lost in a machine crash only makes writers that read an
   * older version fail closed, and the commit loop recognises its own versions by the .txn
   * name the manifest records. See docs/decisions/0007-durable-manifest-advisory-txn.md.
   */
  public void writeTransactionFile(TransactionProtos.Transaction transaction) throws IOException {
    String txnName = TransactionFile.fileName(transaction.getReadVersion(), transaction.getUuid());
    store.putAdvisory(TransactionFile.path(txnName), TransactionFile.encode(transaction));
  }

  /**
   * Stamps and publishes the manifest (the second half of {@link #publish}); the transaction's
   * .txn file must already hold exactly {@code transaction}.
   */
  public Published publishManifest(Manifest next, List<IndexSegment> indices,
      TransactionProtos.Transaction transaction, ManifestNaming naming) throws IOException {
    String txnName = TransactionFile.fileName(transaction.getReadVersion(), transaction.getUuid());
    Manifest stamped = stamp(next, indices, txnName);
    byte[] bytes = ManifestFile.write(stamped, indices, inlineCopy(transaction));
    String path = naming.path(stamped.version());
    try {
      store.putIfAbsent(path, bytes);
    } catch (AlreadyExistsException e) {
      // Possibly an earlier attempt of this very transaction: the commit loop finds out by uuid
      // when it loads the winner, so it is not read here a second time.
      throw new CommitConflictException(stamped.version(), "version " + stamped.version()
          + " was committed by another writer first");
    } catch (IOException e) {
      if (StoreErrors.isPermanent(e)) {
        // Refused (permission, read-only store): nothing was created.
        throw e;
      }
      // The write may or may not have landed; the commit loop reads the version back (by the
      // transaction's uuid) on its next attempt.
      throw new CommitStateUnknownException(stamped.version(), transaction.getUuid(),
          "publishing version " + stamped.version() + " failed (" + e.getMessage() + "); whether it "
              + "landed is unknown. Re-submit the same transaction to resolve", e);
    }
    Versions.writeHint(store, stamped.version());
    return new Published(new VersionEntry(stamped.version(), path, naming, bytes.length), stamped);
  }

  /**
   * The transaction to embed in the manifest file. Only Lance's own legacy operations are
   * inlined; a composite operation is written only to the .txn file: Lance 7.0.0 decodes the inline copy whenever it opens a version, and fails
   * on an operation it does not know ("Transaction message did not contain an operation"),
   * while it reads the .txn file only to check conflicts. So readers keep opening and
   * scanning the table, and a Lance writer that must check against our commit fails closed.
   * See docs/decisions/0001-composite-transactions-in-txn-files.md.
   */
  static Optional<TransactionProtos.Transaction> inlineCopy(TransactionProtos.Transaction txn) {
    switch (txn.getOperationCase()) {
      case COMPOSITE_OPERATION:
      case OPERATION_NOT_SET:
        // Not one of Lance's own operations (or one newer than this build's protos, which
        // parse as unset): inline, it would stop Lance from opening the version at all.
        return Optional.empty();
      default:
        return Optional.of(txn);
    }
  }

  /**
   * Top-level manifest fields this build does not know are not carried into the new version:
   * a newer writer's per-version facts (upstream drafts put an inline-transaction offset in
   * field 23) would be stale or point into the wrong file, and Lance's own writers drop unknown
   * fields the same way. Fields whose loss matters are fenced by a feature bit, which refuses
   * the write before this point.
   */
  Manifest stamp(Manifest next, List<IndexSegment> indices, String txnName) {
    OptionalLong maxPresent = next.effectiveMaxFragmentId();
    FeatureFlags.Pair flags = FeatureFlags.derive(next, indices);
    return next.toBuilder()
        .unknownFields(com.google.protobuf.UnknownFieldSet.getDefaultInstance())
        .timestamp(Optional.of(clock.instant()))
        .writerVersion(Optional.of(WriterVersion.LANCET))
        .readerFeatureFlags(flags.reader())
        .writerFeatureFlags(flags.writer())
        .maxFragmentId(maxPresent.isPresent() ? maxPresent : next.maxFragmentId())
        .transactionFile(txnName)
        .build();
  }
}
