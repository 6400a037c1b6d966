package dev.lancet.interop.live;

import dev.lancet.core.Table;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Transaction;

/**
 * The shared table of the live interop test and the helpers both writers use: the id ranges
 * each writer owns, the data-file layout of a {@link LanceFixtures#SIMPLE_SCHEMA} fragment, and
 * writing a fragment's new deletion vector as Lance does.
 */
final class LiveTable {
  /** Rows 0..INITIAL_ROWS-1 created by lance-core: even ids belong to lance, odd to Lancet. */
  static final int INITIAL_ROWS = 300;

  static final int ROWS_PER_FRAGMENT = 100;

  /** Rows per append batch. */
  static final int BATCH = 20;

  /** First id the lance-core writer appends. */
  static final long LANCE_APPEND_BASE = 1_000_000;

  /** First id Lancet writer {@code w} appends: {@code LANCET_APPEND_BASE * (w + 2)}. */
  static final long LANCET_APPEND_BASE = 1_000_000;

  private LiveTable() {}

  /**
   * Creates the table with lance-core: ids 0..299 in three fragments of 100 rows (versions 1 to
   * 3, one append each; the first creates the table).
   */
  static Path create(Path parent) {
    Path dir = parent.resolve("live");
    for (long start = 0; start < INITIAL_ROWS; start += ROWS_PER_FRAGMENT) {
      LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, start, ROWS_PER_FRAGMENT);
    }
    return dir;
  }

  /** The uuid of the transaction lance-core reads for {@code version}. */
  static String lanceTransactionUuid(String uri, long version) {
    try (BufferAllocator alloc = new RootAllocator()) {
      ReadOptions ro = new ReadOptions.Builder().setVersion(version).build();
      try (Dataset ds = Dataset.open().allocator(alloc).uri(uri).readOptions(ro).build()) {
        Transaction txn = ds.readTransaction().orElseThrow(
            () -> new IllegalStateException("version " + version + " of " + uri + " records no transaction"));
        try (txn) {
          return txn.uuid();
        }
      }
    }
  }

  /**
   * Writes the rows {@code ids} with the given {@code names} (null allowed) as one Lance data file
   * under {@code data/} in the layout of {@code like} and returns its entry.
   */
  static DataFile writeRows(Path dir, List<Long> ids, List<String> names, DataFile like) {
    String name = "lancet-live-" + UUID.randomUUID() + ".lance";
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(LanceFixtures.SIMPLE_SCHEMA, alloc)) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector text = (VarCharVector) root.getVector("name");
      id.allocateNew(ids.size());
      text.allocateNew(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        id.set(i, ids.get(i));
        if (names.get(i) == null) {
          text.setNull(i);
        } else {
          text.setSafe(i, names.get(i).getBytes(StandardCharsets.UTF_8));
        }
      }
      id.setValueCount(ids.size());
      text.setValueCount(ids.size());
      root.setRowCount(ids.size());
      String version = like.fileMajorVersion() + "." + like.fileMinorVersion();
      long size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, version);
      return new DataFile(name, like.fields(), like.columnIndices(), like.fileMajorVersion(),
          like.fileMinorVersion(), size);
    }
  }

  /** The fragment's current deletion vector, read with Lancet. */
  static DeletionVector deletionVector(Table table, Fragment fragment) {
    if (fragment.deletionFile().isEmpty()) {
      return DeletionVector.empty();
    }
    DeletionFile df = fragment.deletionFile().get();
    String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment.id());
    try {
      return DeletionFileFormat.read(table.store().get(path), df.kind(), path);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }

  /**
   * The fragment after deleting {@code offsets} on top of its existing deletions, with a new
   * deletion file written as Lance names and encodes it; empty when no row would remain (Lance
   * then removes the fragment).
   */
  static Optional<Fragment> withDeleted(Table table, Fragment fragment, DeletionVector offsets,
      long readVersion) {
    DeletionVector post = deletionVector(table, fragment).union(offsets);
    if (post.cardinality() >= fragment.physicalRows()) {
      return Optional.empty();
    }
    DeletionFile.Kind kind = DeletionFileFormat.preferredKind(post.cardinality());
    DeletionFile df = new DeletionFile(kind, readVersion, DeletionFileNames.newId(), post.cardinality());
    String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment.id());
    try {
      table.store().put(path, DeletionFileFormat.write(post, kind));
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + path, e);
    }
    return Optional.of(fragment.toBuilder().deletionFile(Optional.of(df)).build());
  }

  /** Lance's canonical text of a name value, as {@code LanceOracle.canonical} renders it. */
  static String canonical(String value) {
    return value == null ? "null" : value;
  }
}
