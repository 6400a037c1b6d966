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
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * CSV with a header row as Arrow batches (commons-csv parses). Converted to a given schema (the
 * table's when appending, or {@code --schema}), or with inferred types: a column is
 * {@code int64} if every value is an integer that fits 64 bits, {@code decimal(38, 0)} if every
 * value is an integer and some do not (so distinct ids never become one double), {@code double}
 * if every value is a number, {@code bool} if every value is true/false, else {@code string}.
 * An empty cell is null. Lists and vectors are JSON arrays ({@code "[0.5, 1, 2]"}); timestamps
 * ISO-8601 ({@code 2024-05-01T12:00:00Z}, or local, read as UTC); dates {@code 2024-05-01}.
 *
 * <p>Strict: a file that is not UTF-8, a row with more or fewer fields than the header, and a
 * value that does not fit its column's type are errors naming the file, the line and the
 * column. A UTF-8 byte-order mark before the header is dropped.
 */
final class CsvReader extends ArrowReader {
  static final int DEFAULT_BATCH = 8192;

  private final Path file;
  private final Schema schema;
  private final int batch;
  private CSVParser parser;
  private Iterator<CSVRecord> records;
  private List<Integer> positions;
  private int width;

  CsvReader(Path file, Schema schema, BufferAllocator allocator, int batch) {
    super(allocator);
    this.file = file;
    this.schema = schema;
    this.batch = batch;
  }

  static CSVFormat format() {
    return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(false).get();
  }

  /** The file as UTF-8 text without a leading byte-order mark; malformed bytes fail the read. */
  static Reader open(Path file) throws IOException {
    java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    java.io.BufferedReader in = new java.io.BufferedReader(
        new java.io.InputStreamReader(Files.newInputStream(file), utf8));
    in.mark(1);
    if (in.read() != '\uFEFF') {
      in.reset();
    }
    return in;
  }

  /** {@code e}, a failure of the CSV parser at {@code line}, as one line that names the file. */
  static CliException invalid(Path file, long line, RuntimeException e) {
    Throwable cause = e.getCause();
    if (cause instanceof java.nio.charset.CharacterCodingException) {
      return new CliException(file + " is not UTF-8 text (bytes that are not UTF-8 at or near "
          + "line " + line + "); convert it to UTF-8", e);
    }
    return new CliException(file + " is not valid CSV at or near line " + line + ": "
        + e.getMessage(), e);
  }

  /** A record whose field count is not the header's is an error naming its line. */
  static void checkWidth(Path file, CSVRecord r, int width) {
    if (r.size() != width) {
      throw new CliException(file + " line " + (r.getRecordNumber() + 1) + " has " + r.size()
          + " field(s), but the header has " + width + "; fix the row (quote a value that "
          + "holds a comma)");
    }
  }

  /** The header row's column names. */
  static List<String> header(Path file) throws IOException {
    try (Reader in = open(file); CSVParser p = CSVParser.parse(in, format())) {
      if (p.getHeaderNames().isEmpty()) {
        throw new CliException(file + " has no CSV header row");
      }
      return List.copyOf(p.getHeaderNames());
    } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
      throw invalid(file, 1, e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw invalid(file, 1, new UncheckedIOException(e));
    }
  }

  /** Types inferred from every value of the file. */
  static Schema inferSchema(Path file) throws IOException {
    CSVParser p = null;
    try (Reader in = open(file)) {
      p = CSVParser.parse(in, format());
      List<String> names = p.getHeaderNames();
      if (names.isEmpty()) {
        throw new CliException(file + " has no CSV header row");
      }
      int n = names.size();
      boolean[] ints = new boolean[n];
      boolean[] wide = new boolean[n];
      boolean[] nums = new boolean[n];
      boolean[] bools = new boolean[n];
      java.util.Arrays.fill(ints, true);
      java.util.Arrays.fill(nums, true);
      java.util.Arrays.fill(bools, true);
      for (CSVRecord r : p) {
        checkWidth(file, r, n);
        for (int i = 0; i < n; i++) {
          String v = r.get(i);
          if (v.isEmpty()) {
            continue;
          }
          boolean integer = INTEGER.matcher(v.trim()).matches();
          ints[i] &= integer;
          wide[i] |= integer && !isLong(v);
          nums[i] &= isDouble(v);
          bools[i] &= v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false");
        }
      }
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ArrowType t = ints[i] && !wide[i] ? new ArrowType.Int(64, true)
            : ints[i] ? new ArrowType.Decimal(38, 0, 128)
            : nums[i] ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)
            : bools[i] ? ArrowType.Bool.INSTANCE : ArrowType.Utf8.INSTANCE;
        fields.add(Field.nullable(names.get(i), t));
      }
      return new Schema(fields);
    } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
      throw invalid(file, p == null ? 1 : p.getCurrentLineNumber(), e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw invalid(file, p == null ? 1 : p.getCurrentLineNumber(), new UncheckedIOException(e));
    } finally {
      if (p != null) {
        p.close();
      }
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
        checkWidth(file, r, width);
        for (int c = 0; c < positions.size(); c++) {
          int at = positions.get(c);
          String v = at < r.size() ? r.get(at) : "";
          set(root.getVector(c), row, v, r.getRecordNumber() + 1);
        }
        row++;
      }
    } catch (UncheckedIOException | IllegalStateException e) {
      throw invalid(file, parser.getCurrentLineNumber(), e);
    }
    for (FieldVector v : root.getFieldVectors()) {
      v.setValueCount(row);
    }
    root.setRowCount(row);
    return row > 0;
  }

  private void open() throws IOException {
    try {
      parser = CSVParser.parse(open(file), format());
    } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
      throw invalid(file, 1, e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw invalid(file, 1, new UncheckedIOException(e));
    }
    List<String> header = parser.getHeaderNames();
    width = header.size();
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
    while (row >= v.getValueCapacity()) {
      v.reAlloc(); // setWithPossibleTruncate and list children do not grow the vector
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
      } else if (v instanceof FixedSizeListVector l) {
        com.fasterxml.jackson.databind.JsonNode items = array(s);
        if (items.size() != l.getListSize()) {
          throw new NumberFormatException(items.size() + " items, not " + l.getListSize());
        }
        int start = l.startNewValue(row);
        fill(l.getDataVector(), start, items, line);
      } else if (v instanceof ListVector l) {
        com.fasterxml.jackson.databind.JsonNode items = array(s);
        int start = l.startNewValue(row);
        fill(l.getDataVector(), start, items, line);
        l.endValue(row, items.size());
      } else {
        throw new CliException("CSV cannot fill column '" + v.getName() + "' of type "
            + v.getField().getType() + "; use Arrow IPC input for it");
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw new CliException(file + " line " + line + ", column '" + v.getName() + "': '" + s
          + "' is not a valid " + v.getField().getType() + " (" + e.getMessage() + ")");
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** A list cell: a JSON array. */
  private static com.fasterxml.jackson.databind.JsonNode array(String s) {
    com.fasterxml.jackson.databind.JsonNode n;
    try {
      n = JSON.readTree(s);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new NumberFormatException("not a JSON array: " + e.getOriginalMessage());
    }
    if (n == null || !n.isArray()) {
      throw new NumberFormatException("not a JSON array such as [0.5, 1, 2]");
    }
    return n;
  }

  /** Puts a JSON array's items at {@code start..} of a list's child vector (its values' text). */
  private void fill(FieldVector child, int start, com.fasterxml.jackson.databind.JsonNode items,
      long line) {
    for (int i = 0; i < items.size(); i++) {
      com.fasterxml.jackson.databind.JsonNode item = items.get(i);
      if (item.isNull()) {
        while (start + i >= child.getValueCapacity()) {
          child.reAlloc();
        }
        child.setNull(start + i);
        continue;
      }
      if (item.isContainerNode()) {
        throw new NumberFormatException("item " + i + " is nested; CSV carries lists of values");
      }
      set(child, start + i, item.asText(), line);
    }
  }

  /** An integer of any size: digits after an optional sign (38 at most fit a decimal). */
  private static final java.util.regex.Pattern INTEGER =
      java.util.regex.Pattern.compile("[-+]?[0-9]{1,38}");

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
