package dev.lancet.cli;

import static dev.lancet.cli.TextTable.Column.left;
import static dev.lancet.cli.TextTable.Column.right;

import dev.lancet.core.version.Snapshot;
import dev.lancet.format.FormatException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The readable summary of one version that {@code lancet inspect} prints. */
final class ManifestReport {
  /** Rows of the fragment and data-file tables shown without {@code --all}. */
  static final int DEFAULT_ROW_LIMIT = 50;

  private final String location;
  private final Snapshot snapshot;
  private final boolean all;
  private final boolean files;

  /**
   * @param all show every fragment (and data file), not only the first {@value #DEFAULT_ROW_LIMIT}
   * @param files add a table of every data file
   */
  ManifestReport(String location, Snapshot snapshot, boolean all, boolean files) {
    this.location = location;
    this.snapshot = snapshot;
    this.all = all;
    this.files = files;
  }

  void print(PrintWriter out) {
    Manifest m = snapshot.manifest();
    header(out, m);
    schema(out, m.schema());
    fragments(out, m);
    if (files) {
      dataFiles(out, m);
    }
    indices(out, m.schema(), snapshot.indices());
    keyValues(out, "CONFIG", m.config());
    keyValues(out, "TABLE METADATA", m.tableMetadata());
    basePaths(out, m.basePaths());
  }

  /** Only the version line and the INDICES table. */
  void printIndices(PrintWriter out) {
    out.println("table " + TextTable.clean(location) + ", version "
        + Formats.unsigned(snapshot.version()));
    indices(out, snapshot.manifest().schema(), snapshot.indices());
  }

