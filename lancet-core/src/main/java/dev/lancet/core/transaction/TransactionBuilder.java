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
  // Empty: the table's own write form (its config key lancet.write_form), read at commit.
  private java.util.Optional<WriteForm> writeForm = java.util.Optional.of(WriteForm.COMPOSITE);
  // The read version's snapshot, when the planner has it (saves reading it again to lower).
  private java.util.Optional<Snapshot> readSnapshot = java.util.Optional.empty();
  private java.util.Optional<String> lastForm = java.util.Optional.empty();

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

  /**
   * Planned against {@code read}, a snapshot the planner read (not necessarily the latest): the
   * commit starts by looking up the latest version, and lowers against {@code read} without
   * reading it again.
   */
  public TransactionBuilder(ObjectStore store, String location, Snapshot read) {
    this(store, location, read.version());
    this.readSnapshot = java.util.Optional.of(read);
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
    if (version != readVersion) {
      readSnapshot = java.util.Optional.empty();
    }
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

  /**
   * Commits in {@code form} whatever the table's config says (the default is
   * {@link WriteForm#COMPOSITE}: this builder states a composite operation).
   */
  public TransactionBuilder writeForm(WriteForm form) {
    this.writeForm = java.util.Optional.of(java.util.Objects.requireNonNull(form, "form"));
    return this;
  }

  /**
   * Commits in the table's own write form: its config key {@value WriteForm#CONFIG_KEY} at the
   * read version, {@link WriteForm#DEFAULT} when absent (docs/decisions/0023).
   */
  public TransactionBuilder tableWriteForm() {
    this.writeForm = java.util.Optional.empty();
    return this;
  }

  /**
   * The form the last {@link #commit()} wrote: "CompositeOperation" or the legacy operation's
   * name ("Append", "Update", ...); empty before a commit.
   */
  public java.util.Optional<String> committedForm() {
    return lastForm;
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

  /**
   * Publishes the operation as the next version, rebasing over concurrent commits; in legacy
   * form when the write form asks for it and a legacy operation expresses it exactly
   * ({@link LegacyForm}), which is then checked and rebased by the legacy rules.
   */
  public CommitResult commit() {
    CompositeOperation op = operation();
    WriteForm.checkValues(op);
    java.util.Optional<dev.lancet.core.operation.LegacyOperation> legacy = lowered(op);
    dev.lancet.core.commit.PendingCommit pending = legacy.isPresent()
        ? new dev.lancet.core.commit.LegacyCommit(store,
            dev.lancet.core.operation.LegacyOperationCodec.encode(legacy.get())
                .setReadVersion(readVersion).setUuid(uuid)
                .putAllTransactionProperties(stepProperty(op)).putAllTransactionProperties(properties)
                .build())
        : new dev.lancet.core.commit.CompositeCommit(store, op, toTransaction());
    CommitResult r;
    try {
      r = new CommitLoop(store, location, policy, checks, observer).commit(pending, freshRead);
    } catch (dev.lancet.core.apply.ApplyException e) {
      if (legacy.isEmpty()) {
        throw e;
      }
      // Bad input found before publishing: say it in the caller's terms (its step and action),
      // as the composite form's checks do. Nothing of the legacy attempt was published.
      legacy = java.util.Optional.empty();
      r = new CommitLoop(store, location, policy, checks, observer).commit(
          new dev.lancet.core.commit.CompositeCommit(store, op, toTransaction()), freshRead);
    }
    lastForm = java.util.Optional.of(legacy.map(dev.lancet.core.operation.LegacyOperation::operationName)
        .orElse("CompositeOperation"));
    return r;
  }

  /**
   * The legacy operation this commit is written as, or empty for the composite form: what the
   * write form and the lowering decide against the read version.
   */
  public java.util.Optional<dev.lancet.core.operation.LegacyOperation> lowered() {
    return lowered(operation());
  }

  private java.util.Optional<dev.lancet.core.operation.LegacyOperation> lowered(CompositeOperation op) {
    if (writeForm.equals(java.util.Optional.of(WriteForm.COMPOSITE))) {
      return java.util.Optional.empty();
    }
    Snapshot read;
    try {
      read = readSnapshot();
    } catch (dev.lancet.core.version.VersionNotFoundException e) {
      return java.util.Optional.empty(); // the commit loop reports the read version as gone
    }
    WriteForm form;
    try {
      form = writeForm.orElseGet(() -> WriteForm.of(read.manifest()));
    } catch (dev.lancet.core.operation.InvalidOperationException e) {
      if (WriteForm.sets(op)) {
        return java.util.Optional.empty(); // the commit that repairs the key: as a composite
      }
      throw e;
    }
    if (form == WriteForm.COMPOSITE) {
      return java.util.Optional.empty();
    }
    return LegacyForm.lower(op, read.manifest(), read.indices(), readVersion).operation();
  }

  /** The one non-empty step's description, kept as {@link WriteForm#STEP_PROPERTY}. */
  private static Map<String, String> stepProperty(CompositeOperation op) {
    return op.steps().stream().filter(s -> !s.actions().isEmpty()).findFirst()
        .map(s -> Map.of(WriteForm.STEP_PROPERTY, s.description())).orElse(Map.of());
  }

  private Snapshot readSnapshot() {
    if (readSnapshot.isEmpty()) {
      try {
        readSnapshot = java.util.Optional.of(freshRead.isPresent()
            ? Snapshot.load(store, freshRead.get())
            : Snapshot.load(store, dev.lancet.core.version.Versions.resolve(store, readVersion)));
      } catch (IOException e) {
        throw new UncheckedIOException("reading version " + readVersion + " of " + location, e);
      }
    }
    return readSnapshot.get();
  }

  private Snapshot latest() {
    try {
      return Snapshot.latest(store, location);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the latest version of " + location, e);
    }
  }
}
