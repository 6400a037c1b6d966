package dev.lancet.table;

import dev.lancet.format.model.DataFile;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A data file's top-level columns with the table field ids their slots hold: the file's own
 * Arrow schema walked in slot order ({@link dev.lancet.file.schema.ColumnLayout}'s rules),
 * zipped with the manifest's {@code DataFile.fields}. A slot of -2 (tombstoned) or of a field
 * since dropped holds data no live field reads.
 */
final class FileColumns {
  /** One top-level column of a file: its name in the file and the field ids of its slots. */
  record Column(String name, List<Integer> slotIds) {}

  private FileColumns() {}

  static List<Column> of(DataFile file, Schema fileSchema, String where) {
    boolean v20 = file.fileMajorVersion() == 2 && file.fileMinorVersion() == 0;
    List<Column> out = new ArrayList<>();
    int slot = 0;
    for (Field f : fileSchema.getFields()) {
      int n = slots(f, v20);
      if (slot + n > file.fields().size()) {
        throw new LanceTableException(where + ": the manifest lists " + file.fields().size()
            + " field ids for data file " + file.path() + ", fewer than its columns need");
      }
      out.add(new Column(f.getName(), List.copyOf(file.fields().subList(slot, slot + n))));
      slot += n;
    }
    if (slot != file.fields().size()) {
      throw new LanceTableException(where + ": the manifest lists " + file.fields().size()
          + " field ids for data file " + file.path() + ", but its columns have " + slot + " slots");
    }
    return out;
  }

  /** Slots of one Arrow field (with its children) in a file of version 2.0 or 2.1+. */
  static int slots(Field f, boolean v20) {
    return dev.lancet.file.schema.ColumnLayout.slots(f, 2, v20 ? 0 : 1);
  }
}
