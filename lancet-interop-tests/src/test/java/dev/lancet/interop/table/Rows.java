package dev.lancet.interop.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.Text;

/**
 * Rows of a scan as plain Java values (strings, numbers, lists, maps of a struct's members,
 * hex for bytes), so scans by Lancet and by lance-core compare with {@code equals}.
 */
public final class Rows {
  private Rows() {}

  /** Every row of {@code reader} (which is closed), each a map of column name to value. */
  public static List<Map<String, Object>> of(ArrowReader reader) {
    try (reader) {
      List<Map<String, Object>> out = new ArrayList<>();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        addAll(root, out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void addAll(VectorSchemaRoot root, List<Map<String, Object>> out) {
    for (int i = 0; i < root.getRowCount(); i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (FieldVector v : root.getFieldVectors()) {
        row.put(v.getName(), normalize(v.getObject(i)));
      }
      out.add(row);
    }
  }

  static Object normalize(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof Text t) {
      return t.toString();
    }
    if (o instanceof byte[] b) {
      return HexFormat.of().formatHex(b);
    }
    if (o instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (o instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(normalize(k), normalize(v)));
      return out;
    }
    return o;
  }
}
