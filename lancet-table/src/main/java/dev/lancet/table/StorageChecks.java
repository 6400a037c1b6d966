package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;

/** What a Lance data storage version can store, checked before anything is written. */
final class StorageChecks {
  private StorageChecks() {}

  static void check(Schema schema, String storageVersion) {
    if (storageVersion.equals("2.0")) {
      return;
    }
    for (Field f : schema.fields()) {
      if (f.logicalType().startsWith("fixed_size_list:struct:")) {
        throw new InvalidInputException("column '" + schema.path(f) + "' is a fixed-size list of "
            + "structs, which Lance storage version " + storageVersion + " cannot store (lance-core "
            + "7.0.0 writes it only in 2.0); create the table with storage version 2.0, or use a "
            + "list of structs");
      }
    }
  }
}
