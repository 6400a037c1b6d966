package dev.lancet.interop.lance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.file.LanceFileWriter;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.operation.UpdateConfig;
import org.lance.operation.UpdateMap;
import org.lance.schema.SqlExpressions;

/**
 * Builds real Lance tables with the reference implementation ({@code org.lance:lance-core}, JNI)
 * in a local directory, so Lancet can be checked against tables it did not write itself.
 *
 * <p>Every builder takes a parent directory, creates one table directory inside it (its name is
 * fixed per fixture, so two calls with the same parent collide) and returns that table directory.
 * All data is deterministic: the value of every column is a function of {@code id} (see {@link
 * #name(long)}, {@link #propsA(long)}, {@link #propsB(long)}, {@link #vec(long)}), so a test can
 * recompute any expected value. Commit timestamps, UUIDs and data-file names are of course not
 * deterministic.
 *
 * <p>Two column shapes are used:
 *
 * <ul>
 *   <li>{@link #SIMPLE_SCHEMA}: {@code id int64 not null, name utf8}. Lance field ids 0, 1.
 *   <li>{@link #FULL_SCHEMA}: additionally {@code props struct<a int32, b utf8>} and {@code vec
 *       fixed_size_list<float32, 4>}. Lance field ids (pre-order): id=0, name=1, props=2,
 *       props.a=3, props.b=4, vec=5. Lance has no field for the list item of a fixed-size list of
 *       a primitive ({@code vec} is one leaf with logical type {@code fixed_size_list:float:4}).
 *       In file version 2.1 the struct itself has no column: data files list fields {@code [0, 1,
 *       3, 4, 5]}; in 2.0 they list {@code [0, 1, 2, 3, 4, 5]}. File version 2.0 cannot store a
 *       null struct: a null {@code props} reads back as a non-null struct whose children are
 *       null.
 * </ul>
 *
 * <p>Version numbers each fixture produces are documented per method (and exposed as constants
 * where a test needs them). Lance 7.0.0 uses V2 manifest naming by default (see {@link
 * #manifestNaming(Path, boolean)}).
 */
public final class LanceFixtures {

  /** Rows per fragment in the multi-fragment fixtures ({@code max_rows_per_file}). */
  public static final int ROWS_PER_FRAGMENT = 100;

  /** Lance's threshold: a deletion vector with fewer entries is an Arrow file, else Roaring. */
  public static final int BITMAP_DELETION_THRESHOLD = 5_000;

  /** Table metadata key/value written by {@link #configAndMetadata(Path)}. */
  public static final String TABLE_METADATA_KEY = "lancet.owner";

  public static final String TABLE_METADATA_VALUE = "interop-tests";

  /** Schema metadata key/value written by {@link #configAndMetadata(Path)}. */
  public static final String SCHEMA_METADATA_KEY = "lancet.schema.note";

  public static final String SCHEMA_METADATA_VALUE = "hello";

  /** Config keys written by {@link #configAndMetadata(Path)}. */
  public static final String CONFIG_KEPT = "lancet.test.kept";

  public static final String CONFIG_DELETED = "lancet.test.deleted";

  /** Name of the BTree index built by {@link #scalarIndex(Path)}. */
  public static final String INDEX_NAME = "id_idx";

  /** Tags created by {@link #tags(Path)}: {@code first -> 1}, {@code second -> 2}, {@code head -> 3}. */
  public static final Map<String, Long> TAGS = Map.of("first", 1L, "second", 2L, "head", 3L);

