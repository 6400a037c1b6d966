package dev.lancet.core.transaction;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.commit.CommitAttempt;
import dev.lancet.core.commit.CommitLoop;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.PublishChecks;
import dev.lancet.format.layout.BasePathPolicy;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A Transaction V2 being built: user steps of actions, planned against a read version.
 * {@link #apply()} previews the manifest a commit would produce; {@link #commit()} publishes
 * it as the next version.
 *
 * <pre>{@code
 * table.newTransaction()
 *     .step("add column b", s -> s.addField(0, bField).addDataFile(Ref.committed(0), file, Ref.local(0)))
 *     .commit();
 * }</pre>
 *
 * <p>A commit whose read version is no longer the latest is checked against the versions
 * committed since and rebased onto the newest one ({@link CommitLoop}); a real conflict is a
 * {@link dev.lancet.core.commit.ConflictingCommitException}.
 */
public final class TransactionBuilder {
  private final ObjectStore store;
  private final String location;
  private long readVersion;
  private final List<UserStep> steps = new ArrayList<>();
  private final Map<String, String> properties = new LinkedHashMap<>();
  private String uuid = UUID.randomUUID().toString();
  // The read version's entry while it is the latest one seen and the uuid is fresh (see commit()).
  private java.util.Optional<dev.lancet.core.version.VersionEntry> freshRead = java.util.Optional.empty();
  private CommitPolicy policy = CommitPolicy.DEFAULT;
  private PublishChecks checks = PublishChecks.DEFAULT;
  private Consumer<CommitAttempt> observer = attempt -> { };

  public TransactionBuilder(ObjectStore store, String location, long readVersion) {
    this.store = store;
    this.location = location;
    this.readVersion = readVersion;
  }

  /**
   * Planned against {@code latest}, the latest version just read; the commit's first attempt
   * starts from it without looking up the latest version again (unless the read version or the
   * uuid is set: a read version the caller names comes from its own, possibly older, read, and a
   * re-submitted uuid must be looked for in the history first).
   */
  public TransactionBuilder(ObjectStore store, String location, dev.lancet.core.version.VersionEntry latest) {
    this(store, location, latest.version());
    this.freshRead = java.util.Optional.of(latest);
  }

  /** Adds a step whose actions {@code body} collects. */
  public TransactionBuilder step(String description, Consumer<StepBuilder> body) {
    StepBuilder b = new StepBuilder();
    body.accept(b);
    steps.add(new UserStep(description, b.actions()));
    return this;
  }

  /** Adds every step of an existing operation (e.g. one loaded from JSON). */
  public TransactionBuilder steps(CompositeOperation op) {
    steps.addAll(op.steps());
    return this;
  }

  /** Plans the commit against {@code version}, as a writer that read it. */
  public TransactionBuilder readVersion(long version) {
    this.readVersion = version;
    // A read version the caller names comes from its own earlier read: scan from it.
    freshRead = java.util.Optional.empty();
    return this;
  }

  /** Keeps the transaction's identity across re-submissions. */
  public TransactionBuilder uuid(String transactionUuid) {
    this.uuid = transactionUuid;
    freshRead = java.util.Optional.empty();
    return this;
  }

  /** How many lost races to retry (default 20). */
  public TransactionBuilder maxRetries(int retries) {
    this.policy = policy.withMaxRetries(retries);
    return this;
  }

  public TransactionBuilder policy(CommitPolicy commitPolicy) {
    this.policy = commitPolicy;
    return this;
  }

  /** What is checked before anything is written (default {@link PublishChecks#DEFAULT}). */
  public TransactionBuilder checks(PublishChecks publishChecks) {
    this.checks = java.util.Objects.requireNonNull(publishChecks, "checks");
    return this;
  }

  /** Which locations the commit may register as base paths (default: none). */
  public TransactionBuilder basePaths(BasePathPolicy policy) {
    this.checks = checks.withBasePaths(policy);
    return this;
  }

  /**
   * Whether the files the commit adds are looked up in the store before publishing (default
   * true); a bulk writer that vouches for its files may turn it off.
   */
  public TransactionBuilder verifyNewFiles(boolean verify) {
    this.checks = checks.withVerifyNewFiles(verify);
    return this;
  }

  /** Reports every commit attempt (published, lost race, store error, conflict, gave up). */
  public TransactionBuilder onAttempt(Consumer<CommitAttempt> attemptObserver) {
    this.observer = attemptObserver;
    return this;
  }

  public TransactionBuilder property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  public CompositeOperation operation() {
    return new CompositeOperation(steps);
  }

  public long readVersion() {
    return readVersion;
  }

  /** The transaction message as it is stored. */
  public TransactionProtos.Transaction toTransaction() {
    return TransactionProtos.Transaction.newBuilder()
        .setReadVersion(readVersion)
        .setUuid(uuid)
        .putAllTransactionProperties(properties)
        .setCompositeOperation(ActionCodec.encode(operation()))
        .build();
  }

  /** The manifest and indices a commit would produce now, without publishing anything. */
  public CompositeApply.Result apply() {
    Snapshot latest = latest();
    return CompositeApply.apply(latest.manifest(), latest.indices(), operation(), readVersion);
  }

  /** Publishes the operation as the next version, rebasing over concurrent commits. */
  public CommitResult commit() {
    return new CommitLoop(store, location, policy, checks, observer).commit(
        new dev.lancet.core.commit.CompositeCommit(store, operation(), toTransaction()), freshRead);
  }

  private Snapshot latest() {
    try {
      return Snapshot.latest(store, location);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the latest version of " + location, e);
    }
  }
}
