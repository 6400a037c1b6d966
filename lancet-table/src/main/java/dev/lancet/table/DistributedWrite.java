package dev.lancet.table;

import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.table.keys.KeyFilterBuilder;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.roaringbitmap.RoaringBitmap;

/**
 * A write spread over an engine's workers and committed once by its coordinator (Spark's
 * driver): the engine seam of the table API.
 *
 * <ol>
 *   <li>The coordinator starts it ({@link LanceTable#newDistributedWrite},
 *       {@link LanceTable#newDistributedOverwrite}, {@link #create}); the write is planned
 *       against the table's version at that moment, its {@link #readVersion()}, and registered
 *       as in flight so a concurrent cleanup keeps its files.
 *   <li>Workers open a {@link FragmentWriter} with {@link #spec()} and send back the
 *       {@link WrittenFile}s it describes (and, for a unique-key assertion, the key hashes).
 *   <li>The coordinator commits what the engine reports as committed with {@link #newCommit()}:
 *       one Transaction V2 composite operation planned against the read version (new fragments,
 *       row deletions in existing fragments, a unique-key assertion, config updates), through
 *       the commit loop with its retries; or it {@link #abort}s, deleting files.
 * </ol>
 *
 * A commit that definitely failed deletes the deletion files it wrote and leaves the data files
 * to {@link #abort}; a {@link CommitStateUnknownException} deletes nothing (the commit may have
 * landed). Close the write when the job is over.
 */
public final class DistributedWrite implements AutoCloseable {
  private final TableContext ctx;
  private final boolean ownsContext;
  private final FragmentWriteSpec.Mode mode;
  private final Optional<Snapshot> read;
  private final Schema schema;
  private final FragmentWriteSpec spec;
  private final CreateOptions createOptions;
  private final String tag;
  private final InFlightWrites.Write inFlight;
  private volatile boolean specHandedOut;

  private DistributedWrite(TableContext ctx, boolean ownsContext, FragmentWriteSpec.Mode mode,
      Optional<Snapshot> read, Schema schema, Optional<org.apache.arrow.vector.types.pojo.Schema> newSchema,
      String storageVersion, CreateOptions options, List<String> keyColumns) {
    this.ctx = ctx;
    this.ownsContext = ownsContext;
    this.mode = mode;
    this.read = read;
    this.schema = schema;
    this.createOptions = options;
    for (String k : keyColumns) {
      Columns.resolve(schema, k, readVersion());
    }
    StorageChecks.check(schema, storageVersion);
    this.tag = newTag();
    this.spec = new FragmentWriteSpec(ctx.uri(), ctx.storageOptions(), mode, readVersion(),
        newSchema, storageVersion, options.maxRowsPerFile(), options.maxBytesPerFile(), keyColumns,
        tag);
    this.inFlight = InFlightWrites.begin(ctx.store(), tag);
  }

  /** 64 random bits as 16 hex digits: short in every file name, unique among live writes. */
  private static String newTag() {
    byte[] bits = new byte[8];
    TAGS.nextBytes(bits);
    return java.util.HexFormat.of().formatHex(bits);
  }

  private static final java.security.SecureRandom TAGS = new java.security.SecureRandom();

  static DistributedWrite append(TableContext ctx, Snapshot read, CreateOptions limits,
      List<String> keyColumns) {
    return new DistributedWrite(ctx, false, FragmentWriteSpec.Mode.APPEND, Optional.of(read),
        read.manifest().schema(), Optional.empty(), LanceTable.storageVersionOf(read.manifest()),
        limits, keyColumns);
  }

  static DistributedWrite overwrite(TableContext ctx, Snapshot read,
      org.apache.arrow.vector.types.pojo.Schema arrow, CreateOptions limits) {
    return new DistributedWrite(ctx, false, FragmentWriteSpec.Mode.OVERWRITE, Optional.of(read),
        TableSchemas.toLance(arrow, 0, Optional.empty()), Optional.of(arrow),
        LanceTable.storageVersionOf(read.manifest()), limits, List.of());
  }

  /**
   * A write that creates the table at {@code uri} (version 1, as lance-core creates one) when it
   * commits; fails then with {@link AlreadyExistsException} when another writer created it first.
   */
  public static DistributedWrite create(String uri, org.apache.arrow.vector.types.pojo.Schema arrow,
      CreateOptions options) {
    TableContext ctx = LanceTable.context(uri, options.storageOptions(), options.dataFiles());
    try {
      return new DistributedWrite(ctx, true, FragmentWriteSpec.Mode.CREATE, Optional.empty(),
          TableSchemas.toLance(arrow, 0, Optional.empty()), Optional.of(arrow),
          options.storageVersion(), options, List.of());
    } catch (RuntimeException e) {
      ctx.allocator().close();
      ctx.store().close();
      throw e;
    }
  }

  /** The version the write was planned against (0 when it creates the table). */
  public long readVersion() {
    return read.map(Snapshot::version).orElse(0L);
  }

  public FragmentWriteSpec.Mode mode() {
    return mode;
  }

