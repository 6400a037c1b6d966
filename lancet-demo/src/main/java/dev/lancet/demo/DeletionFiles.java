package dev.lancet.demo;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A fragment's deletion vector as a writer sees it: read the file the manifest names, merge in
 * new deletions, write the post-image as a new file for a {@code SetDeletionFile} action.
 */
public final class DeletionFiles {
  private DeletionFiles() {}

  /** The rows (offsets) already deleted in {@code fragment}; empty when it has no file. */
  public static DeletionVector current(ObjectStore store, Fragment fragment) {
    if (fragment.deletionFile().isEmpty()) {
      return DeletionVector.empty();
    }
    DeletionFile df = fragment.deletionFile().get();
    String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment.id());
    try {
      return DeletionFileFormat.read(store.get(path), df.kind(), path);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the deletion file " + path + " of fragment "
          + fragment.id(), e);
    }
  }

  /**
   * Writes {@code rows} (the whole post-image) as a new deletion file of {@code fragment},
   * named after the version the writer read, and returns its manifest entry.
   */
  public static DeletionFile write(ObjectStore store, long fragment, long readVersion,
      DeletionVector rows) {
    DeletionFile.Kind kind = DeletionFileFormat.preferredKind(rows.cardinality());
    DeletionFile df = new DeletionFile(kind, readVersion, DeletionFileNames.newId(), rows.cardinality());
    String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment);
    try {
      store.put(path, DeletionFileFormat.write(rows, kind));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the deletion file " + path, e);
    }
    return df;
  }
}
