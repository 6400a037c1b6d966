package dev.lancet.core.deletion;

import dev.lancet.core.conflict.legacy.MissingDeletionFileException;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.ReadLimits;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import java.io.IOException;
import java.util.Optional;

/**
 * A fragment's deletion vector in the table's store: read the file the manifest names, write a
 * post-image as a new file for a {@code SetDeletionFile} action. New files are published with
 * put-if-absent, so an existing deletion file is never replaced. Deletion files in another base
 * path (a set {@code base_id}) are not resolved here.
 */
public final class DeletionFiles {
  private DeletionFiles() {}

  /** The rows (offsets) deleted in {@code fragment}; empty when it has no deletion file. */
  public static DeletionVector current(ObjectStore store, Fragment fragment) throws IOException {
    Optional<DeletionFile> df = fragment.deletionFile();
    return df.isEmpty() ? DeletionVector.empty() : read(store, fragment.id(), df.get());
  }

  /**
   * The fragment's deleted rows, its deletion file found in its base path when it has one
   * (a branch's fragments shared with its parent; docs/decisions/0027).
   */
  public static DeletionVector current(ObjectStore store, String location,
      java.util.List<dev.lancet.format.model.BasePath> bases, Fragment fragment) throws IOException {
    Optional<DeletionFile> df = fragment.deletionFile();
    if (df.isEmpty()) {
      return DeletionVector.empty();
    }
    if (df.get().baseId().isEmpty()) {
      return read(store, fragment.id(), df.get());
    }
    ObjectStore base;
    try {
      base = dev.lancet.core.store.BaseStores.datasetRoot(store, location, bases,
          df.get().baseId().getAsInt());
    } catch (IOException e) {
      throw new IOException("the deletion file of fragment " + Long.toUnsignedString(fragment.id())
          + ": " + e.getMessage(), e);
    }
    DeletionFile local = new DeletionFile(df.get().kindValue(), df.get().readVersion(),
        df.get().id(), df.get().numDeletedRows(), java.util.OptionalInt.empty(),
        df.get().unknownFields());
    return read(base, fragment.id(), local);
  }

  /**
   * Reads the deletion file {@code file} of fragment {@code fragmentId}, refusing one larger
   * than {@link ReadLimits#maxDeletionFileBytes()} unread.
   *
   * @throws MissingDeletionFileException when the manifest names a file the store does not have
   */
  public static DeletionVector read(ObjectStore store, long fragmentId, DeletionFile file)
      throws IOException {
    if (file.baseId().isPresent()) {
      throw new IOException("the deletion file of fragment " + Long.toUnsignedString(fragmentId)
          + " lives in base path " + Integer.toUnsignedString(file.baseId().getAsInt())
          + ", which Lancet does not resolve yet");
    }
    String name = file.fileName(fragmentId);
    String path = DeletionFileNames.DIRECTORY + "/" + name;
    byte[] bytes;
    try {
      bytes = store.get(path, ReadLimits.maxDeletionFileBytes());
    } catch (NotFoundException e) {
      throw new MissingDeletionFileException(fragmentId, path);
    }
    return DeletionFileFormat.read(bytes, file.kind(), name);
  }

  /**
   * Writes {@code rows} (the whole post-image) as a new deletion file of {@code fragment} in
   * form {@code kind}, named after the version the writer read, and returns its manifest entry.
   */
  public static DeletionFile write(ObjectStore store, long fragment, long readVersion,
      DeletionVector rows, DeletionFile.Kind kind) throws IOException {
    DeletionFile df = new DeletionFile(kind, readVersion, DeletionFileNames.newId(),
        rows.cardinality());
    store.putIfAbsent(DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment),
        DeletionFileFormat.write(rows, kind));
    return df;
  }

  /** {@link #write} in the form Lance picks for that many rows (Arrow below 5,000, else Roaring). */
  public static DeletionFile write(ObjectStore store, long fragment, long readVersion,
      DeletionVector rows) throws IOException {
    return write(store, fragment, readVersion, rows,
        DeletionFileFormat.preferredKind(rows.cardinality()));
  }
}
