package dev.lancet.core.commit;

import dev.lancet.core.TestDataFiles;
import dev.lancet.core.Table;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AssertCellsUnchanged;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RelocateRows;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * A real table directory for the row-level tests: version 1 has fragments 0..2 of 100 rows
 * (field 0, "id"), version 2 adds field 1 ("name") with a data file in every fragment. Every
 * transaction planned here read version 2 unless it says otherwise.
 */
final class TwoFieldTable {
  static final long READ = 2;

  final Path dir;
  final LocalObjectStore store;
  final DeletionFiles files;
  final Table table;
  final Snapshot v2;

  TwoFieldTable(Path dir) throws IOException {
    this.dir = dir;
    this.store = new LocalObjectStore(dir);
    TortureTables.seed(store, 3, 100);
    new TransactionBuilder(store, dir.toString(), 1).step("add name", s -> {
      s.addField(0, Field.builder(99, "name", "string").build());
      for (long f = 0; f < 3; f++) {
        s.addDataFile(Ref.committed(f), TestDataFiles.placed(store, file("name-" + f + ".lance")), Ref.local(0));
      }
    }).commit();
    this.files = new DeletionFiles(store);
    this.table = Table.open(dir.toString(), store);
    this.v2 = table.version(READ);
  }

  static DataFile file(String path) {
    return new DataFile(path, List.of(-1), List.of(0), 2, 1, 10);
  }

  /** A transaction of one step, planned on version 2. */
  TransactionBuilder planned(Action... actions) {
    return new TransactionBuilder(store, dir.toString(), READ)
        .step("step", s -> List.of(actions).forEach(s::action));
  }

  CommitResult commit(Action... actions) {
    return planned(actions).commit();
  }

  DeletionVector deleted(long fragment) throws IOException {
    return files.deleted(table.latest(), fragment);
  }

  /**
   * An update planned on version 2 that copies {@code rows} of {@code fragment} (both fields)
   * into a new fragment and deletes them there, declaring the move and the cells it read.
   */
  Action[] movingUpdate(long fragment, int... rows) throws IOException {
    RoaringBitmap moved = RoaringBitmap.bitmapOf(rows);
    return new Action[] {files.delete(v2, fragment, rows), new RelocateRows(fragment, moved),
        AddFragment.local(0, rows.length),
        new AddDataFile(Ref.local(0), TestDataFiles.placed(store, new DataFile("updated.lance", List.of(-1, -1), List.of(0, 1), 2, 1, 10)),
            List.of(Ref.committed(0), Ref.committed(1)), true),
        new AssertCellsUnchanged(Ref.committed(fragment), List.of(Ref.committed(0), Ref.committed(1)), moved)};
  }
}
