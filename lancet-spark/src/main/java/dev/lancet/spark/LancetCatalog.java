package dev.lancet.spark;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A catalog of Lance tables under one directory: table {@code ns.t} is the Lance table at
 * {@code <root>/ns/t.lance}, a namespace is a directory.
 *
 * <pre>
 * spark.sql.catalog.lancet = dev.lancet.spark.LancetCatalog
 * spark.sql.catalog.lancet.root = /data/lake
 * spark.sql.catalog.lancet.storage.KEY = ...   (lance-core storage options)
 * </pre>
 *
 * SQL: CREATE TABLE (TBLPROPERTIES {@code 'primaryKey' = 'id'} marks lance-core's unenforced
 * primary key, {@code 'storageVersion'}, {@code 'stableRowIds'}), INSERT INTO, SELECT ... VERSION
 * AS OF n | 'tag' and TIMESTAMP AS OF, DELETE FROM, UPDATE, MERGE INTO, DROP TABLE (deletes the
 * table's directory), SHOW TABLES, CREATE/DROP NAMESPACE.
 *
 * <p>The root must be a local path here; object-store roots need listing through the table
 * API's object stores (not done yet).
 */
public final class LancetCatalog implements TableCatalog, SupportsNamespaces {
  private String name;
  private Path root;
  private LancetOptions options;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    String r = options.get("root");
    if (r == null) {
      throw new IllegalArgumentException("catalog " + name + " needs spark.sql.catalog." + name
          + ".root, the directory holding its tables");
    }
    this.root = Paths.get(r.startsWith("file:") ? java.net.URI.create(r).getPath() : r);
    this.options = new LancetOptions(options.asCaseSensitiveMap());
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException("creating the catalog root " + root, e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  private Path dir(String[] namespace) {
    Path p = root;
    for (String n : namespace) {
      p = p.resolve(n);
    }
    return p;
  }

  private String uri(Identifier ident) {
    return dir(ident.namespace()).resolve(ident.name() + ".lance").toString();
  }

  private LancetOptions optionsFor(Identifier ident, Map<String, String> more) {
    Map<String, String> all = new LinkedHashMap<>(more);
    all.put("path", uri(ident));
    return options.with(all);
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    Path d = dir(namespace);
    if (!Files.isDirectory(d)) {
      throw new NoSuchNamespaceException(namespace);
    }
    List<Identifier> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(d)) {
      s.filter(p -> p.getFileName().toString().endsWith(".lance")
              && Files.isDirectory(p.resolve("_versions")))
          .forEach(p -> {
            String f = p.getFileName().toString();
            out.add(Identifier.of(namespace, f.substring(0, f.length() - ".lance".length())));
          });
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + d, e);
    }
    return out.toArray(new Identifier[0]);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    return load(ident, Map.of());
  }

  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    boolean number = version.chars().allMatch(Character::isDigit) && !version.isEmpty();
    return load(ident, Map.of(number ? "version" : "tag", version));
  }

  @Override
  public Table loadTable(Identifier ident, long timestampMicros) throws NoSuchTableException {
    Instant t = Instant.ofEpochSecond(Math.floorDiv(timestampMicros, 1_000_000L),
        Math.floorMod(timestampMicros, 1_000_000L) * 1000L);
    return load(ident, Map.of("timestamp", t.toString()));
  }

  private Table load(Identifier ident, Map<String, String> more) throws NoSuchTableException {
    LancetOptions o = optionsFor(ident, more);
    TableState state = TableState.load(o.path(), o);
    if (!state.exists()) {
      throw new NoSuchTableException(ident);
    }
    return LancetSparkTable.of(name + "." + ident, state);
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (partitions.length > 0) {
      throw new UnsupportedOperationException("Lance tables are not partitioned; drop PARTITIONED BY");
    }
    if (!Files.isDirectory(dir(ident.namespace()))) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    LancetOptions o = optionsFor(ident, properties);
    List<String> key = o.primaryKey();
    org.apache.arrow.vector.types.pojo.Schema arrow = SparkSchemas.toArrow(schema);
    List<Field> fields = new ArrayList<>();
    for (Field f : arrow.getFields()) {
      int pos = key.indexOf(f.getName());
      if (pos >= 0) {
        Map<String, String> md = new LinkedHashMap<>(f.getMetadata() == null ? Map.of() : f.getMetadata());
        md.put(TableState.PRIMARY_KEY_FLAG, "true");
        if (key.size() > 1) {
          md.put(TableState.PRIMARY_KEY_FLAG + ":position", Integer.toString(pos + 1));
        }
        FieldType t = new FieldType(false, f.getType(), f.getDictionary(), md);
        f = new Field(f.getName(), t, f.getChildren());
      }
      fields.add(f);
    }
    for (String k : key) {
      if (fields.stream().noneMatch(f -> f.getName().equals(k))) {
        throw new IllegalArgumentException("primaryKey names column '" + k + "', which the table "
            + "does not have");
      }
    }
    CreateOptions create = o.createOptions();
    try (LanceTable t = LanceTable.create(o.path(), new org.apache.arrow.vector.types.pojo.Schema(fields), create)) {
      // created as version 1
    } catch (dev.lancet.table.AlreadyExistsException e) {
      throw new TableAlreadyExistsException(ident);
    }
    try {
      return loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException("table " + ident + " vanished right after its creation", e);
    }
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("ALTER TABLE is not supported by the Lancet catalog "
        + "yet; use the table API (addColumns, alterColumns, dropColumns)");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    Path p = Paths.get(uri(ident));
    if (!Files.isDirectory(p.resolve("_versions"))) {
      return false;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("deleting table " + ident + " at " + p, e);
    }
    return true;
  }

  @Override
  public void renameTable(Identifier from, Identifier to) throws TableAlreadyExistsException {
    Path a = Paths.get(uri(from));
    Path b = Paths.get(uri(to));
    if (Files.exists(b)) {
      throw new TableAlreadyExistsException(to);
    }
    try {
      Files.move(a, b);
    } catch (IOException e) {
      throw new UncheckedIOException("renaming " + a + " to " + b, e);
    }
  }

  // ---- namespaces: directories ----

  @Override
  public String[][] listNamespaces() {
    return listNamespaces(new String[0]);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) {
    List<String[]> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir(namespace))) {
      s.filter(p -> Files.isDirectory(p) && !p.getFileName().toString().endsWith(".lance"))
          .forEach(p -> {
            String[] n = Arrays.copyOf(namespace, namespace.length + 1);
            n[namespace.length] = p.getFileName().toString();
            out.add(n);
          });
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + dir(namespace), e);
    }
    return out.toArray(new String[0][]);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    if (!Files.isDirectory(dir(namespace))) {
      throw new NoSuchNamespaceException(namespace);
    }
    return Map.of("location", dir(namespace).toString());
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    Path d = dir(namespace);
    if (Files.isDirectory(d)) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    try {
      Files.createDirectories(d);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + d, e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("namespaces are directories and have no properties");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) throws NonEmptyNamespaceException {
    Path d = dir(namespace);
    if (!Files.isDirectory(d)) {
      return false;
    }
    try (Stream<Path> s = Files.list(d)) {
      if (s.findAny().isPresent() && !cascade) {
        throw new NonEmptyNamespaceException(namespace);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + d, e);
    }
    try (Stream<Path> s = Files.walk(d)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("deleting " + d, e);
    }
    return true;
  }
}
