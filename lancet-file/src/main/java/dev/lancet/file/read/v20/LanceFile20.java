package dev.lancet.file.read.v20;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.file.CorruptFileException;
import dev.lancet.file.RowRange;
import dev.lancet.file.UnsupportedFileException;
import dev.lancet.file.read.LanceDataFile;
import dev.lancet.file.read.LanceFileFooter;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.model.Field;
import dev.lancet.format.pb.Encodings20Protos.ArrayEncoding;
import dev.lancet.format.pb.File2Protos;
import dev.lancet.format.pb.FileProtos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One open Lance 2.0 data file (footer version 0.3 or 2.0; decision 0031): the footer and
 * schema (global buffer 0, a {@code lance.file.FileDescriptor}) when opened, each top-level
 * field's columns and pages on first use. Every position and size from the file is checked
 * before it is used; a damaged file is a {@link CorruptFileException} naming the file, column
 * and page. Not safe for concurrent use.
 */
public final class LanceFile20 implements LanceDataFile {
  private static final String PACKED = "packed";
  private static final String PACKED_KEY = "lance-encoding:packed";
  private static final String BLOB_KEY = "lance-encoding:blob";

  private final Source src;
  private final LanceFileFooter footer;
  private final long[] columnPos;
  private final long[] columnLen;
  private final long[] globalPos;
  private final long[] globalLen;
  private final long numRows;
  private final dev.lancet.format.model.Schema lance;
  private final Map<Integer, List<Field>> children;
  private final List<Field> topLevel;
  private final int[] firstColumn;
  private final Schema schema;
  private final Object[] readers; // per top-level field: a FieldReader, or the reason it has none

  private LanceFile20(Source src) throws IOException {
    this.src = src;
    String where = src.path().toString();
    long size = src.size();
    if (size < LanceFileFooter.SIZE) {
      throw new CorruptFileException(where + ": " + size + " bytes is too short for a Lance "
          + "file (its footer alone is " + LanceFileFooter.SIZE + " bytes)");
    }
    footer = LanceFileFooter.parse(src.read(size - LanceFileFooter.SIZE, LanceFileFooter.SIZE),
        size, where);
    if (!(footer.major() == 2 && footer.minor() == 0 || footer.major() == 0
        && footer.minor() == 3)) {
      throw new UnsupportedFileException(where + ": Lance file version " + footer.version()
          + " is not 2.0");
    }
    src.dataEnd(footer.columnMetadataStart());
    int ng = footer.numGlobalBuffers();
    if (ng < 1) {
      throw new CorruptFileException(where + ": no global buffers (global buffer 0 holds the "
          + "schema)");
    }
    globalPos = new long[ng];
    globalLen = new long[ng];
    ByteBuffer gbo = src.read(footer.globalBufferOffsetsStart(), Math.multiplyExact(16, ng));
    for (int i = 0; i < ng; i++) {
      globalPos[i] = gbo.getLong();
      globalLen[i] = gbo.getLong();
      Source.checkRegion(globalPos[i], globalLen[i], 0, size - LanceFileFooter.SIZE,
          where + ": global buffer " + i);
    }
    FileProtos.FileDescriptor descriptor;
    try {
      descriptor = FileProtos.FileDescriptor.parseFrom(src.read(globalPos[0],
          (int) globalLen[0]));
      lance = SchemaCodec.fromProto(descriptor.getSchema());
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(where + ": global buffer 0 is not a FileDescriptor: "
          + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new CorruptFileException(where + ": the schema in global buffer 0 is not valid: "
          + e, e);
    }
    numRows = descriptor.getLength();
    if (numRows < 0) {
      throw new CorruptFileException(where + ": the file descriptor gives "
          + Long.toUnsignedString(numRows) + " rows");
    }
    try {
      schema = LanceSchemas.toArrow(lance);
      children = LanceSchemas.childrenOf(lance);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedFileException(where + ": " + e.getMessage());
    }
    topLevel = lance.topLevel();
    firstColumn = new int[topLevel.size() + 1];
    for (int i = 0; i < topLevel.size(); i++) {
      firstColumn[i + 1] = firstColumn[i] + columnsOf(topLevel.get(i), 0);
    }
    int n = footer.numColumns();
    if (firstColumn[topLevel.size()] != n) {
      throw new CorruptFileException(where + ": the schema maps to "
          + firstColumn[topLevel.size()] + " columns, the file has " + n);
    }
    columnPos = new long[n];
    columnLen = new long[n];
    ByteBuffer cmo = src.read(footer.columnMetadataOffsetsStart(), Math.multiplyExact(16, n));
    for (int i = 0; i < n; i++) {
      columnPos[i] = cmo.getLong();
      columnLen[i] = cmo.getLong();
      Source.checkRegion(columnPos[i], columnLen[i], footer.columnMetadataStart(),
          footer.columnMetadataOffsetsStart(), where + ", column " + i + ": its metadata");
    }
    readers = new Object[topLevel.size()];
  }

  /**
   * Opens {@code path}, a Lance 2.0 file.
   *
   * @throws UnsupportedFileException for another version or a schema the reader does not map
   * @throws CorruptFileException when the file contradicts itself
   */
  public static LanceFile20 open(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new LanceFile20(new Source(path, channel));
    } catch (IOException e) {
      channel.close();
      throw e;
    } catch (RuntimeException e) {
      channel.close();
      throw new CorruptFileException(path + ": the footer or schema is not valid: " + e, e);
    }
  }

