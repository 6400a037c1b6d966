package dev.lancet.core.transaction;

import dev.lancet.core.commit.CommitAttempt;
import dev.lancet.core.commit.CommitLoop;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.PublishChecks;
import dev.lancet.format.layout.BasePathPolicy;
import dev.lancet.core.commit.LegacyCommit;
import dev.lancet.core.commit.StoreManifestHistory;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One of Lance's legacy operations (Append, Delete, Update, ...) being committed by Lancet, as
 * a Lance writer would: the transaction is written both to its .txn file and inline, so every
 * Lance version can read and check it. Concurrent commits are checked with the legacy pairwise
 * rules and rebased, as for composite operations.
 *
 * <pre>{@code
 * table.newLegacyTransaction(new Append(List.of(fragment))).commit();
 * }</pre>
 */
public final class LegacyTransactionBuilder {
  private final ObjectStore store;
  private final String location;
  private final LegacyOperation operation;
  private long readVersion;
  private final Map<String, String> properties = new LinkedHashMap<>();
  private String uuid = UUID.randomUUID().toString();
  // The read version's entry while it is the latest one seen and the uuid is fresh (see commit()).
  private java.util.Optional<dev.lancet.core.version.VersionEntry> freshRead = java.util.Optional.empty();
  private CommitPolicy policy = CommitPolicy.DEFAULT;
  private PublishChecks checks = PublishChecks.DEFAULT;
  private Consumer<CommitAttempt> observer = attempt -> { };

  public LegacyTransactionBuilder(ObjectStore store, String location, long readVersion, LegacyOperation operation) {
    this.store = store;
    this.location = location;
    this.readVersion = readVersion;
    this.operation = Objects.requireNonNull(operation, "operation");
  }
  /** Planned against {@code latest}, the latest version just read (see {@link TransactionBuilder}). */
  public LegacyTransactionBuilder(ObjectStore store, String location, dev.lancet.core.version.VersionEntry latest,
      LegacyOperation operation) {
    this(store, location, latest.version(), operation);
    this.freshRead = java.util.Optional.of(latest);
  }


  /** Plans the commit against {@code version}, as a writer that read it. */
  public LegacyTransactionBuilder readVersion(long version) {
    this.readVersion = version;
    // A read version the caller names comes from its own earlier read: scan from it.
    freshRead = java.util.Optional.empty();
    return this;
  }

  /** Keeps the transaction's identity across re-submissions. */
  public LegacyTransactionBuilder uuid(String transactionUuid) {
    this.uuid = transactionUuid;
    freshRead = java.util.Optional.empty();
    return this;
  }

  public LegacyTransactionBuilder policy(CommitPolicy commitPolicy) {
    this.policy = commitPolicy;
    return this;
  }

  public LegacyTransactionBuilder maxRetries(int retries) {
    this.policy = policy.withMaxRetries(retries);
    return this;
  }

  /** What is checked before anything is written (default {@link PublishChecks#DEFAULT}). */
  public LegacyTransactionBuilder checks(PublishChecks publishChecks) {
    this.checks = java.util.Objects.requireNonNull(publishChecks, "checks");
    return this;
  }

  /** Which locations the commit may register as base paths (default: none). */
  public LegacyTransactionBuilder basePaths(BasePathPolicy policy) {
    this.checks = checks.withBasePaths(policy);
    return this;
  }

  /**
   * Whether the files the commit adds are looked up in the store before publishing (default
   * true); a bulk writer that vouches for its files may turn it off.
   */
  public LegacyTransactionBuilder verifyNewFiles(boolean verify) {
    this.checks = checks.withVerifyNewFiles(verify);
    return this;
  }

  /** Reports every commit attempt (published, lost race, store error, conflict, gave up). */
  public LegacyTransactionBuilder onAttempt(Consumer<CommitAttempt> attemptObserver) {
    this.observer = attemptObserver;
    return this;
  }

  public LegacyTransactionBuilder property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  public LegacyOperation operation() {
    return operation;
  }

  public long readVersion() {
    return readVersion;
  }

  /** The transaction message as it is stored. */
  public TransactionProtos.Transaction toTransaction() {
    return LegacyOperationCodec.encode(operation)
        .setReadVersion(readVersion)
        .setUuid(uuid)
        .putAllTransactionProperties(properties)
        .build();
  }

  /** The manifest and indices a commit would produce now, without publishing anything. */
  public LegacyApply.Result apply() {
    try {
      Snapshot latest = Snapshot.latest(store, location);
      return LegacyApply.apply(latest.manifest(), latest.indices(), operation, readVersion,
          new StoreManifestHistory(store));
    } catch (IOException e) {
      throw new UncheckedIOException("reading the latest version of " + location, e);
    }
  }

  /** Publishes the operation as the next version, rebasing over concurrent commits. */
  public CommitResult commit() {
    WriteForm.checkValues(operation);
    return new CommitLoop(store, location, policy, checks, observer)
        .commit(new LegacyCommit(store, toTransaction()), freshRead);
  }
}
