package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ReadOptions;

/**
 * Builds the Lance tables the benchmarks open, in a scratch directory.
 *
 * <p>Two layouts:
 *
 * <ul>
 *   <li>{@link Layout#SYNTHETIC} (any fragment count): lance-core writes version 1, one fragment
 *       holding one row ({@code id int64 not null} = 0) in one data file. Lancet then publishes
 *       version 2 with {@link VersionPublisher}: an Append whose manifest holds {@code n} fragments
 *       with ids {@code 0..n-1}, each a copy of the original fragment (same single data-file entry,
 *       same path, one physical row). The transaction (also stored inline in the manifest, as
 *       Lance does) appends the {@code n - 1} new fragments, with ids left 0 as Lance writes them.
 *       For {@code n = 1} it is an Append of nothing, so every synthetic table is at version 2 and
 *       both of its manifests were encoded the same way.
 *   <li>{@link Layout#NATIVE} (practical up to a few thousand fragments): lance-core writes rows
 *       {@code 0..n-1} with {@code max_rows_per_file = 1}, so version 1 holds {@code n} fragments
 *       with {@code n} distinct data files, written entirely by lance-core.
 * </ul>
 *
 * Every table is checked with both libraries before it is handed out ({@link #verify}).
 */
public final class BenchTables {

  /** How a benchmark table is built; see the class comment. */
  public enum Layout {
    SYNTHETIC,
    NATIVE;

    public static Layout parse(String s) {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
  }

  /** lance-core writing one data file per row gets slow quickly; refuse silly sizes. */
  public static final int MAX_NATIVE_FRAGMENTS = 20_000;