  /** Columns field {@code f} takes (a list and a plain struct: one, then their children's). */
  private int columnsOf(Field f, int depth) throws CorruptFileException {
    if (depth > 64) {
      throw new CorruptFileException(src.path() + ": fields nested deeper than 64");
    }
    String lt = f.logicalType();
    List<Field> kids = children.getOrDefault(f.id(), List.of());
    if (lt.equals("struct") && !packed(f) || lt.startsWith("list") || lt.startsWith("large_list")) {
      int n = 1;
      for (Field k : kids) {
        n += columnsOf(k, depth + 1);
      }
      return n;
    }
    return 1;
  }

  private static boolean packed(Field f) {
    Map<String, String> md = new java.util.HashMap<>();
    f.metadata().forEach((k, v) -> md.put(k, v.toStringUtf8()));
    String legacy = md.get(PACKED);
    return legacy != null ? legacy.equals("true") : md.containsKey(PACKED_KEY);
  }

  @Override
  public Path path() {
    return src.path();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public long numRows() {
    return numRows;
  }

  /** The reader of top-level field {@code i}, or why there is none. */
  private Object reader(int i) throws IOException {
    if (readers[i] == null) {
      int[] next = {firstColumn[i]};
      try {
        FieldReader r = build(topLevel.get(i), schema.getFields().get(i), next);
        if (r.numValues() != numRows) {
          throw new CorruptFileException(src.path() + ", field '" + topLevel.get(i).name()
              + "': its column holds " + r.numValues() + " rows, the file " + numRows);
        }
        readers[i] = r;
      } catch (UnsupportedFileException e) {
        readers[i] = e.getMessage();
      } catch (RuntimeException e) {
        throw new CorruptFileException(src.path() + ", field '" + topLevel.get(i).name()
            + "': its columns do not parse: " + e, e);
      }
    }
    return readers[i];
  }

  private Column20 column(int index, String name) throws IOException {
    String where = src.path() + ", column " + index + " ('" + name + "')";
    File2Protos.ColumnMetadata meta;
    try {
      meta = File2Protos.ColumnMetadata.parseFrom(src.read(columnPos[index],
          (int) columnLen[index]));
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(where + ": the column metadata does not parse: "
          + e.getMessage(), e);
    }
    return Column20.of(index, where, meta, src.dataEnd(), globalPos, globalLen);
  }

  private FieldReader build(Field f, org.apache.arrow.vector.types.pojo.Field arrow, int[] next)
      throws IOException {
    String lt = f.logicalType();
    Column20 col = column(next[0]++, f.name());
    List<Field> kids = children.getOrDefault(f.id(), List.of());
    if (lt.startsWith("list") || lt.startsWith("large_list")) {
      int pages = col.numPages();
      FlatNode[] offsets = new FlatNode[pages];
      long[] adj = new long[pages];
      long[] items = new long[pages];
      for (int p = 0; p < pages; p++) {
        ArrayEncoding e = col.pageEncodings[p];
        if (!e.hasList()) {
          throw new UnsupportedFileException(col.pageWhere(p) + ": " + e.getArrayEncodingCase()
              + " for a list");
        }
        Encodings20 enc = new Encodings20(src, col.pageBuffers[p], col.pageWhere(p));
        long rows = col.pageStart[p + 1] - col.pageStart[p];
        offsets[p] = enc.plainFlat(e.getList().getOffsets(), rows, "list offsets");
        if (offsets[p].bits() != 64) {
          throw new UnsupportedFileException(col.pageWhere(p) + ": list offsets of "
              + offsets[p].bits() + " bits");
        }
        adj[p] = e.getList().getNullOffsetAdjustment();
        items[p] = e.getList().getNumItems();
      }
      FieldReader itemReader = build(kids.get(0), arrow.getChildren().get(0), next);
      return new ListReader(col, offsets, adj, items, itemReader);
    }
    if (lt.equals("struct") && !packed(f)) {
      for (int p = 0; p < col.numPages(); p++) {
        if (!col.pageEncodings[p].hasStruct()) {
          throw new CorruptFileException(col.pageWhere(p) + ": "
              + col.pageEncodings[p].getArrayEncodingCase() + " in a struct's header column");
        }
      }
      List<FieldReader> rs = new ArrayList<>();
      for (int k = 0; k < kids.size(); k++) {
        FieldReader r = build(kids.get(k), arrow.getChildren().get(k), next);
        if (r.numValues() != col.numValues()) {
          throw new CorruptFileException(col.where + ": the struct has " + col.numValues()
              + " rows, its field '" + kids.get(k).name() + "' " + r.numValues());
        }
        rs.add(r);
      }
      return new StructReader(col, rs);
    }
    if (col.encoding.hasBlob()) {
      if (!(arrow.getType() instanceof ArrowType.LargeBinary)) {
        throw new UnsupportedFileException(col.where + ": a blob column of type "
            + arrow.getType());
      }
      org.apache.arrow.vector.types.pojo.Field desc = new org.apache.arrow.vector.types.pojo.Field(
          "desc", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
              new org.apache.arrow.vector.types.pojo.Field("position",
                  FieldType.notNullable(new ArrowType.Int(64, false)), null),
              new org.apache.arrow.vector.types.pojo.Field("size",
                  FieldType.notNullable(new ArrowType.Int(64, false)), null)));
      PackedNode[] pages = new PackedNode[col.numPages()];
      for (int p = 0; p < pages.length; p++) {
        Encodings20 enc = new Encodings20(src, col.pageBuffers[p], col.pageWhere(p));
        pages[p] = enc.packed(col.pageEncodings[p], desc, col.pageStart[p + 1] - col.pageStart[p]);
      }
      return new BlobReader(col, pages, src);
    }
    if (!col.encoding.hasValues() && col.encoding.getColumnEncodingCase()
        != dev.lancet.format.pb.Encodings20Protos.ColumnEncoding.ColumnEncodingCase.COLUMNENCODING_NOT_SET) {
      throw new UnsupportedFileException(col.where + ": column encoding "
          + col.encoding.getColumnEncodingCase());
    }
    Node[] pages = new Node[col.numPages()];
    for (int p = 0; p < pages.length; p++) {
      Encodings20 enc = new Encodings20(src, col.pageBuffers[p], col.pageWhere(p));
      pages[p] = enc.parse(col.pageEncodings[p], arrow, col.pageStart[p + 1] - col.pageStart[p]);
    }
    return new LeafReader(col, pages);
  }

