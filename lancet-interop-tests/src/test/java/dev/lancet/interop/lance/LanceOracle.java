package dev.lancet.interop.lance;

import dev.lancet.datafile.lance.LanceDatasets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.Tag;
import org.lance.Transaction;
import org.lance.Version;
import org.lance.fragment.DataFile;
import org.lance.fragment.DeletionFile;
import org.lance.fragment.DeletionFileType;
import org.lance.index.Index;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.schema.LanceField;
import org.lance.schema.LanceSchema;

/**
 * Reads a Lance table with the reference implementation ({@code org.lance:lance-core} 7.0.0) and
 * returns what it sees as plain Java records that mention no lance-core type, so that a test can
 * compare them with what Lancet reads from the same directory.
 *
 * <h2>Where each value comes from</h2>
 *
 * <table>
 *   <caption>lance-core source of every snapshot value</caption>
 *   <tr><th>Value</th><th>lance-core call</th></tr>
 *   <tr><td>{@link TableSnapshot#version}</td><td>{@code Dataset.version()}</td></tr>
 *   <tr><td>{@link TableSnapshot#timestamp}</td><td>{@code Dataset.getVersion().getDataTime()}
 *       (manifest timestamp, nanosecond precision, UTC)</td></tr>
 *   <tr><td>{@link TableSnapshot#rowCount}</td><td>{@code Dataset.countRows()} (live rows, i.e.
 *       after deletions)</td></tr>
 *   <tr><td>{@link TableSnapshot#dataStorageVersion}</td><td>{@code
 *       Dataset.getLanceFileFormatVersion()} (the manifest's {@code data_format.version}, e.g.
 *       "2.0", "2.1")</td></tr>
 *   <tr><td>{@link TableSnapshot#stableRowIds}</td><td>{@code Dataset.hasStableRowIds()} (reader
 *       feature flag bit 2)</td></tr>
 *   <tr><td>{@link TableSnapshot#fragments}</td><td>{@code Dataset.getFragments()} then {@code
 *       Fragment.metadata()} ({@code FragmentMetadata}: {@code getId, getPhysicalRows,
 *       getNumDeletions, getNumRows, getFiles, getDeletionFile, getRowIdMeta,
 *       getCreatedAtVersionMeta, getLastUpdatedAtVersionMeta}); {@link FragmentView#liveRows} is
 *       {@code Fragment.countRows()} (a scan-side count)</td></tr>
 *   <tr><td>{@link DataFileView}</td><td>{@code DataFile.getPath, getFields, getColumnIndices,
 *       getFileMajorVersion, getFileMinorVersion, getFileSizeBytes, getBaseId}</td></tr>
 *   <tr><td>{@link DeletionFileView}</td><td>{@code DeletionFile.getId, getReadVersion,
 *       getNumDeletedRows, getFileType, getBaseId}; {@link DeletionFileView#relativePath} is
 *       <em>derived</em> here ({@code _deletions/{fragment}-{read_version}-{id}.{arrow|bin}}, id
 *       as unsigned decimal), it is not exposed by lance-core</td></tr>
 *   <tr><td>{@link TableSnapshot#fields}</td><td>{@code Dataset.getLanceSchema().fields()}
 *       flattened pre-order over {@code LanceField.getChildren()}: {@code getId, getParentId,
 *       getName, getLogicalType, getType (Arrow), isNullable, getMetadata}</td></tr>
 *   <tr><td>{@link TableSnapshot#schemaMetadata}</td><td>{@code
 *       Dataset.getLanceSchema().metadata()}</td></tr>
 *   <tr><td>{@link TableSnapshot#config}</td><td>{@code Dataset.getConfig()}</td></tr>
 *   <tr><td>{@link TableSnapshot#tableMetadata}</td><td>{@code Dataset.getTableMetadata()}</td></tr>
 *   <tr><td>{@link TableSnapshot#indices}</td><td>{@code Dataset.getIndexes()} ({@code
 *       Index.name, uuid, fields, fragments, datasetVersion, indexVersion, createdAt, indexType,
 *       indexDetails, baseId})</td></tr>
 *   <tr><td>{@link TableSnapshot#transaction}</td><td>{@code Dataset.readTransaction()} ({@code
 *       Transaction.readVersion, uuid, operation().name(), tag, transactionProperties})</td></tr>
 *   <tr><td>{@link TableSnapshot#summary}</td><td>{@code Dataset.getVersion().getMetadata()}
 *       (the manifest summary lance-core computes: total_rows, total_fragments, ...)</td></tr>
 *   <tr><td>{@link #versions}</td><td>{@code Dataset.listVersions()} ({@code Version.getId,
 *       getDataTime, getMetadata})</td></tr>
 *   <tr><td>{@link #latestVersion}</td><td>{@code Dataset.latestVersion()}</td></tr>
 *   <tr><td>{@link #tags}</td><td>{@code Dataset.tags().list()} ({@code Tag.getName, getVersion,
 *       getBranch, getManifestSize, getCreatedAt, getUpdatedAt, getMetadata})</td></tr>
 *   <tr><td>{@link #rows}, {@link #rowIdentities}, {@link #columnChecksums}</td><td>{@code
 *       Dataset.newScan(ScanOptions)} → {@code LanceScanner.scanBatches()} (Arrow), with {@code
 *       withRowId/withRowAddress} for {@code _rowid}/{@code _rowaddr}</td></tr>
 * </table>
 *
 * <h2>Not exposed by the lance-core 7.0.0 Java API</h2>
 *
 * A comparison test cannot check these through this oracle (read the manifest bytes instead):
 *
 * <ul>
 *   <li>{@code writer_version} (library/version/prerelease/build), {@code
 *       reader_feature_flags}, {@code writer_feature_flags} (only the stable-row-ids bit, via
 *       {@code hasStableRowIds()}), {@code max_fragment_id}, {@code next_row_id}, {@code
 *       version_aux_data}, {@code tag} (manifest field), {@code base_paths}, {@code branch}.
 *   <li>{@code transaction_file} name and {@code transaction_section}/{@code index_section}
 *       offsets; the manifest's file name (V1 vs V2 naming) and size (the size only through a
 *       tag's {@code manifestSize}).
 *   <li>{@code data_format.file_format} (only its version string).
 *   <li>Per field: the Lance {@code encoding}, {@code dictionary}, {@code extension_name}, the
 *       Field {@code type} enum; unenforced primary/clustering key markers are exposed by {@code
 *       LanceField} but not copied here.
 *   <li>Deletion files: their path (derived here) and content (which offsets are deleted: observe
 *       them through scans instead, see {@link #rowIdentities}).
 *   <li>Row-id and version sequences are exposed only as lance-core's JSON rendering ({@code
 *       RowIdMeta.getMetadata()} = {@code {"Inline":[10,4,...]}}, {@code VersionMeta.getMetadata()}
 *       = {@code {"inline":[...]}}); for inline sequences the array is the protobuf bytes of the
 *       {@code RowIdSequence}/{@code RowDatasetVersionSequence}, see {@link #inlineBytes}.
 *   <li>Index: the raw {@code fragment_bitmap} bytes (exposed decoded, as {@link
 *       IndexView#fragments}), the {@code IndexFile} list and the index's {@code _indices/} files.
 *   <li>The manifest summary ({@link TableSnapshot#summary}, {@link VersionView#metadata}) is
 *       computed by lance-core from the fragments; it is not stored in the manifest.
 *   <li>The tag file ({@code _refs/tags/<name>.json}) fields are all exposed ({@link TagView}),
 *       but not its raw JSON.
 * </ul>
 *
 * <p>Each call opens the table afresh with its own allocator and closes everything before it
 * returns. Deletion file ids are u64 on disk; they are kept as Java {@code long} bit patterns and
 * must be printed with {@link Long#toUnsignedString(long)}.
 */
