package dev.lancet.core.store;

import dev.lancet.format.model.BasePath;
import java.io.IOException;
import java.util.List;

/**
 * Finds the store holding the files of a manifest's base path, for bases inside the same table: a
 * branch's versions name the table root or a parent branch's {@code tree/} directory as the base
 * of the files they share (docs/decisions/0027). A branch's store is a {@link SubtreeStore} of the
 * table's, so its parent reaches every base inside the table.
 */
public final class BaseStores {
  private BaseStores() {}

  /**
   * The dataset root of base {@code baseId}, as a store, for the dataset at {@code location}
   * read through {@code store}.
   *
   * @throws IOException naming the base when it is not declared, not a dataset root, outside the
   *     table, or not comparable with the table's location
   */
  public static ObjectStore datasetRoot(ObjectStore store, String location, List<BasePath> bases,
      int baseId) throws IOException {
    BasePath base = bases.stream().filter(b -> b.id() == baseId).findFirst().orElseThrow(() ->
        new IOException("base path " + Integer.toUnsignedString(baseId) + " is not declared"));
    if (!base.isDatasetRoot()) {
      throw new IOException("base path " + base.id() + " (" + base.path() + ") is not a dataset root");
    }
    ObjectStore root = store;
    String rootLocation = location;
    if (store instanceof SubtreeStore sub) {
      root = sub.parent();
      rootLocation = Locations.parentOf(location, sub.prefix());
    }
    Placement p = Locations.place(rootLocation, base.path());
    if (p instanceof Placement.Inside in) {
      return in.prefix().isEmpty() ? root : new SubtreeStore(root, in.prefix());
    }
    if (p instanceof Placement.Undecided u) {
      throw new IOException("base path " + base.id() + " (" + base.path() + ") cannot be placed "
          + "relative to the table at " + rootLocation + ": " + u.reason());
    }
    throw new IOException("base path " + base.id() + " (" + base.path() + ") is outside the table "
        + "at " + rootLocation + "; Lancet reads files of other tables' bases only for data files");
  }
}