  @Override
  public Optional<String> unsupported(List<String> columns, List<RowRange> ranges)
      throws IOException {
    for (RowRange r : ranges) {
      if (r.end() > numRows) {
        return Optional.of(src.path() + ": rows " + r.start() + ".." + r.end() + " are past the "
            + numRows + " rows of the file");
      }
    }
    for (String c : columns) {
      int i = indexOf(c);
      if (i < 0) {
        return Optional.of(src.path() + ": no column '" + c + "'");
      }
      if (reader(i) instanceof String why) {
        return Optional.of(why);
      }
    }
    return Optional.empty();
  }

  /** Every coding the pages of top-level field {@code column} use (for the tests). */
  public java.util.Set<String> codings(String column) throws IOException {
    java.util.Set<String> out = new java.util.TreeSet<>();
    if (reader(indexOf(column)) instanceof FieldReader r) {
      r.describe(out);
    }
    return out;
  }

  @Override
  public ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator) throws IOException {
    return read(columns, ranges, batchSize, allocator, BlobMode.BYTES);
  }

  /**
   * The field lance-core gives for top-level field {@code i} read in {@code mode}: a blob
   * column read as descriptions is a struct of u64 {@code position} and {@code size}, keeping
   * the field's name, nullability and metadata.
   */
  private org.apache.arrow.vector.types.pojo.Field field(int i, BlobMode mode) {
    org.apache.arrow.vector.types.pojo.Field f = schema.getFields().get(i);
    if (mode == BlobMode.BYTES || !blob(f)) {
      return f;
    }
    return new org.apache.arrow.vector.types.pojo.Field(f.getName(),
        new FieldType(f.isNullable(), ArrowType.Struct.INSTANCE, null, f.getMetadata()),
        List.of(new org.apache.arrow.vector.types.pojo.Field("position",
                FieldType.nullable(new ArrowType.Int(64, false)), null),
            new org.apache.arrow.vector.types.pojo.Field("size",
                FieldType.nullable(new ArrowType.Int(64, false)), null)));
  }

  private static boolean blob(org.apache.arrow.vector.types.pojo.Field f) {
    return f.getMetadata() != null && f.getMetadata().containsKey(BLOB_KEY)
        && f.getType() instanceof ArrowType.LargeBinary;
  }

  /** The schema of a read in {@code mode}. */
  public Schema schema(BlobMode mode) {
    List<org.apache.arrow.vector.types.pojo.Field> fs = new ArrayList<>();
    for (int i = 0; i < schema.getFields().size(); i++) {
      fs.add(field(i, mode));
    }
    return new Schema(fs, schema.getCustomMetadata());
  }

  /** As {@link #read(List, List, int, BufferAllocator)}, blob columns read in {@code mode}. */
  public ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator, BlobMode mode) throws IOException {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batch size must be positive, not " + batchSize);
    }
    TreeSet<Integer> wanted = new TreeSet<>();
    for (String c : columns) {
      int i = indexOf(c);
      if (i < 0 || !(reader(i) instanceof FieldReader)) {
        throw new IllegalStateException(src.path() + ": column '" + c + "' is not read in Java");
      }
      wanted.add(i);
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
    List<FieldReader> rs = new ArrayList<>();
    for (int i : wanted) {
      FieldReader r = (FieldReader) reader(i);
      if (r instanceof BlobReader b && mode == BlobMode.DESCRIPTIONS) {
        r = b.descriptions();
      }
      fields.add(field(i, mode));
      rs.add(r);
    }
    return new Batches20(src.path(), allocator, new Schema(fields), rs, ranges, batchSize);
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
    src.close();
  }
}
