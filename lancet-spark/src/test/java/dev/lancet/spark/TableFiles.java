package dev.lancet.spark;

import dev.lancet.core.Table;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** What a table's directory holds against what its versions reference (orphan checks). */
final class TableFiles {
  private TableFiles() {}

  /** Data files under {@code data/}. */
  static Set<String> dataFiles(Path table) {
    Set<String> out = new TreeSet<>();
    Path data = table.resolve("data");
    if (!Files.isDirectory(data)) {
      return out;
    }
    try (Stream<Path> s = Files.list(data)) {
      s.forEach(p -> out.add(p.getFileName().toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Data files some version references. */
  static Set<String> referenced(Path table) {
    Set<String> out = new TreeSet<>();
    try (Table t = Table.open(table.toString())) {
      for (VersionEntry v : t.versions()) {
        for (Fragment f : t.version(v.version()).manifest().fragments()) {
          for (DataFile df : f.files()) {
            out.add(df.path());
          }
        }
      }
    }
    return out;
  }

  /** Files under data/ that no version references. */
  static Set<String> orphans(Path table) {
    Set<String> out = dataFiles(table);
    out.removeAll(referenced(table));
    return out;
  }
}
