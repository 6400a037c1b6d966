package dev.lancet.core.commit;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.Provenance;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectTooLargeException;
import dev.lancet.core.version.ReadLimits;
import dev.lancet.format.FormatException;
import dev.lancet.format.Texts;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.layout.FragmentChanges;
import dev.lancet.format.layout.InvalidManifestException.Subject;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The I/O facts a commit checks before it writes anything ({@link PublishChecks#verifyNewFiles}):
 * every file the new manifest names that the previous one did not (data and overlay files under
 * {@code data/}, deletion files, external row-id and row-version files, index files) exists in
 * the table's store with the size recorded for it, and a new deletion file decodes and deletes
 * only offsets its fragment has, as many as it says. One request per new file (a size lookup; a
 * read for a deletion file), none for files already in the table; a file verified once is not
 * looked up again when the commit is retried. Files in another base path are outside the
 * table's store and are not looked up.
 */
final class NewFileCheck {
  private final ObjectStore store;
  private final Set<String> verified = new HashSet<>();

  NewFileCheck(ObjectStore store) {
    this.store = store;
  }

  void check(Manifest previous, List<IndexSegment> previousIndices, Manifest next,
      List<IndexSegment> nextIndices, Provenance provenance) throws IOException {
    IOException[] failure = new IOException[1];
    FragmentChanges.walk(previous.fragments(), next.fragments(), (f, was, changed) -> {
      if (!changed || failure[0] != null) {
        return;
      }
      try {
        fragment(f, was, provenance);
      } catch (IOException e) {
        failure[0] = e;
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    Set<UUID> before = new HashSet<>();
    previousIndices.forEach(s -> before.add(s.uuid()));
    for (IndexSegment s : nextIndices) {
      if (before.contains(s.uuid()) || s.baseId().isPresent()) {
        continue;
      }
      for (IndexSegment.IndexFile file : s.files()) {
        String where = provenance.where(Subject.index(s.uuid().toString()));
        sized("_indices/" + s.uuid() + "/" + file.path(), file.sizeBytes(), where,
            "index " + Texts.quote(s.name()) + " segment " + s.uuid() + " file " + Texts.quote(file.path()));
      }
    }
  }

  private void fragment(Fragment f, Fragment was, Provenance provenance) throws IOException {
    Set<String> oldFiles = new HashSet<>();
    Set<DataOverlayFile> oldOverlays = new HashSet<>();
    if (was != null) {
      was.files().forEach(d -> oldFiles.add(d.baseId() + "/" + d.path()));
      oldOverlays.addAll(was.overlays());
    }
    String fragment = "fragment " + Long.toUnsignedString(f.id());
    for (DataFile d : f.files()) {
      if (d.baseId().isEmpty() && !oldFiles.contains(d.baseId() + "/" + d.path())) {
        sized("data/" + d.path(), d.fileSizeBytes(), provenance.where(Subject.file(f.id(), d.path())),
            fragment + " data file " + Texts.quote(d.path()));
      }
    }
    for (DataOverlayFile o : f.overlays()) {
      DataFile d = o.dataFile();
      if (d.baseId().isEmpty() && !oldOverlays.contains(o)) {
        sized("data/" + d.path(), d.fileSizeBytes(), provenance.where(Subject.file(f.id(), d.path())),
            fragment + " overlay file " + Texts.quote(d.path()));
      }
    }
    String where = provenance.where(Subject.fragment(f.id()));
    Optional<DeletionFile> deletion = f.deletionFile();
    if (deletion.isPresent() && deletion.get().baseId().isEmpty()
        && (was == null || !deletion.equals(was.deletionFile()))) {
      deletionFile(f, deletion.get(), where);
    }
    external(f.rowIds(), was == null ? Optional.empty() : was.rowIds(), where, fragment + " row ids");
    external(f.lastUpdatedAtVersions(), was == null ? Optional.empty() : was.lastUpdatedAtVersions(),
        where, fragment + " last-updated versions");
    external(f.createdAtVersions(), was == null ? Optional.empty() : was.createdAtVersions(),
        where, fragment + " created-at versions");
  }

  /** The object exists; with a recorded size (0 means unknown, as in Lance), it has that size. */
  private void sized(String path, long recorded, String where, String what) throws IOException {
    String key = path + "#" + recorded;
    if (verified.contains(key)) {
      return;
    }
    long actual;
    try {
      actual = store.size(path);
    } catch (NotFoundException e) {
      throw new ApplyException(where, what + " does not exist in the table (looked for " + path
          + "); write the file before committing the version that names it");
    }
    if (recorded != 0 && actual != recorded) {
      throw new ApplyException(where, what + " is " + actual + " bytes in the store, but the commit "
          + "records " + Long.toUnsignedString(recorded) + " bytes for it (file_size_bytes); record "
          + "the size the file has");
    }
    verified.add(key);
  }

  private void deletionFile(Fragment f, DeletionFile d, String where) throws IOException {
    String name = d.fileName(f.id());
    String path = DeletionFileNames.DIRECTORY + "/" + name;
    String what = "fragment " + Long.toUnsignedString(f.id()) + " deletion file " + path;
    String key = path + "#" + f.physicalRows() + "#" + d.numDeletedRows();
    if (verified.contains(key)) {
      return;
    }
    DeletionVector vector;
    try {
      vector = DeletionFileFormat.read(store.get(path, ReadLimits.maxDeletionFileBytes()), d.kind(), name);
    } catch (NotFoundException e) {
      throw new ApplyException(where, what + " does not exist; write the deletion file before "
          + "committing the version that names it");
    } catch (ObjectTooLargeException e) {
      throw new ApplyException(where, what + " is " + e.size() + " bytes, more than a deletion "
          + "file may be (" + e.limit() + ", -Dlancet.maxDeletionFileBytes)");
    } catch (FormatException e) {
      throw new ApplyException(where, what + " cannot be read: " + e.defect());
    }
    if (!vector.isEmpty()) {
      long last = Integer.toUnsignedLong(vector.toBitmap().last());
      if (Long.compareUnsigned(last, f.physicalRows()) >= 0) {
        throw new ApplyException(where, what + " deletes row offset " + last + ", but the fragment "
            + "has " + Long.toUnsignedString(f.physicalRows()) + " rows (offsets 0 to "
            + (f.physicalRows() - 1) + ")");
      }
    }
    if (d.numDeletedRows() != 0 && vector.cardinality() != d.numDeletedRows()) {
      throw new ApplyException(where, what + " deletes " + vector.cardinality() + " rows, but the "
          + "commit records num_deleted_rows " + Long.toUnsignedString(d.numDeletedRows())
          + "; record the count the file holds");
    }
    verified.add(key);
  }

  private void external(Optional<StoredSequence> now, Optional<StoredSequence> before, String where,
      String what) throws IOException {
    if (now.isEmpty() || !(now.get() instanceof StoredSequence.External ex) || now.equals(before)) {
      return;
    }
    String path = ex.file().path();
    long size;
    try {
      size = store.size(path);
    } catch (NotFoundException e) {
      throw new ApplyException(where, what + " are in " + Texts.quote(path)
          + ", which does not exist in the table");
    }
    if (ex.file().offset() < 0 || ex.file().size() < 0
        || Long.compareUnsigned(ex.file().offset() + ex.file().size(), size) > 0) {
      throw new ApplyException(where, what + " are bytes " + Long.toUnsignedString(ex.file().offset())
          + " to " + Long.toUnsignedString(ex.file().offset() + ex.file().size()) + " of "
          + Texts.quote(path) + ", which has " + size + " bytes");
    }
  }
}
