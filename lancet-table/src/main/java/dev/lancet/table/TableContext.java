package dev.lancet.table;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.SubtreeStore;
import dev.lancet.core.version.Branches;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.Manifest;
import dev.lancet.table.spi.DataFileFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every operation of one open table shares: where it is and how to reach its files. For a
 * branch (docs/decisions/0027), {@code uri} and {@code store} are the branch's dataset root
 * ({@code tree/{name}/}) and {@code rootUri}/{@code rootStore} the table's; {@code bases} are the
 * base paths of the version being read, through which a branch reads the files it shares with
 * its parent.
 */
record TableContext(String uri, Map<String, String> storageOptions, ObjectStore store,
    DataFileFormat dataFiles, BufferAllocator allocator, Optional<String> branch, String rootUri,
    ObjectStore rootStore, List<BasePath> bases) {

  /** The context of a table's main branch. */
  static TableContext main(String uri, Map<String, String> storageOptions, ObjectStore store,
      DataFileFormat dataFiles, BufferAllocator allocator) {
    return new TableContext(uri, Map.copyOf(storageOptions), store, dataFiles, allocator,
        Optional.empty(), uri, store, List.of());
  }

  /** The same table at branch {@code name} (empty: main). */
  TableContext forBranch(Optional<String> name) {
    if (name.equals(branch)) {
      return this;
    }
    if (name.isEmpty()) {
      return new TableContext(rootUri, storageOptions, rootStore, dataFiles, allocator,
          Optional.empty(), rootUri, rootStore, List.of());
    }
    return new TableContext(Branches.location(rootUri, name.get()), storageOptions,
        new SubtreeStore(rootStore, Branches.directory(name.get())), dataFiles, allocator, name,
        rootUri, rootStore, List.of());
  }

  /** This context reading version {@code m} of its branch: its base paths resolve. */
  TableContext at(Manifest m) {
    if (m.basePaths().equals(bases)) {
      return this;
    }
    return new TableContext(uri, storageOptions, store, dataFiles, allocator, branch, rootUri,
        rootStore, List.copyOf(m.basePaths()));
  }
}