  public static final Schema SIMPLE_SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  public static final Schema FULL_SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              new Field(
                  "props",
                  FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(
                      Field.nullable("a", new ArrowType.Int(32, true)),
                      Field.nullable("b", ArrowType.Utf8.INSTANCE))),
              new Field(
                  "vec",
                  FieldType.nullable(new ArrowType.FixedSizeList(4)),
                  List.of(
                      Field.nullable(
                          "item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));

  private LanceFixtures() {}

  // ---------------------------------------------------------------------------------------------
  // Deterministic values
  // ---------------------------------------------------------------------------------------------

  /** {@code name} of row {@code id}: {@code "name-<id>"}, null when {@code id % 7 == 3}. */
  public static String name(long id) {
    return id % 7 == 3 ? null : "name-" + id;
  }

  /** {@code props} is null when {@code id % 11 == 5}; else {@code a = id * 3}, {@code b}. */
  public static boolean propsNull(long id) {
    return id % 11 == 5;
  }

  public static int propsA(long id) {
    return (int) (id * 3);
  }

  /** {@code props.b}: {@code "b<id>"}, null when {@code id % 5 == 1}. */
  public static String propsB(long id) {
    return id % 5 == 1 ? null : "b" + id;
  }

  /** {@code vec}: null when {@code id % 13 == 7}, else {@code [id, id + 0.5, -id, id / 4]}. */
  public static float[] vec(long id) {
    if (id % 13 == 7) {
      return null;
    }
    return new float[] {id, id + 0.5f, -id, id / 4f};
  }

  // ---------------------------------------------------------------------------------------------
  // Fixtures
  // ---------------------------------------------------------------------------------------------

  /**
   * A table in data storage version {@code version} ("2.0" or "2.1") with {@link #FULL_SCHEMA}.
   *
   * <ul>
   *   <li>v1: create, ids 0..399, 4 fragments (ids 0..3) of 100 rows.
   *   <li>v2: append ids 400..499, fragment 4.
   * </ul>
   *
   * Directory: {@code storage-<version>}.
   */
  public static Path dataStorageVersion(Path parent, String version) {
    Path dir = parent.resolve("storage-" + version);
    try (BufferAllocator alloc = new RootAllocator()) {
      WriteParams create =
          params().withDataStorageVersion(version).withMaxRowsPerFile(ROWS_PER_FRAGMENT).build();
      write(alloc, dir, FULL_SCHEMA, 0, 400, create).close();
      WriteParams append =
          params()
              .withMode(WriteParams.WriteMode.APPEND)
              .withDataStorageVersion(version)
              .withMaxRowsPerFile(ROWS_PER_FRAGMENT)
              .build();
      write(alloc, dir, FULL_SCHEMA, 400, 100, append).close();
    }
    return dir;
  }

  /**
   * A {@link #SIMPLE_SCHEMA} table with the stable-row-ids feature {@code on} or off.
   *
   * <ul>
   *   <li>v1: create, ids 0..299, fragments 0..2.
   *   <li>v2: append ids 300..399, fragment 3.
   *   <li>v3: delete {@code id % 10 = 0} (40 rows, an Arrow deletion file in every fragment).
   * </ul>
   *
   * With stable row ids, row id == id here (ids were assigned in insertion order from 0); without,
   * the row id is the row address {@code fragment_id << 32 | offset}. Directory: {@code
   * stable-row-ids-on|off}.
   */
  public static Path stableRowIds(Path parent, boolean on) {
    Path dir = parent.resolve("stable-row-ids-" + (on ? "on" : "off"));
    try (BufferAllocator alloc = new RootAllocator()) {
      write(alloc, dir, SIMPLE_SCHEMA, 0, 300,
              params().withEnableStableRowIds(on).withMaxRowsPerFile(ROWS_PER_FRAGMENT).build())
          .close();
      try (Dataset ds =
          write(alloc, dir, SIMPLE_SCHEMA, 300, 100,
              params()
                  .withMode(WriteParams.WriteMode.APPEND)
                  .withEnableStableRowIds(on)
                  .withMaxRowsPerFile(ROWS_PER_FRAGMENT)
                  .build())) {
        ds.delete("id % 10 = 0");
      }
    }
    return dir;
  }

  /** Number of rows left by {@link #deletions(Path)} at its latest version. */
  public static final long DELETIONS_LIVE_ROWS = 90 + 1_000;

  /** Rows deleted from fragment 1 by {@link #deletions(Path)} (a Roaring {@code .bin} file). */
  public static final long DELETIONS_BITMAP_ROWS = 7_000;

  /** Rows deleted from fragment 0 by {@link #deletions(Path)} (an Arrow {@code .arrow} file). */
  public static final long DELETIONS_ARROW_ROWS = 10;

  /**
   * A {@link #SIMPLE_SCHEMA} table with both deletion-file forms.
   *
   * <ul>
   *   <li>v1: create, ids 0..99, fragment 0.
   *   <li>v2: append ids 100..8099, fragment 1 (8,000 rows in one file).
   *   <li>v3: append ids 8100..8149, fragment 2.
   *   <li>v4: delete {@code id < 100 AND id % 10 = 0}: 10 rows of fragment 0, an {@code .arrow}
   *       deletion file.
   *   <li>v5: delete {@code id >= 100 AND id < 8100 AND id % 8 != 0}: 7,000 rows of fragment 1, a
   *       Roaring {@code .bin} deletion file.
   *   <li>v6: delete {@code id >= 8100}: every row of fragment 2, which removes the fragment.
   * </ul>
   *
   * Latest: fragments 0 and 1, {@value #DELETIONS_LIVE_ROWS} live rows. Directory: {@code
   * deletions}.
   */
  public static Path deletions(Path parent) {
    Path dir = parent.resolve("deletions");
    try (BufferAllocator alloc = new RootAllocator()) {
      write(alloc, dir, SIMPLE_SCHEMA, 0, 100, params().build()).close();
      WriteParams appendBig =
          params().withMode(WriteParams.WriteMode.APPEND).withMaxRowsPerFile(10_000).build();
      write(alloc, dir, SIMPLE_SCHEMA, 100, 8_000, appendBig).close();
      try (Dataset ds = write(alloc, dir, SIMPLE_SCHEMA, 8_100, 50, appendBig)) {
        ds.delete("id < 100 AND id % 10 = 0");
        ds.delete("id >= 100 AND id < 8100 AND id % 8 != 0");
        ds.delete("id >= 8100");
      }
    }
    return dir;
  }

  /**
   * Schema evolution on a {@link #SIMPLE_SCHEMA} table.
   *
   * <ul>
   *   <li>v1: create, ids 0..299, fragments 0..2.
   *   <li>v2: {@code addColumns} by SQL expression: {@code double_id = id * 2} (int64, new data
   *       files in every fragment).
   *   <li>v3: {@code addColumns(List<Field>)}: an all-null {@code note utf8} column.
   *   <li>v4: {@code dropColumns([name])}.
   * </ul>
   *
   * Directory: {@code schema-evolution}.
   */
  public static Path schemaEvolution(Path parent) {
    Path dir = parent.resolve("schema-evolution");
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds =
            write(alloc, dir, SIMPLE_SCHEMA, 0, 300,
                params().withMaxRowsPerFile(ROWS_PER_FRAGMENT).build())) {
      ds.addColumns(
          new SqlExpressions.Builder().withExpression("double_id", "id * 2").build(),
          Optional.empty());
      ds.addColumns(List.of(Field.nullable("note", ArrowType.Utf8.INSTANCE)));
      ds.dropColumns(List.of("name"));
    }
    return dir;
  }

  /**
   * Config, table metadata and schema metadata on a {@link #SIMPLE_SCHEMA} table.
   *
   * <ul>
   *   <li>v1: create, ids 0..99.
   *   <li>v2: {@code updateConfig({CONFIG_KEPT: "1", CONFIG_DELETED: "2"})}.
   *   <li>v3: {@code deleteConfigKeys({CONFIG_DELETED})}.
   *   <li>v4: an {@code UpdateConfig} transaction setting table metadata {@code
   *       TABLE_METADATA_KEY=TABLE_METADATA_VALUE} and schema metadata {@code
   *       SCHEMA_METADATA_KEY=SCHEMA_METADATA_VALUE}.
   * </ul>
   *
   * Directory: {@code config}.
   */
  @SuppressWarnings("deprecation")
  public static Path configAndMetadata(Path parent) {
    Path dir = parent.resolve("config");
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = write(alloc, dir, SIMPLE_SCHEMA, 0, 100, params().build())) {
      // updateConfig/deleteConfigKeys are deprecated in 7.0.0 but still commit UpdateConfig.
      Map<String, String> config = new LinkedHashMap<>();
      config.put(CONFIG_KEPT, "1");
      config.put(CONFIG_DELETED, "2");
      ds.updateConfig(config);
      ds.deleteConfigKeys(Set.of(CONFIG_DELETED));
      UpdateConfig op =
          UpdateConfig.builder()
              .tableMetadataUpdates(
                  UpdateMap.builder()
                      .updates(Map.of(TABLE_METADATA_KEY, TABLE_METADATA_VALUE))
                      .replace(false)
                      .build())
              .schemaMetadataUpdates(
                  UpdateMap.builder()
                      .updates(Map.of(SCHEMA_METADATA_KEY, SCHEMA_METADATA_VALUE))
                      .replace(false)
                      .build())
              .build();
      try (var txn = ds.newTransactionBuilder().operation(op).build()) {
        txn.commit().close();
      }
    }
    return dir;
  }

  /**
   * A BTree scalar index on {@code id} of a {@link #SIMPLE_SCHEMA} table.
   *
   * <ul>
   *   <li>v1: create, ids 0..299, fragments 0..2.
   *   <li>v2: {@code createIndex([id], BTREE, "id_idx")}: covers fragments 0..2.
   *   <li>v3: append ids 300..399, fragment 3 (not covered by the index).
   * </ul>
   *
   * Directory: {@code scalar-index}.
   */
  public static Path scalarIndex(Path parent) {
    Path dir = parent.resolve("scalar-index");
    try (BufferAllocator alloc = new RootAllocator()) {
      try (Dataset ds =
          write(alloc, dir, SIMPLE_SCHEMA, 0, 300,
              params().withMaxRowsPerFile(ROWS_PER_FRAGMENT).build())) {
        IndexParams ip =
            IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree")).build();
        ds.createIndex(
            IndexOptions.builder(List.of("id"), IndexType.BTREE, ip)
                .withIndexName(INDEX_NAME)
                .replace(true)
                .build());
      }
      write(alloc, dir, SIMPLE_SCHEMA, 300, 100,
              params()
                  .withMode(WriteParams.WriteMode.APPEND)
                  .withMaxRowsPerFile(ROWS_PER_FRAGMENT)
                  .build())
          .close();
    }
    return dir;
  }

  /**
   * Tags on a {@link #SIMPLE_SCHEMA} table: v1 create (ids 0..99), v2 append (100..199), v3 append
   * (200..299), then tags {@link #TAGS}. Directory: {@code tags}.
   */
  public static Path tags(Path parent) {
    Path dir = parent.resolve("tags");
    try (BufferAllocator alloc = new RootAllocator()) {
      write(alloc, dir, SIMPLE_SCHEMA, 0, 100, params().build()).close();
      WriteParams append = params().withMode(WriteParams.WriteMode.APPEND).build();
      write(alloc, dir, SIMPLE_SCHEMA, 100, 100, append).close();
      try (Dataset ds = write(alloc, dir, SIMPLE_SCHEMA, 200, 100, append)) {
        for (var e : new TreeMap<>(TAGS).entrySet()) {
          ds.tags().create(e.getKey(), e.getValue());
        }
      }
    }
    return dir;
  }

  /**
   * Manifest naming: {@code v2 = true} writes {@code _versions/{u64::MAX - v:020}.manifest}, {@code
   * false} the V1 scheme {@code _versions/{v}.manifest}. v1 create (ids 0..99), v2 and v3 append
   * 100 rows each. Directory: {@code manifest-v2|manifest-v1}.
   */
  public static Path manifestNaming(Path parent, boolean v2) {
    Path dir = parent.resolve(v2 ? "manifest-v2" : "manifest-v1");
    try (BufferAllocator alloc = new RootAllocator()) {
      write(alloc, dir, SIMPLE_SCHEMA, 0, 100, params().withEnableV2ManifestPaths(v2).build())
          .close();
      WriteParams append =
          params().withMode(WriteParams.WriteMode.APPEND).withEnableV2ManifestPaths(v2).build();
      write(alloc, dir, SIMPLE_SCHEMA, 100, 100, append).close();
      write(alloc, dir, SIMPLE_SCHEMA, 200, 100, append).close();
    }
    return dir;
  }

  /** All fixtures, built under {@code parent}, keyed by a short name. */
  public static Map<String, Path> buildAll(Path parent) {
    Map<String, Path> all = new LinkedHashMap<>();
    all.put("storage-2.0", dataStorageVersion(parent, "2.0"));
    all.put("storage-2.1", dataStorageVersion(parent, "2.1"));
    all.put("stable-row-ids-on", stableRowIds(parent, true));
    all.put("stable-row-ids-off", stableRowIds(parent, false));
    all.put("deletions", deletions(parent));
    all.put("schema-evolution", schemaEvolution(parent));
    all.put("config", configAndMetadata(parent));
    all.put("scalar-index", scalarIndex(parent));
    all.put("tags", tags(parent));
    all.put("manifest-v1", manifestNaming(parent, false));
    all.put("manifest-v2", manifestNaming(parent, true));
    return all;
  }

  // ---------------------------------------------------------------------------------------------
  // Standalone data files
  // ---------------------------------------------------------------------------------------------

  /**
   * Writes {@code root} as one standalone Lance data file at {@code file} with {@link
   * LanceFileWriter} (lance-core's default file version, 2.1 in 7.0.0) and returns its size in
   * bytes. The parent directory is created if needed. The file's columns are the root's fields in
   * order, so when the file is attached to a fragment its column indices are 0..n-1 (for 2.1:
   * leaves only; a struct has no column of its own).
   */
  public static long writeDataFile(Path file, VectorSchemaRoot root) {
    return writeDataFile(file, root, null);
  }

  /**
   * As {@link #writeDataFile(Path, VectorSchemaRoot)} with an explicit Lance file version
   * ({@code "2.0"}, {@code "2.1"}, ...); {@code null} means lance-core's default.
   */
  public static long writeDataFile(Path file, VectorSchemaRoot root, String fileVersion) {
    return dev.lancet.datafile.lance.LanceDataFiles.writeFile(file, root, fileVersion);
  }


  // ---------------------------------------------------------------------------------------------
  // Arrow data
  // ---------------------------------------------------------------------------------------------

  /**
   * Fills a new root of {@code schema} (which must be a prefix-compatible subset of {@link
   * #FULL_SCHEMA}: every column by name among id, name, props, vec) with rows {@code start ..
   * start + count - 1}. The caller closes the root.
   */
  public static VectorSchemaRoot rows(BufferAllocator alloc, Schema schema, long start, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc);
    try {
      root.allocateNew();
      for (Field f : schema.getFields()) {
        switch (f.getName()) {
          case "id" -> {
            BigIntVector v = (BigIntVector) root.getVector("id");
            for (int i = 0; i < count; i++) {
              v.setSafe(i, start + i);
            }
          }
          case "name" -> {
            VarCharVector v = (VarCharVector) root.getVector("name");
            for (int i = 0; i < count; i++) {
              String s = name(start + i);
              if (s == null) {
                v.setNull(i);
              } else {
                v.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
              }
            }
          }
          case "props" -> {
            StructVector v = (StructVector) root.getVector("props");
            IntVector a = v.getChild("a", IntVector.class);
            VarCharVector b = v.getChild("b", VarCharVector.class);
            for (int i = 0; i < count; i++) {
              long id = start + i;
              if (propsNull(id)) {
                v.setNull(i);
                a.setNull(i);
                b.setNull(i);
              } else {
                v.setIndexDefined(i);
                a.setSafe(i, propsA(id));
                String s = propsB(id);
                if (s == null) {
                  b.setNull(i);
                } else {
                  b.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
                }
              }
            }
            a.setValueCount(count);
            b.setValueCount(count);
          }
          case "vec" -> {
            FixedSizeListVector v = (FixedSizeListVector) root.getVector("vec");
            Float4Vector items = (Float4Vector) v.getDataVector();
            for (int i = 0; i < count; i++) {
              float[] x = vec(start + i);
              if (x == null) {
                v.setNull(i);
                for (int j = 0; j < 4; j++) {
                  items.setNull(i * 4 + j);
                }
              } else {
                v.setNotNull(i);
                for (int j = 0; j < 4; j++) {
                  items.setSafe(i * 4 + j, x[j]);
                }
              }
            }
            items.setValueCount(count * 4);
          }
          default -> throw new IllegalArgumentException("unknown fixture column " + f.getName());
        }
      }
      root.setRowCount(count);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /**
   * Appends rows {@code start .. start+count-1} of {@code schema} to the table at {@code dir}
   * through lance-core, as a foreign writer would, and returns the new version.
   */
  public static long append(Path dir, Schema schema, long start, int count) {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = write(alloc, dir, schema, start, count,
            params().withMode(WriteParams.WriteMode.APPEND).build())) {
      return ds.version();
    }
  }

  private static WriteParams.Builder params() {
    return new WriteParams.Builder();
  }

  /**
   * Writes rows {@code start .. start+count-1} of {@code schema} with {@code params} (create,
   * append or overwrite per {@code params}' mode). Uses the deprecated {@code Dataset.create}
   * because {@code Dataset.write()} (the builder) cannot set {@code enable_v2_manifest_paths}.
   */
  @SuppressWarnings("deprecation")
  private static Dataset write(
      BufferAllocator alloc, Path dir, Schema schema, long start, int count, WriteParams params) {
    byte[] ipc;
    try (VectorSchemaRoot root = rows(alloc, schema, start, count)) {
      ipc = toIpcStream(root);
    }
    try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
      Data.exportArrayStream(alloc, reader, stream);
      return Dataset.create(alloc, stream, dir.toAbsolutePath().toString(), params);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] toIpcStream(VectorSchemaRoot root) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
      w.start();
      w.writeBatch();
      w.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bos.toByteArray();
  }

  /** Lists the file names directly in {@code dir} (sorted), empty when it does not exist. */
  public static List<String> listNames(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var s = Files.list(dir)) {
      List<String> names = new ArrayList<>();
      s.forEach(p -> names.add(p.getFileName().toString()));
      names.sort(null);
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
