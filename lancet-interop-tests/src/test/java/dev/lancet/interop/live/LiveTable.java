package dev.lancet.interop.live;

import dev.lancet.core.Table;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
  /** Rows 0..INITIAL_ROWS-1 created by lance-core; {@link #owner} says who may change each. */
  static final int INITIAL_ROWS = 300;

  /** Initial ids from here on are changed only by the scripted conflicts, before the live phase. */
  static final long SCRIPTED_FIRST = 290;

  /** Who may delete or update an initial row in the live phase. */
  enum Owner { LANCE, LANCET_0, LANCET_1, CONTESTED, SCRIPTED }

  static final int ROWS_PER_FRAGMENT = 100;

  /** Rows per append batch. */
  static final int BATCH = 20;

  /** First id the lance-core writer appends. */
  static final long LANCE_APPEND_BASE = 1_000_000;

  /** First id Lancet writer {@code w} appends: {@code LANCET_APPEND_BASE * (w + 2)}. */
  static final long LANCET_APPEND_BASE = 1_000_000;

  private LiveTable() {}

  /**
   * The owner of initial row {@code id}: ids 10, 30, ..., 270 are contested (lance-core deletes
   * them, both Lancet writers delete and update them); other even ids are lance-core's, other odd
   * ids alternate between the two Lancet writers; 290..299 belong to the scripted conflicts.
   */
  static Owner owner(long id) {
    if (id >= SCRIPTED_FIRST) {
      return Owner.SCRIPTED;
    }
    if (id % 20 == 10) {
      return Owner.CONTESTED;
    }
    if (id % 2 == 0) {
      return Owner.LANCE;
    }
    return (id / 2) % 2 == 0 ? Owner.LANCET_0 : Owner.LANCET_1;
  }

  /** The initial ids of {@code owner}, ascending. */
  static List<Long> initialIds(Owner owner) {
    List<Long> out = new ArrayList<>();
    for (long id = 0; id < INITIAL_ROWS; id++) {
      if (owner(id) == owner) {
        out.add(id);
      }
    }
    return out;
  }

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

  /** Where each live row is at {@code version} (fragment and offset), read with lance-core. */
  static Map<Long, LanceOracle.RowIdentity> rowsAt(Path dir, long version) {
    Map<Long, LanceOracle.RowIdentity> where = new HashMap<>();
    for (LanceOracle.RowIdentity r : LanceOracle.rowIdentities(dir, version)) {
      where.put(r.id(), r);
    }
    return where;
  }

  /** The fragments a Delete (or a rewrite-rows Update) of some rows updates and removes. */
  record RowDeletion(List<Fragment> updated, List<Long> removed) {}

  /**
   * Deletes the rows {@code ids} (all live in {@code m}, located by {@code where}) on top of their
   * fragments' deletions: new deletion files written, the fragments updated or removed.
   */
  static RowDeletion deleteRows(Table table, Manifest m, Map<Long, LanceOracle.RowIdentity> where,
      List<Long> ids) {
    Map<Long, List<Integer>> offsets = new TreeMap<>();
    for (long id : ids) {
      LanceOracle.RowIdentity r = where.get(id);
      if (r == null) {
        throw new IllegalStateException("id " + id + " is not live at version " + m.version());
      }
      offsets.computeIfAbsent((long) r.fragmentId(), k -> new ArrayList<>()).add(r.offset());
    }
    List<Fragment> updated = new ArrayList<>();
    List<Long> removed = new ArrayList<>();
    for (Map.Entry<Long, List<Integer>> e : offsets.entrySet()) {
      Fragment f = m.fragments().stream().filter(x -> x.id() == e.getKey()).findFirst()
          .orElseThrow(() -> new IllegalStateException("no fragment " + e.getKey() + " in version " + m.version()));
      DeletionVector dv = DeletionVector.of(e.getValue().stream().mapToInt(Integer::intValue).toArray());
      Optional<Fragment> post = withDeleted(table, f, dv, m.version());
      if (post.isPresent()) {
        updated.add(post.get());
      } else {
        removed.add(f.id());
      }
    }
    return new RowDeletion(updated, removed);
  }

  /** Lance's canonical text of a name value, as {@code LanceOracle.canonical} renders it. */
  static String canonical(String value) {
    return value == null ? "null" : value;
  }
}