public final class LanceOracle {

  private LanceOracle() {}

  // ---------------------------------------------------------------------------------------------
  // Records (library independent)
  // ---------------------------------------------------------------------------------------------

  /** One version of a table as lance-core sees it. */
  public record TableSnapshot(
      long version,
      Instant timestamp,
      long rowCount,
      String dataStorageVersion,
      boolean stableRowIds,
      List<FragmentView> fragments,
      List<FieldView> fields,
      Map<String, String> schemaMetadata,
      Map<String, String> config,
      Map<String, String> tableMetadata,
      List<IndexView> indices,
      Optional<TransactionView> transaction,
      SortedMap<String, String> summary) {

    public FragmentView fragment(int id) {
      return fragments.stream()
          .filter(f -> f.id() == id)
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no fragment " + id + " in " + this));
    }

    public FieldView field(String dottedPath) {
      for (FieldView f : fields) {
        if (dottedPath(f).equals(dottedPath)) {
          return f;
        }
      }
      throw new IllegalArgumentException("no field " + dottedPath);
    }

    /** The dotted name of {@code f} ({@code props.a}). */
    public String dottedPath(FieldView f) {
      if (f.parentId() < 0) {
        return f.name();
      }
      for (FieldView p : fields) {
        if (p.id() == f.parentId()) {
          return dottedPath(p) + "." + f.name();
        }
      }
      return "?." + f.name();
    }

    /** Sum of {@link FragmentView#physicalRows}. */
    public long physicalRows() {
      return fragments.stream().mapToLong(FragmentView::physicalRows).sum();
    }
  }

