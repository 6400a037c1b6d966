package dev.lancet.core.commit;

import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import java.io.IOException;
import java.util.Optional;

/** Real deletion files on a table's store, for the row-level delete tests. */
public final class DeletionFiles {
  private final ObjectStore store;
  private final StoreDeletionVectors vectors;

  public DeletionFiles(ObjectStore store) {
    this.store = store;
    this.vectors = new StoreDeletionVectors(store);
  }

  /** The rows fragment {@code id} deletes in {@code s} (none without a deletion file). */
  public DeletionVector deleted(Snapshot s, long id) throws IOException {
    Fragment f = s.manifest().fragment(id).orElseThrow(() -> new AssertionError("no fragment " + id));
    return deleted(id, f.deletionFile());
  }

  public DeletionVector deleted(long fragment, Optional<DeletionFile> file) throws IOException {
    if (file.isEmpty()) {
      return DeletionVector.empty();
    }
    return vectors.read(fragment, FragmentCodec.toProto(file.get()));
  }

  /**
   * A delete planned on {@code read}: a new deletion file (named with the read version) holding
   * what fragment {@code id} deleted there plus {@code rows}, written to the store.
   */
  public SetDeletionFile delete(Snapshot read, long id, int... rows) throws IOException {
    DeletionVector post = deleted(read, id).union(DeletionVector.of(rows));
    return new SetDeletionFile(id, Optional.of(write(id, read.version(), post)), true);
  }

  /** Writes {@code rows} as a new deletion file of fragment {@code id} named with {@code readVersion}. */
  public DeletionFile write(long id, long readVersion, DeletionVector rows) throws IOException {
    return FragmentCodec.fromProto(vectors.write(id, readVersion, rows));
  }

  /** How many deletion files the table's store holds. */
  public int fileCount() throws IOException {
    return store.list("_deletions/").size();
  }
}
