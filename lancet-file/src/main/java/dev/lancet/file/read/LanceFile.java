package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.model.Field;
import dev.lancet.format.pb.File2Protos;
import dev.lancet.format.pb.FileProtos;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.file.schema.SchemaException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One open Lance 2.1 data file (the 2.1 side of {@link LanceDataFile}): its footer, schema (global buffer 0, a
 * {@code lance.file.FileDescriptor}), global buffers and, on demand, each column's metadata.
 * Every position and size read from the file is checked against the file's length and the
 * regions around it before it is used. Support is decided per top-level field: a field whose
 * columns the Java reader cannot decode is named by {@link #unsupported} and the other fields
 * are still read. Every byte is read through one {@link ByteSource}. Reads are positional, so one
 * open file serves any number of sequential reads; it is not safe for concurrent use.
 */
public final class LanceFile implements LanceDataFile {
  private final Path path;
  private final ByteSource source;
  private final long size;
  private final LanceFileFooter footer;
  private final long[] columnMetadataPositions;
  private final long[] columnMetadataSizes;
  private final long[] globalBufferPositions;
  private final long[] globalBufferSizes;
  private final List<Field> fields;
  private final Schema schema;
  private final long numRows;
  private final List<FieldColumns> topFields;
  private final ColumnPages[] columns;
  private final Scratch scratch = new Scratch();

  private LanceFile(Path path, ByteSource source) throws IOException {
    this.path = path;
    this.source = source;
    this.size = source.size();
    String where = path.toString();
    if (size < LanceFileFooter.SIZE) {
      throw new CorruptFileException(where + ": " + size + " bytes is too short for a Lance "
          + "file (its footer alone is " + LanceFileFooter.SIZE + " bytes)");
    }
    footer = LanceFileFooter.parse(read(size - LanceFileFooter.SIZE, LanceFileFooter.SIZE),
        size, where);
    if (footer.major() != 2 || footer.minor() != 1) {
      throw new UnsupportedFileException(where + ": Lance file version " + footer.version()
          + "; the Java reader reads 2.1");
    }
    if (footer.numGlobalBuffers() < 1) {
      throw new CorruptFileException(where + ": no global buffers (global buffer 0 holds the "
          + "schema)");
    }
    int g = footer.numGlobalBuffers();
    globalBufferPositions = new long[g];
    globalBufferSizes = new long[g];
    ByteBuffer gbo = read(footer.globalBufferOffsetsStart(), Math.multiplyExact(16, g));
    for (int i = 0; i < g; i++) {
      globalBufferPositions[i] = gbo.getLong();
      globalBufferSizes[i] = gbo.getLong();
      checkRegion(globalBufferPositions[i], globalBufferSizes[i], 0,
          footer.globalBufferOffsetsStart(), where + ": global buffer " + i);
    }
    FileProtos.FileDescriptor descriptor;
    try {
      descriptor = FileProtos.FileDescriptor.parseFrom(globalBuffer(0));
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(where + ": global buffer 0 is not a FileDescriptor: "
          + e.getMessage(), e);
    }
    numRows = descriptor.getLength();
    if (numRows < 0) {
      throw new CorruptFileException(where + ": the file descriptor gives "
          + Long.toUnsignedString(numRows) + " rows");
    }
    dev.lancet.format.model.Schema lance;
    try {
      lance = SchemaCodec.fromProto(descriptor.getSchema());
      fields = lance.fields();
      schema = LanceSchemas.toArrow(lance);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedFileException(where + ": " + e.getMessage());
    }
    for (Field f : fields) {
      // Arrow forms the differential tests have not compared with lance-core's reader: the
      // whole file is lance-core's, as before decision 0030.
      if (f.logicalType().startsWith("dict:") || f.logicalType().contains("bfloat16")) {
        throw new UnsupportedFileException(where + ": field '" + f.name() + "' ("
            + f.logicalType() + ") is not a type whose Arrow form the Java reader vouches for");
      }
    }
    List<FieldColumns> tops = new ArrayList<>();
    int column = 0;
    for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
      FieldColumns fc = FieldColumns.of(f, column);
      tops.add(fc);
      column += fc.numColumns();
    }
    topFields = List.copyOf(tops);
    if (column != footer.numColumns()) {
      throw new CorruptFileException(where + ": the schema's fields take " + column
          + " columns but the file has " + footer.numColumns());
    }
    int n = footer.numColumns();
    columnMetadataPositions = new long[n];
    columnMetadataSizes = new long[n];
    ByteBuffer cmo = read(footer.columnMetadataOffsetsStart(), Math.multiplyExact(16, n));
    for (int i = 0; i < n; i++) {
      columnMetadataPositions[i] = cmo.getLong();
      columnMetadataSizes[i] = cmo.getLong();
      checkRegion(columnMetadataPositions[i], columnMetadataSizes[i],
          footer.columnMetadataStart(), footer.columnMetadataOffsetsStart(),
          where + ", column " + i + ": its metadata");
    }
    columns = new ColumnPages[n];
  }

  /**
   * Opens {@code path}, reading its footer, schema and column metadata offsets.
   *
   * @throws UnsupportedFileException for a valid file the Java reader does not read (another
   *     version, a field type it does not map to Arrow)
   * @throws CorruptFileException when the file contradicts itself
   */
  public static LanceFile open(Path path) throws IOException {
    ByteSource source = ByteSource.of(path);
    try {
      return new LanceFile(path, source);
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
  }

  /** Global buffers in the file (buffer 0 is the schema; index files keep their data after). */
  public int numGlobalBuffers() {
    return globalBufferPositions.length;
  }

  /**
   * The bytes of global buffer {@code index} (little endian, positioned at 0), read from the file
   * on each call: index files keep IVF centroids and PQ codebooks here.
   */
  public ByteBuffer globalBuffer(int index) throws IOException {
    if (index < 0 || index >= globalBufferPositions.length) {
      throw new IndexOutOfBoundsException(path + ": global buffer " + index + " of "
          + globalBufferPositions.length);
    }
    return read(globalBufferPositions[index], (int) globalBufferSizes[index]);
  }

  /** The size in bytes of global buffer {@code index}. */
  public long globalBufferSize(int index) {
    Objects.checkIndex(index, globalBufferSizes.length);
    return globalBufferSizes[index];
  }

  /** The schema metadata of the file (what a writer added; index files keep their details). */
  public Map<String, String> schemaMetadata() {
    return schema.getCustomMetadata() == null ? Map.of() : Map.copyOf(schema.getCustomMetadata());
  }

  public Path path() {
    return path;
  }

  /** The file's Arrow schema, as lance-core's reader gives it. */
  public Schema schema() {
    return schema;
  }

  public long numRows() {
    return numRows;
  }

  long size() {
    return size;
  }

  /** Columns in the file (leaves of the schema, as {@link FieldColumns} counts them). */
  int numColumns() {
    return columns.length;
  }

  /** The decoding buffers; use only while holding this file's lock. */
  Scratch scratch() {
    return scratch;
  }

  LanceFileFooter footer() {
    return footer;
  }

  /** The pages of column {@code index} (metadata parsed and checked on first use). */
  synchronized ColumnPages column(int index) throws IOException {
    if (columns[index] == null) {
      FieldColumns.Leaf leaf = leafOf(index);
      String where = path + ", column " + index + " ('" + leaf.field().getName() + "')";
      File2Protos.ColumnMetadata meta;
      try {
        meta = File2Protos.ColumnMetadata.parseFrom(
            read(columnMetadataPositions[index], (int) columnMetadataSizes[index]));
      } catch (InvalidProtocolBufferException e) {
        throw new CorruptFileException(where + ": the column metadata does not parse: "
            + e.getMessage(), e);
      }
      columns[index] = ColumnPages.of(this, meta, leaf, numRows, where);
    }
    return columns[index];
  }

  private FieldColumns.Leaf leafOf(int column) {
    for (FieldColumns f : topFields) {
      if (column < f.firstColumn() + f.numColumns()) {
        return f.leaves().get(column - f.firstColumn());
      }
    }
    throw new IllegalArgumentException("column " + column);
  }

  /** Why the Java reader cannot decode top-level field {@code i}, if it cannot. */
  private Optional<String> unsupportedField(int i) throws IOException {
    FieldColumns f = topFields.get(i);
    if (f.unsupported().isPresent()) {
      return Optional.of(path + ": " + f.unsupported().get());
    }
    for (FieldColumns.Leaf l : f.leaves()) {
      Optional<String> why = column(l.column()).unsupported();
      if (why.isPresent()) {
        return why;
      }
    }
    return Optional.empty();
  }

  /**
   * Checks that {@code [pos, pos + len)} lies inside {@code [lo, hi)} and is small enough to be
   * read into one buffer.
   */
  static void checkRegion(long pos, long len, long lo, long hi, String what)
      throws CorruptFileException {
    if (pos < lo || len < 0 || pos > hi || len > hi - pos) {
      throw new CorruptFileException(what + " at " + Long.toUnsignedString(pos) + " ("
          + Long.toUnsignedString(len) + " bytes) lies outside [" + lo + ", " + hi + ")");
    }
    if (len > Integer.MAX_VALUE - 16) {
      throw new CorruptFileException(what + " is " + len + " bytes, more than one read takes");
    }
  }

  /** Reads exactly {@code len} bytes at {@code pos} (little endian, positioned at 0). */
  ByteBuffer read(long pos, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    readFully(pos, b);
    return b;
  }

  /**
   * Fills {@code into} (position to limit) from {@code pos}, leaving its position where it was:
   * the one way the reader reaches the file's bytes.
   */
  void readFully(long pos, ByteBuffer into) throws IOException {
    if (pos < 0 || pos > size || into.remaining() > size - pos) {
      throw new CorruptFileException(path + ": a read of " + into.remaining() + " bytes at "
          + pos + " lies past the end of the file (" + size + " bytes)");
    }
    int start = into.position();
    source.readFully(pos, into);
    into.position(start);
  }

  /**
   * Why the Java reader cannot serve a read of {@code columns} over {@code ranges}, if it
   * cannot: a column it does not decode, a name the file does not have, a range past the end.
   */
  public Optional<String> unsupported(List<String> columns, List<RowRange> ranges)
      throws IOException {
    for (RowRange r : ranges) {
      if (r.end() > numRows) {
        return Optional.of(path + ": rows " + r.start() + ".." + r.end() + " are past the "
            + numRows + " rows of the file");
      }
    }
    for (String c : columns) {
      int i = indexOf(c);
      if (i < 0) {
        return Optional.of(path + ": no column '" + c + "'");
      }
      Optional<String> why = unsupportedField(i);
      if (why.isPresent()) {
        return why;
      }
    }
    return Optional.empty();
  }

  /**
   * Reads {@code columns} of the rows in {@code ranges}, in batches of {@code batchSize} rows
   * (the last may be shorter), into vectors from {@code allocator}. Call only when
   * {@link #unsupported} is empty for the same columns and ranges.
   */
  public ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator) throws IOException {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batch size must be positive, not " + batchSize);
    }
    // lance-core gives the columns in file order, whatever the order asked for.
    java.util.TreeSet<Integer> wanted = new java.util.TreeSet<>();
    for (String c : columns) {
      int i = indexOf(c);
      if (i < 0 || unsupportedField(i).isPresent()) {
        throw new IllegalStateException(path + ": column '" + c + "' is not read in Java");
      }
      wanted.add(i);
    }
    List<org.apache.arrow.vector.types.pojo.Field> projected = new ArrayList<>();
    List<FieldDecoder> decoders = new ArrayList<>();
    for (int i : wanted) {
      FieldColumns fc = topFields.get(i);
      List<ColumnPages> pages = new ArrayList<>();
      for (FieldColumns.Leaf l : fc.leaves()) {
        pages.add(column(l.column()));
      }
      projected.add(schema.getFields().get(i));
      decoders.add(new FieldDecoder(fc, pages));
    }
    return new LanceFileBatches(allocator, new Schema(projected), decoders, ranges,
        batchSize);
  }

  private int indexOf(String column) {
    List<org.apache.arrow.vector.types.pojo.Field> fs = schema.getFields();
    for (int i = 0; i < fs.size(); i++) {
      if (fs.get(i).getName().equals(column)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