  /**
   * One fragment. {@code numDeletedRows} is {@code FragmentMetadata.getNumDeletions()} (from the
   * deletion file's {@code num_deleted_rows}, 0 without one); {@code numRows} is {@code
   * FragmentMetadata.getNumRows()} (physical minus deleted); {@code liveRows} is {@code
   * Fragment.countRows()}. {@code rowIdMeta}, {@code createdAtVersionMeta}, {@code
   * lastUpdatedAtVersionMeta} are lance-core's JSON renderings, empty when absent.
   */
  public record FragmentView(
      int id,
      long physicalRows,
      long numDeletedRows,
      long numRows,
      long liveRows,
      List<DataFileView> files,
      Optional<DeletionFileView> deletionFile,
      Optional<String> rowIdMeta,
      Optional<String> createdAtVersionMeta,
      Optional<String> lastUpdatedAtVersionMeta) {}

  /**
   * A data file. {@code path} is relative to {@code data/}. {@code fileSizeBytes} is empty when
   * the manifest does not record it.
   */
  public record DataFileView(
      String path,
      List<Integer> fields,
      List<Integer> columnIndices,
      int fileMajorVersion,
      int fileMinorVersion,
      OptionalLong fileSizeBytes,
      Optional<Integer> baseId) {}

  /**
   * A deletion file. {@code type} is "ARROW_ARRAY" or "BITMAP" (the protobuf enum names),
   * {@code extension} "arrow" or "bin". {@code id} is a u64 bit pattern. {@code relativePath} is
   * derived, relative to the table root.
   */
  public record DeletionFileView(
      String type,
      String extension,
      long readVersion,
      long id,
      OptionalLong numDeletedRows,
      Optional<Integer> baseId,
      String relativePath) {}

  /** One schema field, flattened pre-order. {@code arrowType} is {@code ArrowType.toString()}. */
  public record FieldView(
      int id,
      int parentId,
      String name,
      String logicalType,
      String arrowType,
      boolean nullable,
      Map<String, String> metadata) {}

  /**
   * One index segment. {@code fragments} is empty when lance-core reports no fragment bitmap.
   * {@code detailsHex} is the protobuf encoding of the whole {@code index_details} {@code Any}
   * (type URL and value, e.g. {@code 0a1e} + "/lance.table.BTreeIndexDetails") as lower-case
   * hex, empty when absent. {@code createdAt} has millisecond precision.
   */
  public record IndexView(
      String name,
      UUID uuid,
      List<Integer> fields,
      Optional<List<Integer>> fragments,
      long datasetVersion,
      int indexVersion,
      Optional<Instant> createdAt,
      String indexType,
      Optional<String> detailsHex,
      Optional<Integer> baseId) {}

  /** The transaction that produced a version (inline section or {@code _transactions/} file). */
  public record TransactionView(
      long readVersion,
      String uuid,
      String operation,
      Optional<String> tag,
      Map<String, String> properties) {}

  /** One entry of {@code listVersions()}. {@code metadata} is lance-core's manifest summary. */
  public record VersionView(long version, Instant timestamp, SortedMap<String, String> metadata) {}

  /** One tag. */
  public record TagView(
      String name,
      long version,
      Optional<String> branch,
      int manifestSize,
      Optional<Instant> createdAt,
      Optional<Instant> updatedAt,
      Map<String, String> metadata) {}

  /** A scanned row: its {@code id} and the canonical text of every column (see {@link #canonical}). */
  public record Row(long id, List<String> values) {}

  /** The identity of a scanned row: {@code id} column, {@code _rowid}, {@code _rowaddr}. */
  public record RowIdentity(long id, long rowId, long rowAddress) {
    public int fragmentId() {
      return (int) (rowAddress >>> 32);
    }

