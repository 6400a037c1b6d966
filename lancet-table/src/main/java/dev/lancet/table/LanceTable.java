package dev.lancet.table;

import dev.lancet.core.LancetException;
import dev.lancet.core.Table;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.table.spi.DataFileFormat;
import dev.lancet.table.spi.DataFileFormats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A Lance table, named by a URI (a filesystem path, {@code file:///...}) and the storage options
 * lance-core uses, read and written with Arrow: the entry point of the table API.
 *
 * <pre>{@code
 * try (LanceTable table = LanceTable.create("/data/events", reader, CreateOptions.defaults())) {
 *   table.append(moreRows);
 *   try (ArrowReader rows = table.newScan().select("id", "name").limit(10).open()) { ... }
 * }
 * }</pre>
 *
 * <p>Every write after creation is one Transaction V2 commit through Lancet's commit loop: it
 * is checked against concurrent commits, rebased and retried, and fails with a typed error
 * ({@link RetryableConflictException}, {@link IncompatibleCommitException},
 * {@link CommitStateUnknownException}, {@link InvalidInputException}) leaving nothing
 * committed. A table holds a buffer allocator for the batches it reads; close the table after
 * the readers it returned.
 */
public final class LanceTable implements AutoCloseable {
  private final TableContext ctx;
  private final Table kernel;
  private final boolean ownsAllocator;
  // The main branch's handle whose store a branch handle opened by open(..., branch) closes.
  private final Optional<Table> owner;

  private LanceTable(TableContext ctx, Table kernel, boolean ownsAllocator) {
    this(ctx, kernel, ownsAllocator, Optional.empty());
  }

  private LanceTable(TableContext ctx, Table kernel, boolean ownsAllocator, Optional<Table> owner) {
    this.ctx = ctx;
    this.kernel = kernel;
    this.ownsAllocator = ownsAllocator;
    this.owner = owner;
  }

  // ---- opening and creating -----------------------------------------------------------------

  /** Opens the table at {@code uri}; an error when there is none. */
  public static LanceTable open(String uri) {
    return open(uri, Map.of());
  }

  /** Opens the table at {@code uri} with lance-core's storage options (credentials, region...). */
  public static LanceTable open(String uri, Map<String, String> storageOptions) {
    return open(uri, storageOptions, Optional.empty());
  }

  /**
   * Opens the table at branch {@code branch} ({@code "main"}: the table's first branch); closing
   * the handle closes the table. See {@link #branch(String)}.
   */
  public static LanceTable open(String uri, Map<String, String> storageOptions, String branch) {
    LanceTable root = open(uri, storageOptions);
    if (branch.equals(dev.lancet.core.version.Branches.MAIN)) {
      return root;
    }
    try {
      LanceTable view = root.branch(branch);
      return new LanceTable(view.ctx, view.kernel, true, Optional.of(root.kernel));
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /** Opens the table with an explicit data-file implementation. */
  public static LanceTable open(String uri, Map<String, String> storageOptions,
      Optional<DataFileFormat> dataFiles) {
    TableContext ctx = context(uri, storageOptions, dataFiles);
    try {
      return new LanceTable(ctx, Table.open(uri, ctx.store()), true);
    } catch (RuntimeException e) {
      ctx.allocator().close();
      ctx.store().close();
      RuntimeException t = Commits.translate(e);
      if (t instanceof NotFoundException) {
        throw new NotFoundException("no Lance table at " + uri + " (it has no _versions/ "
            + "directory); create one with LanceTable.create", e);
      }
      throw t;
    }
  }

  /** Creates an empty table of {@code schema} with default options. */
  public static LanceTable create(String uri, org.apache.arrow.vector.types.pojo.Schema schema) {
    return create(uri, schema, CreateOptions.defaults());
  }

  /**
   * Creates an empty table (version 1) of {@code schema}. Fails, creating nothing, when a table
   * exists at {@code uri} or Lance cannot store the schema.
   */
  public static LanceTable create(String uri, org.apache.arrow.vector.types.pojo.Schema schema,
      CreateOptions options) {
    Schema lance = TableSchemas.toLance(schema, 0, Optional.empty());
    return create(uri, lance, Optional.empty(), options);
  }

  /**
   * Creates a table (version 1) holding every batch of {@code data}, streamed into data files of
   * at most {@code options.maxRowsPerFile()} rows; the table's schema is the reader's.
   */
  public static LanceTable create(String uri, ArrowReader data, CreateOptions options) {
    org.apache.arrow.vector.types.pojo.Schema schema;
    try {
      schema = data.getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException("reading the schema of the data for " + uri, e);
    }
    Schema lance = TableSchemas.toLance(schema, 0, Optional.of(data));
    return create(uri, lance, Optional.of(data), options);
  }

  /**
   * Creates a table (version 1) holding the rows of in-memory batches, all of one schema (the
   * table's): written without copying them, one batch at a time as the iterable yields them.
   * The caller keeps and closes its roots.
   */
  public static LanceTable create(String uri, Iterable<? extends VectorSchemaRoot> batches,
      CreateOptions options) {
    try (RootsReader reader = RootsReader.of(batches)) {
      return create(uri, reader, options);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates a table (version 1) holding the rows of one in-memory batch. */
  public static LanceTable create(String uri, VectorSchemaRoot batch, CreateOptions options) {
    return create(uri, List.of(Objects.requireNonNull(batch, "batch")), options);
  }

  private static LanceTable create(String uri, Schema lance, Optional<ArrowReader> data,
      CreateOptions options) {
    StorageChecks.check(lance, options.storageVersion());
    TableContext ctx = context(uri, options.storageOptions(), options.dataFiles());
    boolean done = false;
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      if (!ctx.store().list("_versions/").isEmpty()) {
        throw new AlreadyExistsException("a Lance table already exists at " + uri + "; open it "
            + "with LanceTable.open, or overwrite its content with newOverwrite()");
      }
      StreamWrite.Written written = data.isEmpty()
          ? new StreamWrite.Written(List.of(), 0)
          : StreamWrite.write(ctx, data.get(), lance, options.storageVersion(),
              options.maxRowsPerFile(), options.maxBytesPerFile(), rows -> { });
      Table kernel;
      try {
        kernel = createVersionOne(ctx, lance, written.files(), options);
      } catch (RuntimeException e) {
        StreamWrite.delete(ctx, written);
        throw e;
      }
      done = true;
      return new LanceTable(ctx, kernel, true);
    } catch (IOException e) {
      throw new UncheckedIOException("creating a table at " + uri, e);
    } finally {
      if (!done) {
        ctx.allocator().close();
        ctx.store().close();
      }
    }
  }

  /**
   * Commits version 1 of a new table holding {@code files} (one fragment each, written with the
   * ids of {@code lance}), as lance-core creates a table: a legacy Overwrite.
   */
  static Table createVersionOne(TableContext ctx, Schema lance,
      List<dev.lancet.table.spi.WrittenFile> files, CreateOptions options) {
    List<Fragment> fragments = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      fragments.add(Fragment.builder(i).physicalRows(files.get(i).physicalRows())
          .files(List.of(StreamWrite.dataFile(files.get(i)))).build());
    }
    try {
      return Table.create(ctx.uri(), ctx.store(),
          new dev.lancet.core.operation.Overwrite(fragments, lance, Map.of(), List.of()),
          new DataStorageFormat("lance", options.storageVersion()), options.stableRowIds());
    } catch (LancetException e) {
      if (e.getMessage() != null && e.getMessage().contains("already exists")
          || e.getCause() instanceof dev.lancet.core.commit.CommitConflictException) {
        throw new AlreadyExistsException(e.getMessage(), e);
      }
      throw Commits.translate(e);
    }
  }

  static TableContext context(String uri, Map<String, String> storageOptions,
      Optional<DataFileFormat> dataFiles) {
    DataFileFormat format = dataFiles.orElseGet(DataFileFormats::discover);
    // One URI and one map of lance-core's storage options name the table for the kernel's store
    // and for the data files lance-core writes and reads.
    ObjectStore store = ObjectStores.forUri(uri, storageOptions);
    BufferAllocator allocator = new RootAllocator();
    return TableContext.main(uri, storageOptions, store, format, allocator);
  }

  // ---- reading ------------------------------------------------------------------------------

  public String uri() {
    return ctx.uri();
  }

  /** The newest version. */
  public long version() {
    return latest().version();
  }

  /** The Arrow schema of the newest version. */
  public org.apache.arrow.vector.types.pojo.Schema schema() {
    return TableSchemas.toArrow(latest().manifest().schema());
  }

  /** Live rows (physical rows minus deleted ones) of the newest version. */
  public long countRows() {
    return latest().manifest().liveRows();
  }

  /** The Lance data storage version of the table's files ("2.0", "2.1"). */
  public String storageVersion() {
    return storageVersionOf(latest().manifest());
  }

  /** Whether the table gives rows stable row ids. */
  public boolean stableRowIds() {
    return latest().manifest().usesStableRowIds();
  }

  /**
   * A scan of the newest version (or the one {@code asOf...} names) of this handle's branch; a
   * tag reads the branch it points into.
   */
  public Scan newScan() {
    return new Scan(ctx, this::resolveAt);
  }

  // ---- branches -----------------------------------------------------------------------------

  /**
   * This table at branch {@code name} ({@code "main"}: the table's first branch), in Lance's
   * layout (docs/decisions/0027): every read, write, tag, history and cleanup of the returned
   * handle acts on that branch, whose versions number on from the version it was created at and
   * whose commits go through the same commit loop and conflict rules as main's. The handle shares
   * this one's store and allocator: use it while this one is open; closing it closes nothing.
   */
  public LanceTable branch(String name) {
    java.util.Objects.requireNonNull(name, "name");
    Optional<String> b = name.equals(dev.lancet.core.version.Branches.MAIN) ? Optional.empty()
        : Optional.of(name);
    Table at;
    try {
      at = kernel.checkoutBranch(b);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
    return new LanceTable(ctx.forBranch(b), at, false);
  }

  /** The branch this handle reads and writes; empty for main. */
  public Optional<String> branchName() {
    return ctx.branch();
  }

  /** The table's branches (create, list, delete), in Lance's layout. */
  public Branches branches() {
    return new Branches(kernel, this);
  }

  // ---- writing ------------------------------------------------------------------------------

  /** An append of the batches of a reader, as new fragments. */
  public Append newAppend() {
    return new Append(ctx, this::latest);
  }

  /** Appends every batch of {@code data}; shorthand for {@code newAppend().from(data).commit()}. */
  public CommitInfo append(ArrowReader data) {
    return newAppend().from(data).commit();
  }

  /** Appends the rows of in-memory batches (see {@link WriteBuilder#from(Iterable)}). */
  public CommitInfo append(Iterable<? extends VectorSchemaRoot> batches) {
    return newAppend().from(batches).commit();
  }

  /** Appends the rows of one in-memory batch. */
  public CommitInfo append(VectorSchemaRoot batch) {
    return newAppend().from(batch).commit();
  }

  /** Replaces the table's content and schema with the batches of a reader. */
  public Overwrite newOverwrite() {
    return new Overwrite(ctx, this::latest);
  }

  /** Shorthand for {@code newOverwrite().from(data).commit()}. */
  public CommitInfo overwrite(ArrowReader data) {
    return newOverwrite().from(data).commit();
  }

  /** Replaces the table's content and schema with the rows of in-memory batches. */
  public CommitInfo overwrite(Iterable<? extends VectorSchemaRoot> batches) {
    return newOverwrite().from(batches).commit();
  }

  /** Replaces the table's content and schema with the rows of one in-memory batch. */
  public CommitInfo overwrite(VectorSchemaRoot batch) {
    return newOverwrite().from(batch).commit();
  }

  // ---- engines: writes spread over workers -------------------------------------------------

  /**
   * An append whose data files are written by an engine's workers and committed here once
   * (see {@link DistributedWrite}), planned against the newest version now.
   *
   * @param limits the data-file limits ({@code maxRowsPerFile}, {@code maxBytesPerFile})
   * @param keyColumns columns whose key hashes the workers collect for a unique-key assertion
   *     (none for a plain append)
   */
  public DistributedWrite newDistributedWrite(CreateOptions limits, List<String> keyColumns) {
    return DistributedWrite.append(ctx, latest(), limits, keyColumns);
  }

  /** {@link #newDistributedWrite} planned against version {@code readVersion}. */
  public DistributedWrite newDistributedWrite(long readVersion, CreateOptions limits,
      List<String> keyColumns) {
    return DistributedWrite.append(ctx, resolve(new VersionRef.Number(readVersion)), limits,
        keyColumns);
  }

  /**
   * An overwrite (new content and schema {@code arrow}) written by an engine's workers and
   * committed here once, planned against the newest version now.
   */
  public DistributedWrite newDistributedOverwrite(org.apache.arrow.vector.types.pojo.Schema arrow,
      CreateOptions limits) {
    return DistributedWrite.overwrite(ctx, latest(), arrow, limits);
  }

  /**
   * Re-creates, on an engine's worker, the scan task a coordinator planned and described with
   * {@link ScanTask#describe()}.
   */
  public ScanTask openTask(ScanTask.Descriptor descriptor) {
    return newScan().task(descriptor);
  }

  /** The table config of the newest version (lance-core's {@code config()}). */
  public Map<String, String> config() {
    return latest().manifest().config();
  }

  // ---- row-level statements -----------------------------------------------------------------
  // Entry points engines (the Spark connector's DELETE / UPDATE / MERGE INTO) call too: each is
  // one Transaction V2 commit, re-planned against the new version on a retryable conflict.

  /** A delete of the rows a SQL filter selects. */
  public Delete newDelete() {
    return new Delete(ctx, this::latest);
  }

  /**
   * Deletes the rows {@code filter} selects; shorthand for {@code newDelete().where(filter)
   * .commit()}. Nothing is committed when no row matches (the result has no version).
   */
  public StatementResult delete(String filter) {
    return newDelete().where(filter).commit();
  }

  /** An update: {@code newUpdate().where("...").set("col", "expr").commit()}. */
  public Update newUpdate() {
    return new Update(ctx, this::latest);
  }

  /**
   * Updates the rows {@code filter} selects, {@code set} mapping each column to its new value (a
   * SQL expression of the row); shorthand for {@link #newUpdate()}.
   */
  public StatementResult update(String filter, Map<String, String> set) {
    Update u = newUpdate().where(filter);
    set.forEach(u::set);
    return u.commit();
  }

  /** A merge insert of source rows by the key columns {@code keys}. */
  public MergeInsert mergeInsert(String... keys) {
    return new MergeInsert(ctx, this::latest, List.of(keys));
  }

  /** A merge insert of source rows by the key columns {@code keys}. */
  public MergeInsert mergeInsert(List<String> keys) {
    return new MergeInsert(ctx, this::latest, keys);
  }

  /** A compaction of small fragments and fragments with many deleted rows. */
  public Compaction compact() {
    return new Compaction(ctx, this::latest);
  }

  /** Several statements committed atomically as one version. */
  public TableTransaction newTransaction() {
    return new TableTransaction(ctx, this::latest);
  }

  // ---- schema evolution ---------------------------------------------------------------------

  /** Adds columns: all-null, computed from existing ones, or from an aligned reader. */
  public AddColumns addColumns() {
    return new AddColumns(ctx, this::latest);
  }

  /** Renames, changes nullability of, or casts columns. */
  public AlterColumns alterColumns() {
    return new AlterColumns(ctx, this::latest);
  }

  /**
   * Drops columns ("a", or "s.a" for a child) and their children, as one commit. The data stays
   * in the data files (a change of schema only) until compaction and cleanup reclaim it.
   */
  public CommitInfo dropColumns(String... paths) {
    if (paths.length == 0) {
      throw new InvalidInputException("dropColumns needs at least one column");
    }
    Snapshot read = latest();
    Schema schema = read.manifest().schema();
    List<dev.lancet.format.model.Field> fields = new ArrayList<>();
    for (String p : paths) {
      fields.add(Columns.resolve(schema, p, read.version()));
    }
    long left = schema.topLevel().stream().filter(f -> !fields.contains(f)).count();
    if (left == 0) {
      throw new InvalidInputException("dropping " + String.join(", ", paths) + " would leave the "
          + "table without columns; a Lance table needs at least one");
    }
    dev.lancet.core.transaction.TransactionBuilder txn =
        new dev.lancet.core.transaction.TransactionBuilder(ctx.store(), ctx.uri(), read);
    txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "drop columns");
    txn.step("drop columns " + String.join(", ", paths), s -> {
      for (dev.lancet.format.model.Field f : fields) {
        s.dropField(dev.lancet.core.action.Ref.committed(f.id()));
      }
    });
    return Append.publish(ctx, txn, new StreamWrite.Written(List.of(), 0), a -> { }, 20);
  }

  // ---- versions, tags, cleanup -------------------------------------------------------------

  /**
   * The table's tags (create, move, delete, list): all of them, whatever branch they point into;
   * tags created or moved here point into this handle's branch.
   */
  public Tags tags() {
    return new Tags(ctx.rootStore(), ctx.rootUri(), ctx.branch(), ctx.store());
  }

  /**
   * Every version, oldest first, with its decoded operation, steps, read version, uuid,
   * timestamp and tags.
   */
  public List<HistoryEntry> history() {
    return History.of(kernel, tags().list());
  }

  /**
   * Makes version {@code version}'s content the newest version (a new version; the versions in
   * between stay in the history). Committed as lance-core commits it, a legacy Restore through
   * the commit loop: the V2 actions cannot re-add fields under their old ids. Conflicts with
   * every concurrent commit.
   */
  public CommitInfo restore(long version) {
    Snapshot read = latest();
    resolve(new VersionRef.Number(version));
    dev.lancet.core.transaction.LegacyTransactionBuilder txn =
        new dev.lancet.core.transaction.LegacyTransactionBuilder(ctx.store(), ctx.uri(),
            read.version(), new dev.lancet.core.operation.Restore(version));
    try {
      dev.lancet.core.commit.CommitResult r = txn.commit();
      return new CommitInfo(r.version(), r.transactionUuid(), r.attempts(), 0, 0);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
  }

  /**
   * A cleanup of this branch's old versions and the files nothing references any more; call
   * {@code dryRun()} first.
   */
  public Cleanup cleanup() {
    return new Cleanup(ctx.rootStore(), ctx.rootUri(), ctx.branch());
  }

  // ---- internals ----------------------------------------------------------------------------

  Snapshot latest() {
    try {
      return kernel.latest();
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
  }

  Snapshot resolve(VersionRef ref) {
    try {
      return ref.resolve(kernel);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
  }

  /** A version and the context its files are read in: a tag's is its branch's. */
  Scan.At resolveAt(VersionRef ref) {
    Snapshot s = resolve(ref);
    Optional<String> b = ctx.branch();
    if (ref instanceof VersionRef.Tag t) {
      try {
        b = kernel.tagInfo(t.name()).branch();
      } catch (RuntimeException e) {
        throw Commits.translate(e);
      }
    }
    return new Scan.At(s, ctx.forBranch(b).at(s.manifest()));
  }

  static String storageVersionOf(Manifest m) {
    return m.dataFormat().map(DataStorageFormat::version).orElse("2.0");
  }

  static String newUuid() {
    return UUID.randomUUID().toString();
  }

  @Override
  public void close() {
    try {
      kernel.close();
      owner.ifPresent(Table::close);
    } finally {
      if (ownsAllocator) {
        ctx.allocator().close();
      }
    }
  }
}