  private void header(PrintWriter out, Manifest m) {
    long physical = 0;
    long deleted = 0;
    for (Fragment f : m.fragments()) {
      physical += f.physicalRows();
      deleted += f.numDeletedRows();
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(kv("table", location));
    rows.add(kv("version", Formats.unsigned(m.version())));
    rows.add(kv("manifest", snapshot.entry().path() + " (" + snapshot.entry().sizeBytes() + " bytes)"));
    rows.add(kv("timestamp", Formats.instant(m.timestamp())));
    rows.add(kv("writer version", m.writerVersion().map(Object::toString).orElse(Formats.NONE)));
    rows.add(kv("data storage format", m.dataFormat()
        .map(d -> d.fileFormat() + " " + d.version()).orElse(Formats.NONE)));
    rows.add(kv("reader feature flags", flags(m.readerFeatureFlags())));
    rows.add(kv("writer feature flags", flags(m.writerFeatureFlags())));
    if (!m.tag().isEmpty()) {
      rows.add(kv("tag", m.tag()));
    }
    m.branch().ifPresent(b -> rows.add(kv("branch", b)));
    rows.add(kv("fragments", Integer.toString(m.fragments().size())));
    rows.add(kv("live rows", Long.toString(physical - deleted)));
    rows.add(kv("physical rows", Long.toString(physical)));
    rows.add(kv("deleted rows", Long.toString(deleted)));
    rows.add(kv("max fragment id", m.maxFragmentId().isPresent()
        ? Formats.unsigned(m.maxFragmentId().getAsLong()) : Formats.NONE));
    rows.add(kv("next row id", Formats.unsigned(m.nextRowId())));
    rows.add(kv("config entries", Integer.toString(m.config().size())));
    List<String> txn = new ArrayList<>();
    if (m.transactionSection().isPresent()) {
      txn.add("inline in the manifest");
    }
    if (!m.transactionFile().isEmpty()) {
      txn.add("_transactions/" + m.transactionFile());
    }
    rows.add(kv("transaction", txn.isEmpty() ? "none recorded" : String.join(", ", txn)));
    int width = 0;
    for (String[] r : rows) {
      width = Math.max(width, r[0].length());
    }
    for (String[] r : rows) {
      out.println(r[0] + ":" + " ".repeat(width - r[0].length() + 2) + TextTable.clean(r[1]));
    }
  }

  private static String[] kv(String key, String value) {
    return new String[] {key, value};
  }

  private static String flags(long flags) {
    List<String> names = FeatureFlags.names(flags);
    return names.isEmpty() ? "none" : String.join(", ", names);
  }

  private static void section(PrintWriter out, String title) {
    out.println();
    out.println(title);
  }

  private static void schema(PrintWriter out, Schema schema) {
    section(out, "SCHEMA (" + Formats.count(schema.fields().size(), "field") + ")");
    if (schema.fields().isEmpty()) {
      out.println("(no fields)");
      return;
    }
    TextTable t = TextTable.of(right("ID"), right("PARENT"), left("PATH"), left("TYPE"),
        left("NULLABLE"), left("PK"));
    for (Field f : schema.fields()) {
      String pk = !f.unenforcedPrimaryKey() ? ""
          : f.unenforcedPrimaryKeyPosition() > 0 ? "yes (" + f.unenforcedPrimaryKeyPosition() + ")" : "yes";
      t.row(f.id(), f.isTopLevel() ? Formats.NONE : Integer.toString(f.parentId()),
          schema.path(f), f.logicalType(), Formats.yesNo(f.nullable()), pk);
    }
    t.print(out);
  }

  private void fragments(PrintWriter out, Manifest m) {
    List<Fragment> fragments = m.fragments();
    section(out, "FRAGMENTS (" + fragments.size() + ")");
    if (fragments.isEmpty()) {
      out.println("(no fragments)");
      return;
    }
    boolean overlays = fragments.stream().anyMatch(f -> !f.overlays().isEmpty());
    List<TextTable.Column> columns = new ArrayList<>(List.of(right("ID"), right("PHYSICAL ROWS"),
        right("DELETED"), right("LIVE"), right("FILES"), left("DELETION FILE"), left("ROW IDS")));
    if (overlays) {
      columns.add(right("OVERLAYS"));
    }
    TextTable t = new TextTable(columns);
    int shown = all ? fragments.size() : Math.min(DEFAULT_ROW_LIMIT, fragments.size());
    for (Fragment f : fragments.subList(0, shown)) {
      List<Object> row = new ArrayList<>(List.of(Formats.unsigned(f.id()), f.physicalRows(),
          f.numDeletedRows(), f.liveRows(), f.files().size(),
          Formats.deletionFile(f.id(), f.deletionFile()), Formats.yesNo(f.rowIds().isPresent())));
      if (overlays) {
        row.add(f.overlays().size());
      }
      t.row(row.toArray());
    }
    t.print(out);
    more(out, fragments.size() - shown);
  }

  private void dataFiles(PrintWriter out, Manifest m) {
    List<Object[]> rows = new ArrayList<>();
    for (Fragment f : m.fragments()) {
      for (DataFile d : f.files()) {
        rows.add(new Object[] {Formats.unsigned(f.id()), d.path(),
            Formats.list(d.fields(), id -> id == DataFile.TOMBSTONED ? "x" : Integer.toString(id)),
            Formats.list(d.columnIndices(), String::valueOf),
            d.fileMajorVersion() + "." + d.fileMinorVersion(),
            d.fileSizeBytes() == 0 ? "unknown" : Formats.unsigned(d.fileSizeBytes()),
            d.baseId().isPresent() ? Integer.toString(d.baseId().getAsInt()) : Formats.NONE});
      }
    }
    section(out, "DATA FILES (" + rows.size() + ")");
    if (rows.isEmpty()) {
      out.println("(no data files)");
      return;
    }
    TextTable t = TextTable.of(right("FRAGMENT"), left("PATH").maxWidth(80), left("FIELDS"),
        left("COLUMNS"), left("VERSION"), right("SIZE"), left("BASE"));
    int shown = all ? rows.size() : Math.min(DEFAULT_ROW_LIMIT, rows.size());
    for (Object[] r : rows.subList(0, shown)) {
      t.row(r);
    }
    t.print(out);
    more(out, rows.size() - shown);
  }

  private static void more(PrintWriter out, int hidden) {
    if (hidden > 0) {
      out.println("... " + hidden + " more (use --all)");
    }
  }

  private static void indices(PrintWriter out, Schema schema, List<IndexSegment> indices) {
    section(out, "INDICES (" + Formats.count(indices.size(), "segment") + ")");
    if (indices.isEmpty()) {
      out.println("(no indices)");
      return;
    }
    TextTable t = TextTable.of(left("NAME"), left("UUID"), left("FIELDS"), right("DATASET VERSION"),
        right("FRAGMENTS"), left("TYPE"));
    for (IndexSegment s : indices) {
      String covered;
      try {
        covered = s.coveredFragments().map(b -> Integer.toString(b.getCardinality())).orElse("unknown");
      } catch (FormatException e) {
        covered = "corrupt";
      }
      t.row(s.name(), s.uuid(), Formats.fieldNames(schema, s.fields()),
          Formats.unsigned(s.datasetVersion()), covered, Formats.orNone(s.detailsTypeUrl()));
    }
    t.print(out);
  }

  private static void keyValues(PrintWriter out, String title, Map<String, String> map) {
    section(out, title + " (" + Formats.count(map.size(), "entry", "entries") + ")");
    if (map.isEmpty()) {
      out.println("(none)");
      return;
    }
    TextTable t = TextTable.of(left("KEY"), left("VALUE").maxWidth(100));
    new TreeMap<>(map).forEach(t::row);
    t.print(out);
  }

  private static void basePaths(PrintWriter out, List<BasePath> bases) {
    section(out, "BASE PATHS (" + bases.size() + ")");
    if (bases.isEmpty()) {
      out.println("(none)");
      return;
    }
    TextTable t = TextTable.of(right("ID"), left("NAME"), left("DATASET ROOT"), left("PATH").maxWidth(100));
    for (BasePath b : bases) {
      t.row(b.id(), b.name().orElse(Formats.NONE), Formats.yesNo(b.isDatasetRoot()), b.path());
    }
    t.print(out);
  }
}