  /**
   * What workers open their {@link FragmentWriter}s with while this write is open. Their files
   * carry the write's tag, so {@link #abort} finds them all; a worker that finishes after the
   * write was committed, aborted or closed deletes its files and fails.
   */
  public FragmentWriteSpec spec() {
    specHandedOut = true;
    return spec;
  }

  /**
   * A spec for workers that outlive this write (a streaming query's epochs, each committed by
   * a write of its own): their files are named at random and only the files a commit or an
   * abort is given are its.
   */
  public FragmentWriteSpec detachedSpec() {
    return spec.detached();
  }

  /** The Arrow schema the workers' batches must have (the table's, or the new one). */
  public org.apache.arrow.vector.types.pojo.Schema arrowSchema() {
    return TableSchemas.toArrow(schema);
  }

  /** Starts the one commit of this write. */
  public Commit newCommit() {
    return new Commit();
  }

  /**
   * Ends the write and deletes its data files: {@code files} (what the workers reported) and
   * every other file named with its tag, the files of workers whose report never reached the
   * coordinator (Spark drops the results of tasks that finish after the job failed). A worker
   * still running finds the write ended when it finishes and deletes its own files: it checks
   * after its files are complete, and the files are listed here after the write ended, so each
   * file is deleted by one side or the other. Call it only when the commit definitely failed or
   * never ran (never after a {@link CommitStateUnknownException}).
   *
   * @return how many files no worker reported were found and deleted
   */
  public int abort(Collection<WrittenFile> files) {
    inFlight.close();
    StreamWrite.delete(ctx, List.copyOf(files));
    if (!specHandedOut) {
      return 0; // no worker can have named a file after this write
    }
    int unreported = 0;
    String prefix = tag + "-";
    java.util.Set<String> reported = new java.util.HashSet<>();
    files.forEach(f -> reported.add(f.path()));
    try {
      for (dev.lancet.core.store.ObjectInfo o : ctx.store().list("data/")) {
        String name = o.path().substring("data/".length());
        if (name.startsWith(prefix) && !reported.contains(name)) {
          ctx.store().delete(o.path());
          unreported++;
        }
      }
    } catch (IOException | RuntimeException e) {
      // cleanup reclaims what is left: no version references these files
    }
    return unreported;
  }

  @Override
  public void close() {
    inFlight.close();
    if (ownsContext) {
      ctx.allocator().close();
      ctx.store().close();
    }
  }

  /**
   * The commit of a distributed write: everything added lands as one composite operation (one
   * user step) planned against the write's read version.
   */
  public final class Commit {
    private final List<WrittenFile> files = new ArrayList<>();
    private final Map<Long, RoaringBitmap> deletions = new TreeMap<>();
    private final KeyFilterBuilder keys = new KeyFilterBuilder();
    private boolean assertKeys;
    private final Map<String, String> config = new LinkedHashMap<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private String description = "";
    private int maxRetries = 20;
    private Consumer<Attempt> onAttempt = a -> { };

    private Commit() {}

    /** New fragments, one per file, in this order. */
    public Commit addFiles(Collection<WrittenFile> written) {
      files.addAll(written);
      return this;
    }

    /**
     * Deletes the rows at these physical offsets of fragment {@code fragmentId} as it is at the
     * read version (merged with its deletion file there; a concurrent change of the same
     * fragment's deletions is a conflict).
     */
    public Commit deleteRows(long fragmentId, RoaringBitmap offsets) {
      if (mode != FragmentWriteSpec.Mode.APPEND) {
        throw new InvalidInputException("row deletions go with an append-mode write, not an "
            + mode.name().toLowerCase(java.util.Locale.ROOT));
      }
      deletions.computeIfAbsent(fragmentId, k -> new RoaringBitmap()).or(offsets);
      return this;
    }

    /**
     * Asserts that no concurrent commit inserted any of these keys (the hashes a
     * {@link FragmentWriter} collected over the spec's key columns): a concurrent writer of one
     * of them makes this commit fail with a {@link RetryableConflictException}.
     */
    public Commit assertUniqueKeys(long[] keyHashes) {
      if (spec.keyColumns().isEmpty()) {
        throw new InvalidInputException("this write names no key columns; start it with key "
            + "columns to assert unique keys");
      }
      assertKeys = true;
      for (long h : keyHashes) {
        keys.addHash(h);
      }
      return this;
    }

