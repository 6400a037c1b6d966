package dev.lancet.spark.read;

import dev.lancet.table.ScanTask;
import java.util.Map;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One fragment (or a split of one) to read on an executor: the table, its storage options, the
 * scan task's description, the pushed filter ("" for none) and the Spark schema of the output.
 */
public record LancetInputPartition(String uri, Map<String, String> storageOptions,
    ScanTask.Descriptor task, String filter, String sparkSchemaJson) implements InputPartition {
  public LancetInputPartition {
    storageOptions = Map.copyOf(storageOptions);
  }
}
