package dev.lancet.table;

import dev.lancet.core.store.Locations;
import dev.lancet.core.store.Placement;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The files one version of a branch needs, as paths from the table root (index directories end
 * in '/'). A file without a base id lives in the version's own dataset root ({@code ""} for main,
 * {@code tree/{name}/} for a branch); a file with one lives in that base path, which for a
 * branch is the table root or a parent branch's directory (docs/decisions/0027). Files of bases
 * outside the table are not the table's to keep or remove, so they are left out; a base whose
 * location cannot be compared with the table's is an error, never a guess.
 */
final class FileReferences {
  private FileReferences() {}

  /** Thrown when a base path cannot be placed relative to the table. */
  static final class UnplaceableBase extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnplaceableBase(String message) {
      super(message);
    }
  }

  /**
   * Adds what {@code snap} (a version whose own files are under {@code root}) references.
   *
   * @param tableUri the table's location, to place base paths against
   */
  static void collect(Snapshot snap, String root, String tableUri, Set<String> out) {
    Manifest m = snap.manifest();
    String where = snap.entry().path();
    for (IndexSegment s : snap.indices()) {
      String dir = dir(m, s.baseId(), root, "_indices/", tableUri, where);
      if (dir != null) {
        out.add(dir + s.uuid() + "/");
      }
    }
    for (Fragment f : m.fragments()) {
      for (DataFile df : f.files()) {
        data(m, df, root, tableUri, where, out);
      }
      for (DataOverlayFile o : f.overlays()) {
        data(m, o.dataFile(), root, tableUri, where, out);
      }
      f.deletionFile().ifPresent(d -> {
        String dir = dir(m, d.baseId(), root, DeletionFileNames.DIRECTORY + "/", tableUri, where);
        if (dir != null) {
          out.add(dir + d.fileName(f.id()));
        }
      });
      for (Optional<StoredSequence> s : List.of(f.rowIds(), f.lastUpdatedAtVersions(),
          f.createdAtVersions())) {
        if (s.isPresent() && s.get() instanceof StoredSequence.External ext) {
          out.add(root + ext.file().path());
        }
      }
    }
    if (!m.transactionFile().isEmpty()) {
      out.add(root + TransactionFile.path(m.transactionFile()));
    }
  }

  private static void data(Manifest m, DataFile df, String root, String tableUri, String where,
      Set<String> out) {
    String dir = dir(m, df.baseId(), root, "data/", tableUri, where);
    if (dir != null) {
      out.add(dir + df.path());
    }
  }

  /**
   * The directory, from the table root, that holds a file of kind {@code sub} ("data/",
   * "_deletions/", "_indices/") in base {@code baseId}; null when the base is outside the table.
   */
  private static String dir(Manifest m, OptionalInt baseId, String root, String sub,
      String tableUri, String where) {
    if (baseId.isEmpty()) {
      return root + sub;
    }
    BasePath base = m.basePaths().stream().filter(b -> b.id() == baseId.getAsInt()).findFirst()
        .orElseThrow(() -> new UnplaceableBase(where + " names base path " + baseId.getAsInt()
            + ", which the manifest does not declare"));
    Placement p = Locations.place(tableUri, base.path());
    if (p instanceof Placement.Inside in) {
      return in.prefix() + (base.isDatasetRoot() ? sub : "");
    }
    if (p instanceof Placement.Undecided u) {
      throw new UnplaceableBase(where + " keeps files in base path " + base.id() + " ("
          + base.path() + "), and Lancet cannot tell whether that is inside the table at "
          + tableUri + ": " + u.reason());
    }
    return null;
  }
}
