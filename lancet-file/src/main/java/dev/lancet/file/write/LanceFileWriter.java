package dev.lancet.file.write;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import dev.lancet.format.pb.File2Protos.DirectEncoding;
import dev.lancet.format.pb.File2Protos.Encoding;
import dev.lancet.format.pb.FileProtos.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes one Lance 2.1 data file in Java (decision 0033): batches go in, each leaf column
 * buffers about {@link WriterOptions#pageBytes} of values and then writes them as a page, and
 * {@link #finish} writes the column metadata, the schema (global buffer 0) and the footer. The
 * bytes stream to a {@link FileOutput}; the writer holds at most one page per column besides the
 * batch being written.
 *
 * <p>A batch the writer refuses ({@link InvalidBatchException}) is refused whole, before any of
 * it is buffered; the writer stays usable. After an {@link IOException} from the output the
 * writer is failed: only {@link #abort} is left. Not thread-safe.
 */
public final class LanceFileWriter implements AutoCloseable {
  static final int MAJOR = 2;
  static final int MINOR = 1;
  private static final int ALIGN = 64;
  private static final byte PAD = 72;
  private static final String PAGE_LAYOUT_URL = "/lance.encodings21.PageLayout";
  private static final String COLUMN_ENCODING_URL = "/lance.encodings.ColumnEncoding";
  /** lance.encodings.ColumnEncoding { values: {} }: field 1, an empty message. */
  private static final ByteString PLAIN_COLUMN = ByteString.copyFrom(new byte[] {0x0A, 0x00});
  private static final int MAGIC = 'L' | 'A' << 8 | 'N' << 16 | 'C' << 24;

  private enum State { OPEN, FINISHED, FAILED, ABORTED }

  private final FileOutput out;
  private final Schema schema;
  private final WriterOptions options;
  private final ColumnTree tree;
  private final BatchShredder shredder;
  private final List<ColumnMetadata.Builder> columns = new ArrayList<>();
  private final byte[] pad = new byte[ALIGN];
  private long rows;
  private State state = State.OPEN;

  private LanceFileWriter(FileOutput out, Schema schema, WriterOptions options, ColumnTree tree) {
    this.out = out;
    this.schema = schema;
    this.options = options;
    this.tree = tree;
    this.shredder = new BatchShredder(tree);
    for (int i = 0; i < tree.leaves.size(); i++) {
      columns.add(ColumnMetadata.newBuilder().setEncoding(Encoding.newBuilder().setDirect(
          DirectEncoding.newBuilder().setEncoding(Any.newBuilder()
              .setTypeUrl(COLUMN_ENCODING_URL).setValue(PLAIN_COLUMN)))));
    }
    java.util.Arrays.fill(pad, PAD);
  }

  /**
   * A writer of a file with {@code schema} (a Lance schema with field ids, as the table's
   * manifest holds it) to {@code out}.
   *
   * @throws InvalidBatchException when the schema has a field the Java writer cannot write
   *     ({@code out} is aborted then: nothing is left under the file's name)
   */
  public static LanceFileWriter open(FileOutput out, Schema schema, WriterOptions options) {
    ColumnTree tree;
    try {
      tree = ColumnTree.of(schema, options);
    } catch (RuntimeException e) {
      out.abort();
      throw e;
    }
    return new LanceFileWriter(out, schema, options, tree);
  }

  /**
   * Whether the Java writer writes Lance files of version {@code major.minor}: 2.1 only. A table
   * whose data storage version is 2.0 must be appended to with lance-core's writer, chosen
   * explicitly by the caller (decision 0034), never as a silent fallback.
   */
  public static boolean writes(int major, int minor) {
    return major == MAJOR && minor == MINOR;
  }

  /** The field ids that get a column, in column order. */
  public List<Integer> columnFieldIds() {
    return tree.leafFieldIds;
  }

  public long rowsWritten() {
    return rows;
  }

  /** Appends the rows of {@code batch} (its columns found by name; extra columns ignored). */
  public void write(VectorSchemaRoot batch) throws IOException {
    requireOpen();
    int n = batch.getRowCount();
    List<BatchShredder.Shredded> shredded = shredder.check(batch);
    if (n == 0) {
      return;
    }
    if (rows + n > 0xFFFF_FFFFL * 16) {
      throw new InvalidBatchException("a Lance file holds at most " + 0xFFFF_FFFFL * 16
          + " rows; start a new file");
    }
    try {
      for (int c = 0; c < shredded.size(); c++) {
        BatchShredder.Shredded s = shredded.get(c);
        for (int from = 0; from < n; from += BatchShredder.SLICE_ROWS) {
          int to = Math.min(n, from + BatchShredder.SLICE_ROWS);
          shredder.append(s, from, to, rows);
          if (s.leaf().bufferedBytes() >= options.pageBytes()) {
            writePage(c, s.leaf().takePage());
          }
        }
      }
      rows += n;
    } catch (IOException | RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  /** Bytes of values held for pages not yet written, over all columns. */
  public long bufferedBytes() {
    long b = 0;
    for (LeafColumn c : tree.leaves) {
      b += c.bufferedBytes();
    }
    return b;
  }

  /** Bytes the file has so far (pages written; buffered pages not counted). */
  public long bytesWritten() {
    return out.position();
  }

  /**
   * Writes the buffered pages, the column metadata, the schema and the footer, and completes
   * the output (forced to the device when {@link WriterOptions#durable}).
   */
  public WrittenLanceFile finish() throws IOException {
    requireOpen();
    try {
      for (int c = 0; c < tree.leaves.size(); c++) {
        writePage(c, tree.leaves.get(c).takePage());
      }
      FileDescriptor descriptor = FileDescriptor.newBuilder()
          .setSchema(SchemaCodec.toProto(schema)).setLength(rows).build();
      long schemaPos = out.position();
      byte[] schemaBytes = descriptor.toByteArray();
      out.write(ByteBuffer.wrap(schemaBytes));
      long metaStart = out.position();
      long[] metaPos = new long[columns.size()];
      long[] metaLen = new long[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        byte[] m = columns.get(c).build().toByteArray();
        metaPos[c] = out.position();
        metaLen[c] = m.length;
        out.write(ByteBuffer.wrap(m));
      }
      ByteBuffer tail = ByteBuffer.allocate(16 * columns.size() + 16 + 40)
          .order(ByteOrder.LITTLE_ENDIAN);
      long cmoStart = out.position();
      for (int c = 0; c < columns.size(); c++) {
        tail.putLong(metaPos[c]).putLong(metaLen[c]);
      }
      long gboStart = cmoStart + 16L * columns.size();
      tail.putLong(schemaPos).putLong(schemaBytes.length);
      tail.putLong(metaStart).putLong(cmoStart).putLong(gboStart)
          .putInt(1).putInt(columns.size())
          .putShort((short) MAJOR).putShort((short) MINOR).putInt(MAGIC);
      out.write(tail.flip());
      long size = out.position();
      out.complete(options.durable());
      state = State.FINISHED;
      return new WrittenLanceFile(tree.leafFieldIds,
          dev.lancet.file.schema.ColumnLayout.columnIndices(tree.leafFieldIds.size()), MAJOR,
          MINOR, size, rows);
    } catch (IOException | RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  /** Discards the file (nothing is left under its name). Idempotent. */
  public void abort() {
    if (state != State.FINISHED && state != State.ABORTED) {
      state = State.ABORTED;
      out.abort();
    }
  }

  /** Aborts unless finished. */
  @Override
  public void close() {
    abort();
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("the file writer is " + state.name().toLowerCase()
          + (state == State.FAILED ? " (a write failed; abort it)" : ""));
    }
  }

  private void writePage(int column, EncodedPage page) throws IOException {
    if (page == null) {
      return;
    }
    ColumnMetadata.Page.Builder p = ColumnMetadata.Page.newBuilder()
        .setLength(page.rows())
        .setPriority(page.firstRow())
        .setEncoding(Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(
            Any.newBuilder().setTypeUrl(PAGE_LAYOUT_URL)
                .setValue(page.layout().toByteString()))));
    for (ByteBuffer b : page.buffers()) {
      p.addBufferOffsets(out.position());
      p.addBufferSizes(b.remaining());
      out.write(b);
      int padding = (ALIGN - (int) (out.position() % ALIGN)) % ALIGN;
      if (padding > 0) {
        out.write(ByteBuffer.wrap(pad, 0, padding));
      }
    }
    columns.get(column).addPages(p);
  }
}