  static final Schema SCHEMA =
      new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));

  private BenchTables() {}

  /**
   * Creates a table with {@code fragments} fragments under {@code parent} and verifies it with
   * lance-core and Lancet. Returns the table directory.
   */
  public static Path create(Path parent, int fragments, Layout layout, BufferAllocator alloc) {
    if (fragments < 1) {
      throw new IllegalArgumentException("fragments must be >= 1, got " + fragments);
    }
    Path dir = parent.resolve(layout.name().toLowerCase(Locale.ROOT) + "-" + fragments);
    long expectedVersion;
    switch (layout) {
      case SYNTHETIC -> {
        writeWithLance(dir, 1, alloc);
        publishCopies(dir, fragments);
        expectedVersion = 2;
      }
      case NATIVE -> {
        if (fragments > MAX_NATIVE_FRAGMENTS) {
          throw new IllegalArgumentException("layout NATIVE writes one data file per fragment "
              + "through lance-core; " + fragments + " fragments would take too long (max "
              + MAX_NATIVE_FRAGMENTS + "). Use layout SYNTHETIC.");
        }
        writeWithLance(dir, fragments, alloc);
        expectedVersion = 1;
      }
      default -> throw new AssertionError(layout);
    }
    verify(dir, fragments, expectedVersion, alloc);
    return dir;
  }

  /**
   * lance-core writes rows {@code 0..rows-1} of {@link #SCHEMA} as a new table, one row per data
   * file (so one fragment per row), V2 manifest naming (lance-core 7.0.0's default).
   */
  static void writeWithLance(Path dir, int rows, BufferAllocator alloc) {
    try (ArrowReader reader = new IdReader(alloc, rows);
        Dataset ds =
            Dataset.write()
                .allocator(alloc)
                .reader(reader)
                .uri(dir.toAbsolutePath().toString())
                .maxRowsPerFile(1)
                .maxRowsPerGroup(1)
                .execute()) {
      if (ds.version() != 1) {
        throw new IllegalStateException("lance-core created version " + ds.version() + ", not 1");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Publishes version 2 of a one-fragment table through Lancet: {@code n} copies of the fragment
   * (ids {@code 0..n-1}), as an Append of the {@code n - 1} new ones read at version 1.
   */
  static void publishCopies(Path dir, int n) {
    Snapshot v1;
    try (Table table = Table.open(dir.toAbsolutePath().toString())) {
      v1 = table.latest();
    }
    Manifest m1 = v1.manifest();
    if (v1.version() != 1 || m1.fragments().size() != 1) {
      throw new IllegalStateException("expected version 1 with one fragment at " + dir
          + ", found version " + v1.version() + " with " + m1.fragments().size());
    }
    Fragment original = m1.fragments().get(0);
    List<Fragment> fragments = new ArrayList<>(n);
    TransactionProtos.Transaction.Append.Builder append =
        TransactionProtos.Transaction.Append.newBuilder();
    for (int id = 0; id < n; id++) {
      fragments.add(original.toBuilder().id(id).build());
      if (id > 0) {
        // New fragments go into the transaction with id 0; ids are assigned at commit.
        append.addFragments(FragmentCodec.toProto(original.toBuilder().id(0).build()));
      }
    }
    TransactionProtos.Transaction txn =
        TransactionProtos.Transaction.newBuilder()
            .setReadVersion(1)
            .setUuid(UUID.randomUUID().toString())
            .setAppend(append)
            .build();
    Manifest m2 = m1.toBuilder().version(2).fragments(fragments).build();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      VersionEntry published =
          new VersionPublisher(store).publish(m2, v1.indices(), txn, v1.entry().naming()).entry();
      if (published.version() != 2) {
        throw new IllegalStateException("published version " + published.version() + ", not 2");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("publishing version 2 of " + dir, e);
    }
  }

  /**
   * Fails loudly unless both lance-core (fresh open, no shared session) and Lancet see the
   * expected latest version with exactly {@code fragments} fragments, ids {@code 0..n-1}.
   */
  public static void verify(Path dir, int fragments, long expectedVersion, BufferAllocator alloc) {
    String uri = dir.toAbsolutePath().toString();
    try (Dataset ds =
        Dataset.open().allocator(alloc).uri(uri).readOptions(new ReadOptions.Builder().build())
            .build()) {
      List<org.lance.Fragment> fs = ds.getFragments();
      BitSet ids = new BitSet(fragments);
      for (org.lance.Fragment f : fs) {
        int id = f.getId();
        if (id < 0 || id >= fragments || ids.get(id)) {
          throw new IllegalStateException("lance-core sees an unexpected fragment id " + id
              + " in " + uri);
        }
        ids.set(id);
      }
      if (ds.version() != expectedVersion || fs.size() != fragments
          || ids.cardinality() != fragments) {
        throw new IllegalStateException("lance-core opened " + uri + " at version "
            + ds.version() + " with " + fs.size() + " fragments; expected version "
            + expectedVersion + " with " + fragments);
      }
    }
    try (Table table = Table.open(uri)) {
      Snapshot s = table.latest();
      if (s.version() != expectedVersion || s.manifest().fragments().size() != fragments) {
        throw new IllegalStateException("Lancet opened " + uri + " at version " + s.version()
            + " with " + s.manifest().fragments().size() + " fragments; expected version "
            + expectedVersion + " with " + fragments);
      }
    }
  }

  /** Deletes a directory tree (best effort is not good enough for a benchmark: errors propagate). */
  public static void deleteRecursively(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          if (e != null) {
            throw e;
          }
          Files.delete(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("deleting " + root, e);
    }
  }

  /** An in-memory Arrow reader producing one batch: {@code id} = 0..rows-1. */
  static final class IdReader extends ArrowReader {
    private final int rows;
    private boolean done;

    IdReader(BufferAllocator alloc, int rows) {
      super(alloc);
      this.rows = rows;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (done) {
        return false;
      }
      done = true;
      BigIntVector ids = (BigIntVector) getVectorSchemaRoot().getVector("id");
      ids.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        ids.set(i, i);
      }
      ids.setValueCount(rows);
      getVectorSchemaRoot().setRowCount(rows);
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return SCHEMA;
    }
  }
}
