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
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One open Lance 2.1 data file (the 2.1 side of {@link LanceDataFile}): its footer, schema (global buffer 0, a
 * {@code lance.file.FileDescriptor}) and, on demand, each column's metadata. Every position and
 * size read from the file is checked against the file's length and the regions around it
 * before it is used. Reads are positional, so one open file serves any number of sequential
 * reads; it is not safe for concurrent use.
 */
public final class LanceFile implements LanceDataFile {
  /** Logical types whose Arrow form {@link LanceSchemas#toArrow} gives exactly as lance-core. */
  private static final Set<String> LEAF_TYPES = Set.of("bool", "int8", "uint8", "int16",
      "uint16", "int32", "uint32", "int64", "uint64", "float", "double", "string", "binary",
      "large_string", "large_binary", "date32:day", "date64:ms");
  private static final Set<String> LEAF_TYPE_PREFIXES = Set.of("timestamp:", "time32:",
      "time64:", "duration:");

  private final Path path;
  private final FileChannel channel;
  private final long size;
  private final LanceFileFooter footer;
  private final long[] columnMetadataPositions;
  private final long[] columnMetadataSizes;
  private final List<Field> fields;
  private final Schema schema;
  private final long numRows;
  private final ColumnPages[] columns;
  private final Scratch scratch = new Scratch();

  private LanceFile(Path path, FileChannel channel) throws IOException {
    this.path = path;
    this.channel = channel;
    this.size = channel.size();
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
    ByteBuffer gbo = read(footer.globalBufferOffsetsStart(), 16);
    long schemaPos = gbo.getLong();
    long schemaSize = gbo.getLong();
    checkRegion(schemaPos, schemaSize, 0, size - LanceFileFooter.SIZE, where + ": global buffer 0");
    FileProtos.FileDescriptor descriptor;
    try {
      descriptor = FileProtos.FileDescriptor.parseFrom(read(schemaPos, (int) schemaSize));
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(where + ": global buffer 0 is not a FileDescriptor: "
          + e.getMessage(), e);
    }
    numRows = descriptor.getLength();
    if (numRows < 0) {
      throw new CorruptFileException(where + ": the file descriptor gives "
          + Long.toUnsignedString(numRows) + " rows");
    }
    dev.lancet.format.model.Schema lance = SchemaCodec.fromProto(descriptor.getSchema());
    fields = lance.fields();
    for (Field f : fields) {
      if (!f.isTopLevel() || !isVouchedLeaf(f.logicalType())) {
        throw new UnsupportedFileException(where + ": field '" + f.name() + "' ("
            + f.logicalType() + (f.isTopLevel() ? "" : ", nested") + ") is not a shape the Java "
            + "reader maps to Arrow");
      }
    }
    if (fields.size() != footer.numColumns()) {
      throw new CorruptFileException(where + ": " + fields.size() + " leaf fields but "
          + footer.numColumns() + " columns");
    }
    try {
      schema = LanceSchemas.toArrow(lance);
    } catch (SchemaException e) {
      throw new UnsupportedFileException(where + ": " + e.getMessage());
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
   *     version, a nested or unknown field type)
   * @throws CorruptFileException when the file contradicts itself
   */
  public static LanceFile open(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new LanceFile(path, channel);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static boolean isVouchedLeaf(String logicalType) {
    if (LEAF_TYPES.contains(logicalType)) {
      return true;
    }
    for (String p : LEAF_TYPE_PREFIXES) {
      if (logicalType.startsWith(p)) {
        return true;
      }
    }
    return false;
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
      String where = path + ", column " + index + " ('" + fields.get(index).name() + "')";
      File2Protos.ColumnMetadata meta;
      try {
        meta = File2Protos.ColumnMetadata.parseFrom(
            read(columnMetadataPositions[index], (int) columnMetadataSizes[index]));
      } catch (InvalidProtocolBufferException e) {
        throw new CorruptFileException(where + ": the column metadata does not parse: "
            + e.getMessage(), e);
      }
      columns[index] = ColumnPages.of(this, meta, schema.getFields().get(index), numRows, where);
    }
    return columns[index];
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
    return b.flip();
  }

  /** Fills {@code into} from {@code pos}. */
  void readFully(long pos, ByteBuffer into) throws IOException {
    long at = pos;
    while (into.hasRemaining()) {
      int n = channel.read(into, at);
      if (n < 0) {
        throw new EOFException(path + ": the file ends at " + at + " while reading "
            + into.limit() + " bytes at " + pos);
      }
      at += n;
    }
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
      Optional<String> why = column(i).unsupported();
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
      if (i < 0 || column(i).unsupported().isPresent()) {
        throw new IllegalStateException(path + ": column '" + c + "' is not read in Java");
      }
      wanted.add(i);
    }
    List<org.apache.arrow.vector.types.pojo.Field> projected = new ArrayList<>();
    List<ColumnPages> pages = new ArrayList<>();
    for (int i : wanted) {
      ColumnPages cp = column(i);
      org.apache.arrow.vector.types.pojo.Field f = schema.getFields().get(i);
      projected.add(f);
      pages.add(cp);
    }
    return new LanceFileBatches(allocator, new Schema(projected), pages, ranges,
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
    channel.close();
  }
}
