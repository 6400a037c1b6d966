package dev.lancet.core;

import dev.lancet.core.commit.CommitConflictException;
import dev.lancet.core.commit.PrePublish;
import dev.lancet.core.commit.PublishChecks;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.store.SubtreeStore;
import dev.lancet.core.version.Branch;
import dev.lancet.core.version.Branches;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Tag;
import dev.lancet.core.version.Tags;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.VersionNotFoundException;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A Lance table at a location, at one of its branches (main unless {@link #checkoutBranch} chose
 * another): the entry point for reading its versions and committing to it. Every read goes
 * through the branch's {@link ObjectStore}: the table's own for main, a view of its
 * {@code tree/{name}/} directory for a branch (docs/decisions/0027).
 */
public final class Table implements AutoCloseable {
  private final String location;
  private final ObjectStore store;
  private final Optional<String> branch;
  private final String rootLocation;
  private final ObjectStore rootStore;
  private final boolean ownsStore;

  private Table(String location, ObjectStore store) {
    this(location, store, Optional.empty(), location, store, true);
  }

  private Table(String location, ObjectStore store, Optional<String> branch, String rootLocation,
      ObjectStore rootStore, boolean ownsStore) {
    this.location = location;
    this.store = store;
    this.branch = branch;
    this.rootLocation = rootLocation;
    this.rootStore = rootStore;
    this.ownsStore = ownsStore;
  }

  /** Opens the table at a local path, {@code file://} URI or {@code memory://} name. */
  public static Table open(String location) {
    return open(location, java.util.Map.of());
  }

  /**
   * Opens the table at any location {@link ObjectStores#forUri(String, java.util.Map)} serves
   * ({@code s3://bucket/path}, {@code az://container/path} with the store modules on the
   * classpath), with lance-core's storage options (e.g. {@code aws_endpoint}, {@code aws_region},
   * {@code allow_http}); the same keys are also read from the environment.
   */
  public static Table open(String location, java.util.Map<String, String> storageOptions) {
    ObjectStore store = ObjectStores.forUri(location, storageOptions);
    try {
      return open(location, store);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Creates a table as version 1 with a legacy Overwrite, the way Lance creates one (V2 manifest
   * naming, the transaction inline and in its .txn file), in data storage format
   * {@code format} (for example {@code new DataStorageFormat("lance", "2.1")}). Fails, writing
   * nothing, when a table already exists there or when the Overwrite is invalid (the checks of
   * every commit, {@link PublishChecks#DEFAULT}: its data files must exist, and it may register
   * no base path).
   */
  public static Table create(String location, ObjectStore store, Overwrite overwrite,
      DataStorageFormat format) {
    return create(location, store, overwrite, format, false, PublishChecks.DEFAULT);
  }

  /**
   * {@link #create(String, ObjectStore, Overwrite, DataStorageFormat)} with the stable-row-ids
   * feature on or off: with it, every row gets a row id that survives compaction (the feature
   * is chosen at creation and kept by every later version).
   */
  public static Table create(String location, ObjectStore store, Overwrite overwrite,
      DataStorageFormat format, boolean stableRowIds) {
    return create(location, store, overwrite, format, stableRowIds, PublishChecks.DEFAULT);
  }

  /**
   * {@link #create(String, ObjectStore, Overwrite, DataStorageFormat, boolean)} with the given
   * checks (base-path policy, file verification).
   */
  public static Table create(String location, ObjectStore store, Overwrite overwrite,
      DataStorageFormat format, boolean stableRowIds, PublishChecks checks) {
    try {
      if (!store.list("_versions/").isEmpty()) {
        throw new LancetException("a Lance table already exists at " + location + "; open it and "
            + "commit an Overwrite to replace its content");
      }
      Manifest empty = Manifest.builder()
          .version(0)
          .dataFormat(Optional.of(format))
          .readerFeatureFlags(stableRowIds ? dev.lancet.format.model.FeatureFlags.STABLE_ROW_IDS : 0)
          .writerFeatureFlags(stableRowIds ? dev.lancet.format.model.FeatureFlags.STABLE_ROW_IDS : 0)
          .build();
      // Initial bases belong to the empty table the Overwrite replaces.
      LegacyApply.Result first = LegacyApply.apply(
          empty.toBuilder().basePaths(overwrite.initialBases()).build(),
          List.of(), new Overwrite(overwrite.fragments(), overwrite.schema(),
              overwrite.configUpsertValues(), List.of()),
          0, ManifestHistory.none());
      TransactionProtos.Transaction txn =
          LegacyOperationCodec.encode(overwrite)
              .setReadVersion(0).setUuid(UUID.randomUUID().toString()).build();
      // Checked against the table with no bases, so that initial bases meet the base-path policy.
      new PrePublish(store, checks).check(empty, List.of(), first.manifest(), first.indices(),
          first.provenance());
      new VersionPublisher(store).publish(first.manifest(), first.indices(), txn,
          ManifestNaming.V2);
    } catch (CommitConflictException e) {
      throw new LancetException("another writer created a table at " + location + " first", e);
    } catch (IOException e) {
      throw new UncheckedIOException("creating a table at " + location, e);
    }
    return new Table(location, store);
  }

  /**
   * Opens the table whose root the given store addresses. On a local store a location without
   * a table fails here; on an object store ({@link ObjectStore#listsInPages()}) opening sends no
   * request, and the first read reports a missing table (as lance-core, whose open is its first
   * read): the listing that would check it is the one every read of the latest version makes.
   */
  public static Table open(String location, ObjectStore store) {
    Table table = new Table(location, store);
    if (store.listsInPages()) {
      return table;
    }
    try {
      // One entry is enough to know the table exists.
      if (store.listFirst("_versions/", 1).isEmpty()) {
        throw new VersionNotFoundException("no Lance table at " + location
            + ": it has no _versions/ directory with manifests");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + location + "/_versions", e);
    }
    return table;
  }

  /** The location of this branch's dataset: the table's for main, {@code {table}/tree/{name}}. */
  public String location() {
    return location;
  }

  /** The store of this branch's files (a view of {@code tree/{name}/} for a branch). */
  public ObjectStore store() {
    return store;
  }

  /** The branch this handle reads and commits to; empty for main. */
  public Optional<String> branch() {
    return branch;
  }

  /** The table's location (main's dataset root, where {@code _refs/} and {@code tree/} live). */
  public String rootLocation() {
    return rootLocation;
  }

  /** The store of the whole table. */
  public ObjectStore rootStore() {
    return rootStore;
  }

  /**
   * A handle on branch {@code name} of this table ({@code "main"} or empty: the table's first
   * branch) sharing this handle's store: closing it closes nothing. An error names the branches
   * when there is no such branch (a branch exists once its metadata file does).
   */
  public Table checkoutBranch(Optional<String> name) {
    if (name.isEmpty() || name.get().equals(Branches.MAIN)) {
      return branch.isEmpty() ? this : new Table(rootLocation, rootStore, Optional.empty(),
          rootLocation, rootStore, false);
    }
    if (name.equals(branch)) {
      return this;
    }
    try {
      Branches.check(name.get());
    } catch (IllegalArgumentException e) {
      throw new VersionNotFoundException(e.getMessage());
    }
    try {
      Branches.get(rootStore, name.get());
    } catch (IOException e) {
      throw new UncheckedIOException("reading branch " + name.get() + " of " + rootLocation, e);
    }
    return new Table(Branches.location(rootLocation, name.get()),
        new SubtreeStore(rootStore, Branches.directory(name.get())), name, rootLocation, rootStore,
        false);
  }

  /**
   * Creates branch {@code name} starting at {@code version} of branch {@code from} (empty: main)
   * as lance-core does (docs/decisions/0027): the branch's first version is that version, shared
   * through a base path, numbered as it is there; then its metadata file. Returns a handle on it.
   */
  public Table createBranch(String name, Optional<String> from, long version) {
    return BranchCommands.create(this, name, from, version, java.time.Clock.systemUTC());
  }

  /**
   * Deletes branch {@code name}: its metadata file, then its own files. Refused while another
   * branch starts from it or a tag points into it.
   */
  public void deleteBranch(String name) {
    BranchCommands.delete(this, name);
  }

  /** Every branch of the table besides main, by name. */
  public List<Branch> branches() {
    try {
      return Branches.list(rootStore);
    } catch (IOException e) {
      throw new UncheckedIOException("listing branches of " + rootLocation, e);
    }
  }

  /** The newest version. */
  public Snapshot latest() {
    try {
      return Snapshot.latest(store, location);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the latest version of " + location, e);
    }
  }

  /** A specific version; an error names the versions that exist. */
  public Snapshot version(long version) {
    try {
      return Snapshot.load(store, Versions.resolve(store, version));
    } catch (IOException e) {
      throw new UncheckedIOException("reading version " + version + " of " + location, e);
    }
  }

  /**
   * The version a tag points at, on the branch the tag names (tags are the table's, whatever
   * branch they point into): the snapshot reads through that branch's store.
   */
  public Snapshot tag(String name) {
    try {
      Tag tag = Tags.get(rootStore, name);
      return checkoutBranch(tag.branch()).version(tag.version());
    } catch (IOException e) {
      throw new UncheckedIOException("reading tag " + name + " of " + rootLocation, e);
    }
  }

  /** The tag {@code name} (its branch and version). */
  public Tag tagInfo(String name) {
    try {
      return Tags.get(rootStore, name);
    } catch (IOException e) {
      throw new UncheckedIOException("reading tag " + name + " of " + rootLocation, e);
    }
  }

  /** Every version, oldest first. */
  public List<VersionEntry> versions() {
    try {
      return Versions.list(store);
    } catch (IOException e) {
      throw new UncheckedIOException("listing versions of " + location, e);
    }
  }

  /** Every tag of the table, whichever branch it points into. */
  public List<Tag> tags() {
    try {
      return Tags.list(rootStore);
    } catch (IOException e) {
      throw new UncheckedIOException("listing tags of " + rootLocation, e);
    }
  }

  /**
   * Starts a Transaction V2 planned against the latest version. Add steps, then
   * {@code apply()} to preview or {@code commit()} to publish.
   */
  public dev.lancet.core.transaction.TransactionBuilder newTransaction() {
    return new dev.lancet.core.transaction.TransactionBuilder(store, location, latestEntry());
  }

  /** The latest version's entry, without reading its manifest (the commit loop reads it). */
  private VersionEntry latestEntry() {
    try {
      Optional<VersionEntry> entry = Versions.latest(store);
      if (entry.isEmpty()) {
        throw new VersionNotFoundException("no Lance table at " + location + ": it has no versions in _versions/");
      }
      return entry.get();
    } catch (IOException e) {
      throw new UncheckedIOException("reading the latest version of " + location, e);
    }
  }

  /**
   * Starts a legacy operation (Append, Delete, Update, ...) planned against the latest version,
   * committed as a Lance writer would commit it.
   */
  public dev.lancet.core.transaction.LegacyTransactionBuilder newLegacyTransaction(
      dev.lancet.core.operation.LegacyOperation operation) {
    return new dev.lancet.core.transaction.LegacyTransactionBuilder(store, location, latestEntry(), operation);
  }

  @Override
  public void close() {
    if (ownsStore) {
      store.close();
    }
  }
}