    public int offset() {
      return (int) rowAddress;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Snapshots
  // ---------------------------------------------------------------------------------------------

  /** The latest version of {@code table}. */
  public static TableSnapshot snapshot(Path table) {
    return withDataset(table, OptionalLong.empty(), LanceOracle::snapshotOf);
  }

  /** Version {@code version} of {@code table} ({@code ReadOptions.setVersion}). */
  public static TableSnapshot snapshot(Path table, long version) {
    return withDataset(table, OptionalLong.of(version), LanceOracle::snapshotOf);
  }

  /** The version tag {@code tag} points at ({@code Dataset.checkoutTag}). */
  public static TableSnapshot snapshotAtTag(Path table, String tag) {
    return withDataset(
        table,
        OptionalLong.empty(),
        ds -> {
          try (Dataset tagged = ds.checkoutTag(tag)) {
            return snapshotOf(tagged);
          }
        });
  }

  /** All versions, oldest first ({@code Dataset.listVersions()}). */
  public static List<VersionView> versions(Path table) {
    return withDataset(
        table,
        OptionalLong.empty(),
        ds -> {
          List<VersionView> out = new ArrayList<>();
          for (Version v : ds.listVersions()) {
            out.add(
                new VersionView(
                    v.getId(), v.getDataTime().toInstant(), new TreeMap<>(v.getMetadata())));
          }
          out.sort(Comparator.comparingLong(VersionView::version));
          return List.copyOf(out);
        });
  }

  /** {@code Dataset.latestVersion()}. */
  public static long latestVersion(Path table) {
    return withDataset(table, OptionalLong.empty(), Dataset::latestVersion);
  }

  /** Tags by name ({@code Dataset.tags().list()}), sorted by name. */
  public static SortedMap<String, TagView> tags(Path table) {
    return withDataset(
        table,
        OptionalLong.empty(),
        ds -> {
          SortedMap<String, TagView> out = new TreeMap<>();
          for (Tag t : ds.tags().list()) {
            out.put(
                t.getName(),
                new TagView(
                    t.getName(),
                    t.getVersion(),
                    t.getBranch(),
                    t.getManifestSize(),
                    t.getCreatedAt(),
                    t.getUpdatedAt(),
                    Map.copyOf(t.getMetadata())));
          }
          return Collections.unmodifiableSortedMap(out);
        });
  }

  /** Tag name → version. */
  public static SortedMap<String, Long> tagVersions(Path table) {
    SortedMap<String, Long> out = new TreeMap<>();
    tags(table).forEach((k, v) -> out.put(k, v.version()));
    return out;
  }

  /** {@code Dataset.countRows()} (no filter) at {@code version}. */
  public static long countRows(Path table, long version) {
    return withDataset(table, OptionalLong.of(version), Dataset::countRows);
  }

  /** {@code Dataset.countRows(filter)} at {@code version}. */
  public static long countRows(Path table, long version, String filter) {
    return withDataset(table, OptionalLong.of(version), ds -> ds.countRows(filter));
  }

  // ---------------------------------------------------------------------------------------------
  // Values
  // ---------------------------------------------------------------------------------------------

  /**
   * Every live row at {@code version}, sorted by the int64 {@code id} column, with the canonical
   * text of every top-level column in schema order (including {@code id} itself).
   */
  public static List<Row> rows(Path table, long version) {
    return withDataset(
        table,
        OptionalLong.of(version),
        ds -> {
          List<Row> out = new ArrayList<>();
          scan(
              ds,
              new ScanOptions.Builder().batchSize(4096).build(),
              root -> {
                BigIntVector id = (BigIntVector) root.getVector("id");
                List<FieldVector> cols = root.getFieldVectors();
                for (int i = 0; i < root.getRowCount(); i++) {
                  List<String> vals = new ArrayList<>(cols.size());
                  for (FieldVector c : cols) {
                    vals.add(canonical(c, i));
                  }
                  out.add(new Row(id.get(i), List.copyOf(vals)));
                }
              });
          out.sort(Comparator.comparingLong(Row::id));
          return List.copyOf(out);
        });
  }

  /**
   * The bytes of an inline row-id / version sequence from lance-core's JSON rendering ({@code
   * {"Inline":[10,4,10,2,16,100]}} or {@code {"inline":[...]}}): the protobuf encoding of the
   * sequence message as stored in the manifest. Empty for any other (e.g. external) form.
   */
  public static Optional<byte[]> inlineBytes(String json) {
    if (json == null) {
      return Optional.empty();
    }
    String t = json.strip();
    String prefixUpper = "{\"Inline\":[";
    String prefixLower = "{\"inline\":[";
    if (!(t.startsWith(prefixUpper) || t.startsWith(prefixLower)) || !t.endsWith("]}")) {
      return Optional.empty();
    }
    String body = t.substring(prefixUpper.length(), t.length() - 2).strip();
    if (body.isEmpty()) {
      return Optional.of(new byte[0]);
    }
    String[] parts = body.split(",");
    byte[] out = new byte[parts.length];
    for (int i = 0; i < parts.length; i++) {
      int v = Integer.parseInt(parts[i].strip());
      if (v < 0 || v > 255) {
        throw new IllegalArgumentException("not a byte: " + v + " in " + json);
      }
      out[i] = (byte) v;
    }
    return Optional.of(out);
  }

  /** The column names {@link #rows} reports values for, in order. */
  public static List<String> columnNames(Path table, long version) {
    return withDataset(
        table,
        OptionalLong.of(version),
        ds -> ds.getSchema().getFields().stream().map(f -> f.getName()).toList());
  }

  /**
   * {@code id}, {@code _rowid} and {@code _rowaddr} of every live row at {@code version}, sorted
   * by id. Without stable row ids {@code rowId == rowAddress}.
   */
  public static List<RowIdentity> rowIdentities(Path table, long version) {
    return withDataset(
        table,
        OptionalLong.of(version),
        ds -> {
          List<RowIdentity> out = new ArrayList<>();
          ScanOptions opts =
              new ScanOptions.Builder()
                  .columns(List.of("id"))
                  .withRowId(true)
                  .withRowAddress(true)
                  .batchSize(4096)
                  .build();
          scan(
              ds,
              opts,
              root -> {
                BigIntVector id = (BigIntVector) root.getVector("id");
                FieldVector rowId = root.getVector("_rowid");
                FieldVector rowAddr = root.getVector("_rowaddr");
                for (int i = 0; i < root.getRowCount(); i++) {
                  out.add(new RowIdentity(id.get(i), asLong(rowId, i), asLong(rowAddr, i)));
                }
              });
          out.sort(Comparator.comparingLong(RowIdentity::id));
          return List.copyOf(out);
        });
  }

  /**
   * A SHA-256 (hex) per top-level column over its canonical values in {@code id} order: the
   * digest of {@code canonical(value) + "\n"} for every row of {@link #rows}. Keyed by column
   * name, in schema order.
   */
  public static Map<String, String> columnChecksums(Path table, long version) {
    List<String> names = columnNames(table, version);
    List<Row> rows = rows(table, version);
    Map<String, String> out = new LinkedHashMap<>();
    for (int c = 0; c < names.size(); c++) {
      MessageDigest md = sha256();
      for (Row r : rows) {
        md.update(r.values().get(c).getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
      }
      out.put(names.get(c), HexFormat.of().formatHex(md.digest()));
    }
    return out;
  }

  /**
   * The canonical text of one Arrow value: {@code "null"} for null, else {@code
   * String.valueOf(vector.getObject(i))} (Arrow Java's own rendering: numbers as Java prints
   * them, strings as-is, structs as {@code {"a":1,"b":"x"}}, lists as {@code [1.0,2.0]}).
   */
  public static String canonical(FieldVector vector, int index) {
    if (vector.isNull(index)) {
      return "null";
    }
    return String.valueOf(vector.getObject(index));
  }

  // ---------------------------------------------------------------------------------------------
  // Internals
  // ---------------------------------------------------------------------------------------------

  private static TableSnapshot snapshotOf(Dataset ds) {
    List<FragmentView> fragments = new ArrayList<>();
    for (Fragment f : ds.getFragments()) {
      fragments.add(fragmentView(f));
    }
    fragments.sort(Comparator.comparingInt(FragmentView::id));

    LanceSchema schema = ds.getLanceSchema();
    List<FieldView> fields = new ArrayList<>();
    for (LanceField f : schema.fields()) {
      flatten(f, fields);
    }

    List<IndexView> indices = new ArrayList<>();
    for (Index i : ds.getIndexes()) {
      indices.add(
          new IndexView(
              i.name(),
              i.uuid(),
              List.copyOf(i.fields()),
              i.fragments().map(l -> l.stream().sorted().toList()),
              i.datasetVersion(),
              i.indexVersion(),
              i.createdAt(),
              String.valueOf(i.indexType()),
              i.indexDetails().map(b -> HexFormat.of().formatHex(b)),
              i.baseId()));
    }
    indices.sort(Comparator.comparing(IndexView::name).thenComparing(v -> v.uuid().toString()));

    Optional<TransactionView> txn;
    Optional<Transaction> t;
    try {
      t = ds.readTransaction();
    } catch (RuntimeException e) {
      // lance-core 7.0.0 cannot decode a Transaction V2 (composite) transaction; the version
      // itself opens and scans fine (decision 0001), so report "no transaction" here.
      t = Optional.empty();
    }
    if (t.isPresent()) {
      try (Transaction tx = t.get()) {
        txn =
            Optional.of(
                new TransactionView(
                    tx.readVersion(),
                    tx.uuid(),
                    tx.operation().name(),
                    tx.tag(),
                    tx.transactionProperties().map(Map::copyOf).orElse(Map.of())));
      }
    } else {
      txn = Optional.empty();
    }

    Version v = ds.getVersion();
    return new TableSnapshot(
        ds.version(),
        v.getDataTime().toInstant(),
        ds.countRows(),
        ds.getLanceFileFormatVersion(),
        ds.hasStableRowIds(),
        List.copyOf(fragments),
        List.copyOf(fields),
        copy(schema.metadata()),
        copy(ds.getConfig()),
        copy(ds.getTableMetadata()),
        List.copyOf(indices),
        txn,
        Collections.unmodifiableSortedMap(new TreeMap<>(v.getMetadata())));
  }

  private static FragmentView fragmentView(Fragment fragment) {
    FragmentMetadata m = fragment.metadata();
    List<DataFileView> files = new ArrayList<>();
    for (DataFile d : m.getFiles()) {
      files.add(
          new DataFileView(
              d.getPath(),
              ints(d.getFields()),
              ints(d.getColumnIndices()),
              d.getFileMajorVersion(),
              d.getFileMinorVersion(),
              d.getFileSizeBytes() == null
                  ? OptionalLong.empty()
                  : OptionalLong.of(d.getFileSizeBytes()),
              d.getBaseId()));
    }
    Optional<DeletionFileView> deletion = Optional.empty();
    DeletionFile del = m.getDeletionFile();
    if (del != null) {
      boolean bitmap = del.getFileType() == DeletionFileType.BITMAP;
      String ext = bitmap ? "bin" : "arrow";
      deletion =
          Optional.of(
              new DeletionFileView(
                  bitmap ? "BITMAP" : "ARROW_ARRAY",
                  ext,
                  del.getReadVersion(),
                  del.getId(),
                  del.getNumDeletedRows() == null
                      ? OptionalLong.empty()
                      : OptionalLong.of(del.getNumDeletedRows()),
                  del.getBaseId(),
                  "_deletions/"
                      + m.getId()
                      + "-"
                      + del.getReadVersion()
                      + "-"
                      + Long.toUnsignedString(del.getId())
                      + "."
                      + ext));
    }
    return new FragmentView(
        m.getId(),
        m.getPhysicalRows(),
        m.getNumDeletions(),
        m.getNumRows(),
        fragment.countRows(),
        List.copyOf(files),
        deletion,
        Optional.ofNullable(m.getRowIdMeta()).map(r -> r.getMetadata()),
        Optional.ofNullable(m.getCreatedAtVersionMeta()).map(r -> r.getMetadata()),
        Optional.ofNullable(m.getLastUpdatedAtVersionMeta()).map(r -> r.getMetadata()));
  }

  private static void flatten(LanceField f, List<FieldView> out) {
    out.add(
        new FieldView(
            f.getId(),
            f.getParentId(),
            f.getName(),
            f.getLogicalType(),
            String.valueOf(f.getType()),
            f.isNullable(),
            copy(f.getMetadata())));
    for (LanceField c : f.getChildren()) {
      flatten(c, out);
    }
  }

  public static <T> T withDataset(Path table, OptionalLong version, Function<Dataset, T> body) {
    return LanceDatasets.withDataset(table,
        version.isPresent() ? Optional.of(version.getAsLong()) : Optional.empty(), body);
  }

  private static void scan(Dataset ds, ScanOptions options, LanceDatasets.BatchConsumer consumer) {
    LanceDatasets.scanBatches(ds, options, consumer);
  }

  private static long asLong(FieldVector v, int i) {
    if (v instanceof UInt8Vector u) {
      return u.get(i);
    }
    if (v instanceof BigIntVector b) {
      return b.get(i);
    }
    throw new IllegalStateException("unexpected row id vector " + v.getField());
  }

  private static List<Integer> ints(int[] a) {
    return a == null ? List.of() : Arrays.stream(a).boxed().toList();
  }

  private static Map<String, String> copy(Map<String, String> m) {
    return m == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
