package dev.lancet.cli.table;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancet.cli.CliException;
import dev.lancet.cli.TextTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes a scan: a readable table (the default), CSV with a header (commons-csv), JSON (an array
 * of objects with exact types: integers as JSON integers, floats as numbers, lists as arrays,
 * structs as objects, binary as base64, temporal values as ISO-8601 text; {@link Cells}) or
 * Arrow (an IPC stream).
 */
public final class ScanOutput {
  /** Output formats. */
  public enum Format { TABLE, CSV, JSON, ARROW }

  private static final ObjectMapper JSON = new ObjectMapper();

  private ScanOutput() {}

  public static Format parse(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "table" -> Format.TABLE;
      case "csv" -> Format.CSV;
      case "json" -> Format.JSON;
      case "arrow" -> Format.ARROW;
      default -> throw new CliException("unknown format '" + s + "'; use table, csv, json or arrow");
    };
  }

  /**
   * Writes every batch of {@code reader}; returns the rows written. Temporal values are
   * ISO-8601 text unless {@code rawTemporal} asks for their stored integers.
   */
  public static long write(ArrowReader reader, Format format, PrintWriter out, OutputStream raw,
      java.util.function.LongConsumer progress, boolean rawTemporal) throws IOException {
    long rows = 0;
    switch (format) {
      case ARROW -> {
        out.flush();
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        try (ArrowStreamWriter w = new ArrowStreamWriter(root, reader, Channels.newChannel(raw))) {
          w.start();
          while (reader.loadNextBatch()) {
            w.writeBatch();
            rows += root.getRowCount();
            progress.accept(rows);
          }
          w.end();
        }
        raw.flush();
      }
      case CSV -> {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        List<String> header = root.getSchema().getFields().stream().map(f -> f.getName()).toList();
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder()
            .setHeader(header.toArray(String[]::new)).get());
        while (reader.loadNextBatch()) {
          for (int i = 0; i < root.getRowCount(); i++) {
            List<Object> cells = new ArrayList<>();
            for (FieldVector v : root.getFieldVectors()) {
              Object o = Cells.value(v, i, rawTemporal);
              cells.add(o == null ? "" : o instanceof String s ? s : o instanceof Map<?, ?> || o instanceof List<?>
                  ? JSON.writeValueAsString(o) : o.toString());
            }
            csv.printRecord(cells);
          }
          rows += root.getRowCount();
          progress.accept(rows);
        }
        csv.flush();
      }
      case JSON -> {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        JsonGenerator g = JSON.getFactory().createGenerator(out);
        g.writeStartArray();
        while (reader.loadNextBatch()) {
          for (int i = 0; i < root.getRowCount(); i++) {
            g.writeStartObject();
            for (FieldVector v : root.getFieldVectors()) {
              g.writeFieldName(v.getName());
              JSON.writeValue(g, Cells.value(v, i, rawTemporal));
            }
            g.writeEndObject();
          }
          rows += root.getRowCount();
          progress.accept(rows);
        }
        g.writeEndArray();
        g.writeRaw('\n');
        g.flush();
      }
      default -> {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        List<TextTable.Column> cols = new ArrayList<>();
        root.getSchema().getFields().forEach(f -> cols.add(TextTable.Column.left(f.getName())));
        TextTable table = new TextTable(cols);
        while (reader.loadNextBatch()) {
          for (int i = 0; i < root.getRowCount(); i++) {
            Object[] cells = new Object[root.getFieldVectors().size()];
            int c = 0;
            for (FieldVector v : root.getFieldVectors()) {
              Object o = Cells.value(v, i, rawTemporal);
              cells[c++] = o == null ? "null" : o instanceof Map<?, ?> || o instanceof List<?>
                  ? JSON.writeValueAsString(o) : o.toString();
            }
            table.row(cells);
          }
          rows += root.getRowCount();
          progress.accept(rows);
        }
        table.print(out);
        out.println(rows + " row(s)");
      }
    }
    out.flush();
    return rows;
  }
}
