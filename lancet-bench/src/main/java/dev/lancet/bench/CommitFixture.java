package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.LocalObjectStore.Durability;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.model.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.SourcedTransaction;
import org.lance.WriteParams;
import org.lance.operation.Append;

/**
 * The commit benchmarks' table: {@code fragments} fragments written by lance-core (one row and
 * one data file each, {@link BenchTables.Layout#NATIVE}), plus one more fragment of
 * {@link #APPEND_ROWS} rows whose data file lance-core wrote with {@code Fragment.create} but
 * nobody committed. Both libraries then commit an Append of exactly that fragment, so only the
 * commit is measured, never the data writing.
 *
 * <p>{@link #reset()} puts the directory back to the state after set-up (deleting the manifests,
 * transaction files and anything else a commit added, and restoring the version hint), so every
 * measured commit starts from the same table.
 */
final class CommitFixture {
  static final int APPEND_ROWS = 100;

  final Path dir;
  final String uri;
  /** The pre-written fragment as lance-core describes it (id 0: ids are assigned at commit). */
  final FragmentMetadata lanceFragment;
  /** The same data file in Lancet's model; its field ids come from {@link #fieldRefs}. */
  final DataFile lancetFile;
  final Ref[] fieldRefs;
  final long baseVersion;
  private final Map<Path, byte[]> mutableFiles = new HashMap<>();
  private final Set<Path> original;

  private CommitFixture(Path dir, FragmentMetadata lanceFragment, long baseVersion) {
    this.dir = dir;
    this.uri = dir.toAbsolutePath().toString();
    this.lanceFragment = lanceFragment;
    this.baseVersion = baseVersion;
    if (lanceFragment.getFiles().size() != 1) {
      throw new IllegalStateException("expected one data file in the pre-written fragment, got "
          + lanceFragment.getFiles());
    }
    org.lance.fragment.DataFile f = lanceFragment.getFiles().get(0);
    List<Integer> columns = new ArrayList<>();
    for (int c : f.getColumnIndices()) {
      columns.add(c);
    }
    fieldRefs = new Ref[f.getFields().length];
    for (int i = 0; i < fieldRefs.length; i++) {
      fieldRefs[i] = Ref.committed(f.getFields()[i]);
    }
    lancetFile = new DataFile(f.getPath(), List.of(), columns, f.getFileMajorVersion(),
        f.getFileMinorVersion(), f.getFileSizeBytes() == null ? 0 : f.getFileSizeBytes(),
        f.getBaseId().isPresent() ? OptionalInt.of(f.getBaseId().get()) : OptionalInt.empty(),
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
    original = Set.copyOf(listFiles(dir));
    Path hint = dir.resolve("_versions/latest_version_hint.json");
    if (Files.exists(hint)) {
      try {
        mutableFiles.put(hint, Files.readAllBytes(hint));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Builds the table under {@code parent/name} and writes (without committing) the new fragment. */
  static CommitFixture create(Path parent, String name, int fragments, BufferAllocator alloc) {
    Path dir = parent.resolve(name);
    BenchTables.writeWithLance(dir, fragments, alloc);
    BenchTables.verify(dir, fragments, 1, alloc);
    return new CommitFixture(dir, prewrite(dir, alloc), 1);
  }

  /** A copy of this fixture's table (as set up) under {@code target}, sharing the same fragment. */
  CommitFixture copyTo(Path target) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path to = target.resolve(dir.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else if (original.contains(p) || mutableFiles.containsKey(p)) {
          Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("copying " + dir + " to " + target, e);
    }
    for (Map.Entry<Path, byte[]> m : mutableFiles.entrySet()) {
      try {
        Files.write(target.resolve(dir.relativize(m.getKey()).toString()), m.getValue());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new CommitFixture(target, lanceFragment, baseVersion);
  }

  private static FragmentMetadata prewrite(Path dir, BufferAllocator alloc) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(BenchTables.SCHEMA, alloc)) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      ids.allocateNew(APPEND_ROWS);
      for (int i = 0; i < APPEND_ROWS; i++) {
        ids.set(i, 1_000_000L + i);
      }
      ids.setValueCount(APPEND_ROWS);
      root.setRowCount(APPEND_ROWS);
      List<FragmentMetadata> written = org.lance.Fragment.create(dir.toAbsolutePath().toString(),
          alloc, root, new WriteParams.Builder().build());
      if (written.size() != 1 || written.get(0).getPhysicalRows() != APPEND_ROWS) {
        throw new IllegalStateException("lance-core wrote " + written + " instead of one fragment of "
            + APPEND_ROWS + " rows");
      }
      return written.get(0);
    }
  }

  /**
   * Lancet: open the table on a {@link LocalObjectStore} of the given durability, plan against
   * its latest version, commit a composite append. {@link Durability#SYNC} is what
   * {@code Table.open(uri)} gives; {@link Durability#NONE} publishes atomically without fsync, as
   * lance-core's local store does.
   */
  CommitResult commitWithLancet(Durability durability) {
    return commitWithLancet(new LocalObjectStore(dir, durability));
  }

  /**
   * The same without the look-up of the new data file before publishing
   * ({@code verifyNewFiles(false)}, for a writer that vouches for its files): what the check costs.
   */
  CommitResult commitWithLancetUnverified(Durability durability) {
    try (Table table = Table.open(uri, new LocalObjectStore(dir, durability))) {
      return table.newTransaction().verifyNewFiles(false)
          .step("append", s -> s.addFragment(0, lanceFragment.getPhysicalRows())
              .addDataFile(Ref.local(0), lancetFile, fieldRefs))
          .commit();
    }
  }

  /** The same through a given store (for diagnostics, e.g. timing each store call). */
  CommitResult commitWithLancet(ObjectStore store) {
    return commitWithLancet(Table.open(uri, store));
  }

  private CommitResult commitWithLancet(Table opened) {
    try (Table table = opened) {
      return table.newTransaction()
          .step("append", s -> s.addFragment(0, lanceFragment.getPhysicalRows())
              .addDataFile(Ref.local(0), lancetFile, fieldRefs))
          .commit();
    }
  }

  /** lance-core: open the latest version, commit an Append of the pre-written fragment. */
  long commitWithLance(BufferAllocator alloc, ReadOptions readOptions) {
    try (Dataset ds = Dataset.open().allocator(alloc).uri(uri).readOptions(readOptions).build();
        SourcedTransaction txn = ds.newTransactionBuilder()
            .operation(Append.builder().fragments(List.of(lanceFragment)).build()).build();
        Dataset committed = txn.commit()) {
      return committed.version();
    }
  }

  /** Removes everything a commit added since set-up and restores the version hint. */
  void reset() {
    List<Path> now = listFiles(dir);
    for (Path p : now) {
      if (!original.contains(p)) {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException("resetting " + dir, e);
        }
      }
    }
    for (Map.Entry<Path, byte[]> m : mutableFiles.entrySet()) {
      try {
        Files.write(m.getKey(), m.getValue());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static List<Path> listFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + root, e);
    }
  }
}
