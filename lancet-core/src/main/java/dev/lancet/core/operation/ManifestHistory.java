package dev.lancet.core.operation;

import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;

/**
 * Read access to a table's older versions, for the operations whose result depends on one:
 * Restore (the restored version), Clone (the source version, of the source table), and the
 * rebase of an Update (the version it read, to tell its own file changes from concurrent ones).
 */
public interface ManifestHistory {
  /** The manifest of {@code version}; throws when the version does not exist. */
  Manifest manifestAt(long version);

  /** The index segments of {@code version}. */
  List<IndexSegment> indicesAt(long version);

  /** A history that holds no version (for callers that know none is needed). */
  static ManifestHistory none() {
    return new ManifestHistory() {
      @Override
      public Manifest manifestAt(long version) {
        throw new IllegalStateException("no manifest history was supplied, so version " + version
            + " cannot be read");
      }

      @Override
      public List<IndexSegment> indicesAt(long version) {
        throw new IllegalStateException("no manifest history was supplied, so the indices of "
            + "version " + version + " cannot be read");
      }
    };
  }
}
