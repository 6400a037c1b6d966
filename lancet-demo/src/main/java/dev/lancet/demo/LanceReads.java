package dev.lancet.demo;

import dev.lancet.datafile.lance.LanceDatasets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.lance.ipc.ScanOptions;

/**
 * The demo's rows read with lance-core (through {@link LanceDatasets}), the second,
 * independent reader of everything the demo's writers committed.
 */
public final class LanceReads {
  /** One live row as lance-core returns it; a column the table lacks, or a null, is empty. */
  public record Row(long id, Optional<String> value, OptionalInt score) {}

  private LanceReads() {}

  /**
   * Every live row at {@code version} matching {@code filter} (a lance-core SQL predicate, or
   * empty for all), sorted by id; columns {@code value} and {@code score} when the table has them.
   */
  public static List<Row> scan(DemoLocation table, long version, Optional<String> filter) {
    return LanceDatasets.withDataset(table.uri(), table.storageOptions(), Optional.of(version), ds -> {
      List<String> names = ds.getSchema().getFields().stream().map(f -> f.getName()).toList();
      List<String> wanted = new ArrayList<>(List.of(DemoRows.ID));
      for (String c : List.of(DemoRows.VALUE, DemoRows.SCORE)) {
        if (names.contains(c)) {
          wanted.add(c);
        }
      }
      ScanOptions.Builder options = new ScanOptions.Builder().columns(wanted).batchSize(4096);
      filter.ifPresent(options::filter);
      List<Row> out = new ArrayList<>();
      LanceDatasets.scanBatches(ds, options.build(), root -> {
        BigIntVector id = (BigIntVector) root.getVector(DemoRows.ID);
        FieldVector value = root.getVector(DemoRows.VALUE);
        FieldVector score = root.getVector(DemoRows.SCORE);
        for (int i = 0; i < root.getRowCount(); i++) {
          Optional<String> v = value == null || value.isNull(i)
              ? Optional.empty() : Optional.of(new String(((VarCharVector) value).get(i),
                  StandardCharsets.UTF_8));
          OptionalInt s = score == null || score.isNull(i)
              ? OptionalInt.empty() : OptionalInt.of(((IntVector) score).get(i));
          out.add(new Row(id.get(i), v, s));
        }
      });
      out.sort(Comparator.comparingLong(Row::id));
      return out;
    });
  }
}
