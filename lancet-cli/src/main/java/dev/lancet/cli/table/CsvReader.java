package dev.lancet.cli.table;

import dev.lancet.cli.CliException;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * CSV with a header row as Arrow batches (commons-csv parses). Converted to a given schema
 * (appending to a table), or with inferred types (creating one): a column is {@code int64} if
 * every value is an integer, {@code double} if every value is a number, {@code bool} if every
 * value is true/false, else {@code string}. An empty cell is null. A value that does not fit its
 * column's type is an error naming the line and column.
 */
final class CsvReader extends ArrowReader {
  static final int DEFAULT_BATCH = 8192;

  private final Path file;
  private final Schema schema;
  private final int batch;
  private CSVParser parser;
  private Iterator<CSVRecord> records;
  private List<Integer> positions;

  CsvReader(Path file, Schema schema, BufferAllocator allocator, int batch) {
    super(allocator);
    this.file = file;
    this.schema = schema;
    this.batch = batch;
  }

  static CSVFormat format() {
    return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(false).get();
  }

  /** Types inferred from every value of the file. */
  static Schema inferSchema(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        CSVParser p = CSVParser.parse(in, format())) {
      List<String> names = p.getHeaderNames();
      if (names.isEmpty()) {
        throw new CliException(file + " has no CSV header row");
      }
      int n = names.size();
      boolean[] ints = new boolean[n];
      boolean[] nums = new boolean[n];
      boolean[] bools = new boolean[n];
      java.util.Arrays.fill(ints, true);
      java.util.Arrays.fill(nums, true);
      java.util.Arrays.fill(bools, true);
      for (CSVRecord r : p) {
        for (int i = 0; i < n && i < r.size(); i++) {
          String v = r.get(i);
          if (v.isEmpty()) {
            continue;
          }
          ints[i] &= isLong(v);
          nums[i] &= isDouble(v);
          bools[i] &= v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false");
        }
      }
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ArrowType t = ints[i] ? new ArrowType.Int(64, true)
            : nums[i] ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)
            : bools[i] ? ArrowType.Bool.INSTANCE : ArrowType.Utf8.INSTANCE;
        fields.add(Field.nullable(names.get(i), t));
      }
      return new Schema(fields);
    } catch (UncheckedIOException | IllegalArgumentException e) {
      throw new CliException(file + " is not valid CSV: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (parser == null) {
      open();
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    int row = 0;
    try {
      while (row < batch && records.hasNext()) {
        CSVRecord r = records.next();
        for (int c = 0; c < positions.size(); c++) {
          int at = positions.get(c);
          String v = at < r.size() ? r.get(at) : "";
          set(root.getVector(c), row, v, r.getRecordNumber() + 1);
        }
        row++;
      }
    } catch (UncheckedIOException | IllegalStateException e) {
      throw new CliException(file + " is not valid CSV: " + e.getMessage(), e);
    }
    for (FieldVector v : root.getFieldVectors()) {
      v.setValueCount(row);
    }
    root.setRowCount(row);
    return row > 0;
  }

  private void open() throws IOException {
    parser = CSVParser.parse(Files.newBufferedReader(file, StandardCharsets.UTF_8), format());
    List<String> header = parser.getHeaderNames();
    positions = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (Field f : schema.getFields()) {
      int at = header.indexOf(f.getName());
      if (at < 0) {
        missing.add(f.getName());
      }
      positions.add(at);
    }
    if (!missing.isEmpty()) {
      throw new CliException(file + " has no column " + String.join(", ", missing)
          + " in its header (it has " + String.join(", ", header) + ")");
    }
    if (header.size() != schema.getFields().size()) {
      List<String> extra = new ArrayList<>(header);
      schema.getFields().forEach(f -> extra.remove(f.getName()));
      throw new CliException(file + " has columns the table does not: " + String.join(", ", extra));
    }
    records = parser.iterator();
  }

  private void set(FieldVector v, int row, String s, long line) {
    if (s.isEmpty()) {
      return; // null
    }
    try {
      if (v instanceof BaseIntVector b) {
        b.setWithPossibleTruncate(row, Long.parseLong(s.trim()));
        if (b.getValueAsLong(row) != Long.parseLong(s.trim())) {
          throw new NumberFormatException("out of range");
        }
      } else if (v instanceof Float8Vector f) {
        f.setSafe(row, Double.parseDouble(s.trim()));
      } else if (v instanceof Float4Vector f) {
        f.setSafe(row, Float.parseFloat(s.trim()));
      } else if (v instanceof BitVector b) {
        if (!s.equalsIgnoreCase("true") && !s.equalsIgnoreCase("false")) {
          throw new NumberFormatException("not true or false");
        }
        b.setSafe(row, Boolean.parseBoolean(s) ? 1 : 0);
      } else if (v instanceof VarCharVector t) {
        t.setSafe(row, s.getBytes(StandardCharsets.UTF_8));
      } else if (v instanceof LargeVarCharVector t) {
        t.setSafe(row, s.getBytes(StandardCharsets.UTF_8));
      } else if (v instanceof DateDayVector d) {
        d.setSafe(row, (int) LocalDate.parse(s.trim()).toEpochDay());
      } else if (v instanceof DecimalVector d) {
        d.setSafe(row, new BigDecimal(s.trim()).setScale(d.getScale()));
      } else if (v instanceof TimeStampVector t) {
        ArrowType.Timestamp ts = (ArrowType.Timestamp) v.getField().getType();
        Instant at;
        try {
          at = Instant.parse(s.trim());
        } catch (DateTimeParseException e) {
          at = LocalDateTime.parse(s.trim()).toInstant(ZoneOffset.UTC);
        }
        long value = switch (ts.getUnit()) {
          case SECOND -> at.getEpochSecond();
          case MILLISECOND -> at.toEpochMilli();
          case MICROSECOND -> Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
          case NANOSECOND -> Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
        };
        t.setSafe(row, value);
      } else {
        throw new CliException("CSV cannot fill column '" + v.getName() + "' of type "
            + v.getField().getType() + "; use Arrow IPC input for it");
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw new CliException(file + " line " + line + ", column '" + v.getName() + "': '" + s
          + "' is not a valid " + v.getField().getType() + " (" + e.getMessage() + ")");
    }
  }

  private static boolean isLong(String v) {
    try {
      Long.parseLong(v.trim());
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static boolean isDouble(String v) {
    try {
      Double.parseDouble(v.trim());
      return !v.trim().isEmpty();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (parser != null) {
      parser.close();
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
