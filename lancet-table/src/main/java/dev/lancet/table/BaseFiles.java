package dev.lancet.table;

import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import java.io.IOException;

/**
 * Where a version's files are: its own (no base id) under the dataset root of its branch, the
 * others under the base path the manifest names (a branch's files shared with its parent,
 * docs/decisions/0027).
 */
final class BaseFiles {
  private BaseFiles() {}

  /** A data file to open: {@code path} below the dataset at {@code uri}. */
  record Location(String uri, String path) {}

  static Location data(TableContext ctx, DataFile df, String where) {
    if (df.baseId().isEmpty()) {
      return new Location(ctx.uri(), "data/" + df.path());
    }
    int id = df.baseId().getAsInt();
    BasePath base = ctx.bases().stream().filter(b -> b.id() == id).findFirst().orElseThrow(() ->
        new LanceTableException(where + ": data file " + df.path() + " names base path "
            + Integer.toUnsignedString(id) + ", which the version does not declare"));
    return new Location(base.path(), (base.isDatasetRoot() ? "data/" : "") + df.path());
  }

  /** The fragment's deleted rows, read from its base path when its deletion file has one. */
  static DeletionVector deletions(TableContext ctx, Fragment f) throws IOException {
    return DeletionFiles.current(ctx.store(), ctx.uri(), ctx.bases(), f);
  }
}
