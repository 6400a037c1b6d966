package dev.lancet.table.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the {@link DataFileFormat} on the class path. */
public final class DataFileFormats {
  private static volatile DataFileFormat found;

  private DataFileFormats() {}

  /**
   * The implementation {@link ServiceLoader} finds; an error names what to add when there is
   * none, or when several compete.
   */
  public static DataFileFormat discover() {
    DataFileFormat f = found;
    if (f != null) {
      return f;
    }
    synchronized (DataFileFormats.class) {
      if (found == null) {
        List<DataFileFormat> all = new ArrayList<>();
        ServiceLoader.load(DataFileFormat.class, DataFileFormats.class.getClassLoader())
            .forEach(all::add);
        if (all.isEmpty()) {
          throw new IllegalStateException("no Lance data-file implementation on the class path: "
              + "add the module dev.lancet:lancet-lance-files (lance-core's file reader and "
              + "writer), or pass a DataFileFormat to the table options");
        }
        if (all.size() > 1) {
          List<String> names = new ArrayList<>();
          all.forEach(x -> names.add(x.name()));
          throw new IllegalStateException("several Lance data-file implementations are on the "
              + "class path (" + String.join(", ", names) + "); pass the one to use to the "
              + "table options");
        }
        found = all.get(0);
      }
      return found;
    }
  }
}