    /** Sets a table config key in the same commit (a streaming watermark, for example). */
    public Commit setConfig(String key, String value) {
      config.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** A transaction property (recorded in the transaction file). */
    public Commit property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    /** The user step's description (what the engine did). */
    public Commit description(String text) {
      this.description = Objects.requireNonNull(text, "text");
      return this;
    }

    public Commit maxRetries(int retries) {
      if (retries < 0) {
        throw new InvalidInputException("max retries must not be negative, not " + retries);
      }
      this.maxRetries = retries;
      return this;
    }

    public Commit onAttempt(Consumer<Attempt> observer) {
      this.onAttempt = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /**
     * Publishes the commit. A definite failure deletes the deletion files it wrote and throws
     * (the data files are the caller's to {@link DistributedWrite#abort}); an unknown outcome
     * throws {@link CommitStateUnknownException} and deletes nothing.
     */
    public CommitInfo commit() {
      long rows = files.stream().mapToLong(WrittenFile::physicalRows).sum();
      if (mode == FragmentWriteSpec.Mode.CREATE) {
        if (!config.isEmpty() || !deletions.isEmpty() || assertKeys) {
          throw new InvalidInputException("creating a table commits its fragments only");
        }
        createVersionOne();
        return new CommitInfo(1, "", 1, rows, files.size());
      }
      Snapshot at = read.orElseThrow();
      if (files.isEmpty() && deletions.isEmpty() && config.isEmpty()
          && mode == FragmentWriteSpec.Mode.APPEND) {
        return new CommitInfo(at.version(), "", 0, 0, 0);
      }
      List<String> written = new ArrayList<>();
      try {
        Map<Long, Optional<DeletionFile>> postImages = deletionPostImages(at, written);
        TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), at);
        // What the engine did, unless it said so itself.
        txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, mode == FragmentWriteSpec.Mode.OVERWRITE ? "overwrite"
            : postImages.isEmpty() ? "append" : files.isEmpty() ? "delete" : "rewrite rows");
        properties.forEach(txn::property);
        String what = description.isEmpty() ? describe(rows) : description;
        txn.step(what, s -> {
          if (mode == FragmentWriteSpec.Mode.OVERWRITE) {
            Overwrite.replaceWith(s, schema, files);
          } else {
            for (Map.Entry<Long, Optional<DeletionFile>> d : postImages.entrySet()) {
              if (d.getValue().isEmpty()) {
                s.removeFragment(Ref.committed(d.getKey()));
              } else {
                s.setDeletionFile(d.getKey(), d.getValue().get());
              }
            }
            for (int i = 0; i < files.size(); i++) {
              s.addFragment(i, files.get(i).physicalRows());
              s.addDataFile(Ref.local(i), StreamWrite.dataFile(files.get(i)),
                  Append.committed(files.get(i).fieldIds()));
            }
            if (assertKeys) {
              List<Ref> keyRefs = new ArrayList<>();
              for (String k : spec.keyColumns()) {
                keyRefs.add(Ref.committed(Columns.resolve(schema, k, at.version()).id()));
              }
              s.action(new AssertUniqueKeys(keyRefs, keys.build()));
            }
          }
          config.forEach(s::setConfig);
        });
        CommitResult r = Commits.commit(txn, onAttempt, maxRetries);
        return new CommitInfo(r.version(), r.transactionUuid(), r.attempts(), rows, files.size());
      } catch (CommitStateUnknownException e) {
        throw e;
      } catch (RuntimeException e) {
        for (String p : written) {
          try {
            ctx.store().delete(p);
          } catch (IOException | RuntimeException ignored) {
            // an unreferenced deletion file is reclaimed by cleanup
          }
        }
        throw e;
      }
    }

    private String describe(long rows) {
      String base = switch (mode) {
        case APPEND -> "append " + rows + " rows";
        case OVERWRITE -> "overwrite with " + rows + " rows";
        case CREATE -> "create with " + rows + " rows";
      };
      if (!deletions.isEmpty()) {
        long n = deletions.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum();
        base += ", delete " + n + " rows in " + deletions.size() + " fragments";
      }
      return base;
    }

    /**
     * Each touched fragment's deletion file after the deletions (written now, named after the
     * read version), or empty when every row of the fragment is gone (it is removed).
     */
    private Map<Long, Optional<DeletionFile>> deletionPostImages(Snapshot at, List<String> written) {
      Map<Long, Optional<DeletionFile>> out = new LinkedHashMap<>();
      for (Map.Entry<Long, RoaringBitmap> d : deletions.entrySet()) {
        long id = d.getKey();
        Fragment f = at.manifest().fragments().stream().filter(x -> x.id() == id).findFirst()
            .orElseThrow(() -> new InvalidInputException("fragment " + id + " does not exist at "
                + "version " + at.version() + "; rows to delete must come from a scan of it"));
        if (!d.getValue().isEmpty() && Integer.toUnsignedLong(d.getValue().last()) >= f.physicalRows()) {
          throw new InvalidInputException("fragment " + id + " has " + f.physicalRows()
              + " rows; cannot delete offset " + Integer.toUnsignedLong(d.getValue().last()));
        }
        try {
          DeletionVector merged = BaseFiles.deletions(ctx.at(at.manifest()), f)
              .union(DeletionVector.fromBitmap(d.getValue()));
          if (merged.cardinality() == f.physicalRows()) {
            out.put(id, Optional.empty());
            continue;
          }
          DeletionFile df = DeletionFiles.write(ctx.store(), id, at.version(), merged);
          written.add(DeletionFileNames.DIRECTORY + "/" + df.fileName(id));
          out.put(id, Optional.of(df));
        } catch (IOException e) {
          throw new UncheckedIOException("writing the deletion file of fragment " + id, e);
        }
      }
      return out;
    }

    private void createVersionOne() {
      // The kernel table shares this write's store, which close() releases.
      LanceTable.createVersionOne(ctx, schema, files, createOptions);
    }
  }
}
