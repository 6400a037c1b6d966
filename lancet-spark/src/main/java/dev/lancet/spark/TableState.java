package dev.lancet.spark;

import dev.lancet.table.LanceTable;
import dev.lancet.table.NotFoundException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What the driver resolved when Spark loaded a table: its URI and options, the version every
 * read and write of the job is planned against (the requested one for time travel, else the
 * newest at load time), and its Arrow schema there. Empty version: the table does not exist yet
 * (a write creates it).
 */
public record TableState(String uri, LancetOptions options, OptionalLong version,
    Optional<String> arrowSchemaJson, boolean timeTravel) implements Serializable {

  /** Opens the table with the options' storage options. */
  public LanceTable open() {
    return LanceTable.open(uri, options.storageOptions());
  }

  /** Resolves the options' version (or the newest) of the table at {@code uri}. */
  public static TableState load(String uri, LancetOptions options) {
    LanceTable table;
    try {
      table = LanceTable.open(uri, options.storageOptions());
    } catch (NotFoundException e) {
      return new TableState(uri, options, OptionalLong.empty(), Optional.empty(), false);
    }
    try (table) {
      dev.lancet.table.Scan scan = table.newScan();
      boolean timeTravel = true;
      if (options.version().isPresent()) {
        scan.asOfVersion(options.version().getAsLong());
      } else if (options.tag().isPresent()) {
        scan.asOfTag(options.tag().get());
      } else if (options.timestamp().isPresent()) {
        scan.asOfTimestamp(options.timestamp().get());
      } else {
        timeTravel = false;
        scan.asOfVersion(table.version());
      }
      return new TableState(uri, options, OptionalLong.of(scan.version()),
          Optional.of(scan.schema().toJson()), timeTravel);
    }
  }

  /** This state with {@code more} options (per-scan or per-write options). */
  public TableState with(Map<String, String> more) {
    return new TableState(uri, options.with(more), version, arrowSchemaJson, timeTravel);
  }

  public boolean exists() {
    return version.isPresent();
  }

  public Schema arrowSchema() {
    try {
      return Schema.fromJSON(arrowSchemaJson.orElseThrow(() -> new IllegalStateException(
          "no Lance table at " + uri)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The table's unenforced primary key columns (lance-core's field metadata marker). */
  public List<String> primaryKey() {
    List<String> explicit = options.primaryKey();
    if (!explicit.isEmpty() || !exists()) {
      return explicit;
    }
    List<String> out = new ArrayList<>();
    for (Field f : arrowSchema().getFields()) {
      String flag = f.getMetadata().get(PRIMARY_KEY_FLAG);
      if (flag != null && (flag.equalsIgnoreCase("true") || flag.equals("1"))) {
        out.add(f.getName());
      }
    }
    return out;
  }

  /** lance-core's field metadata key marking an unenforced primary key column. */
  public static final String PRIMARY_KEY_FLAG = "lance-schema:unenforced-primary-key";
}
