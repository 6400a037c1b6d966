package dev.lancet.format.deletion;

import com.github.luben.zstd.Zstd;
import dev.lancet.format.FormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Optional;
import java.util.PrimitiveIterator;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.Block;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.flatbuf.Endianness;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.Int;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flatbuf.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;
import org.roaringbitmap.RoaringBitmap;

/**
 * The {@code .arrow} form: an Arrow IPC file (not stream) holding one record batch of one
 * non-nullable UInt32 column {@code row_id}, buffers ZSTD-compressed.
 *
 * <p>Writing goes through Arrow's own {@link ArrowFileWriter}. Reading does not use Arrow's
 * reader, because that reader trusts length fields (it sizes heap and direct buffers from
 * declared lengths, and LZ4 output is unbounded). Instead the file's flatbuffer metadata is
 * walked with Arrow's generated accessors (every access is bounds-checked by {@link ByteBuffer}),
 * every length is checked against the bytes actually present before use, and the single values
 * buffer is decompressed with the same libraries Arrow uses (zstd-jni, commons-compress) into an
 * array whose size was checked first.
 */
final class ArrowDeletionCodec {
  static final String COLUMN = "row_id";

  private static final byte[] MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};
  // Leading magic padded to 8, then (at the end) int32 footer length and magic.
  private static final int MIN_FILE = 8 + 4 + MAGIC.length;
  // Keeps 4 * rows inside a Java array.
  private static final long MAX_ROWS = (Integer.MAX_VALUE - 64) / 4;
  // Writers may pad buffers to 64 bytes; a declared size beyond that is a lie.
  private static final int MAX_PADDING = 64;

  private ArrowDeletionCodec() {}

  static byte[] write(DeletionVector vector) {
    long rows = vector.cardinality();
    if (rows > MAX_ROWS) {
      throw new IllegalArgumentException("too many rows for an Arrow deletion file: " + rows);
    }
    Schema schema =
        new Schema(List.of(new Field(COLUMN, FieldType.notNullable(new ArrowType.Int(32, false)), null)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      UInt4Vector column = (UInt4Vector) root.getVector(0);
      column.allocateNew((int) rows);
      int i = 0;
      for (PrimitiveIterator.OfInt it = vector.iterator(); it.hasNext(); ) {
        column.set(i++, it.nextInt());
      }
      root.setRowCount((int) rows);
      try (ArrowFileWriter writer =
          new ArrowFileWriter(
              root,
              null,
              Channels.newChannel(out),
              null,
              IpcOption.DEFAULT,
              CommonsCompressionFactory.INSTANCE,
              CompressionUtil.CodecType.ZSTD,
              Optional.empty())) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing an in-memory Arrow deletion file failed", e);
    }
    return out.toByteArray();
  }

  static DeletionVector read(byte[] bytes, String file) {
    try {
      return new Parser(bytes, file).parse();
    } catch (FormatException e) {
      throw e;
    } catch (RuntimeException e) {
      // Flatbuffer accessors throw IndexOutOfBounds and friends when offsets are corrupt.
      throw new FormatException(file, "corrupt Arrow IPC metadata (" + e + ")", e);
    }
  }

  private enum Codec {
    NONE,
    LZ4_FRAME,
    ZSTD
  }

  private static final class Parser {
    private final byte[] bytes;
    private final String file;

    Parser(byte[] bytes, String file) {
      this.bytes = bytes;
      this.file = file;
    }

    DeletionVector parse() {
      int size = bytes.length;
      if (size < MIN_FILE || !magicAt(0)) {
        throw fail("not an Arrow IPC file (no ARROW1 magic at the start)");
      }
      if (!magicAt(size - MAGIC.length)) {
        throw fail("not an Arrow IPC file, or truncated (no ARROW1 magic at the end)");
      }
      int footerEnd = size - MAGIC.length - 4;
      int footerLength = i32(footerEnd);
      if (footerLength <= 0 || footerLength > footerEnd - 8) {
        throw fail("footer length " + footerLength + " does not fit in the file");
      }
      int footerStart = footerEnd - footerLength;
      Footer footer = Footer.getRootAsFooter(slice(footerStart, footerLength));
      checkVersion(footer.version(), "footer");
      org.apache.arrow.flatbuf.Schema schema = footer.schema();
      if (schema == null) {
        throw fail("footer has no schema");
      }
      checkSchema(schema);
      if (footer.dictionariesLength() != 0) {
        throw fail("unexpected dictionary batches (" + footer.dictionariesLength() + ")");
      }
      int batches = footer.recordBatchesLength();
      if (batches != 1) {
        throw fail("expected exactly one record batch, found " + batches);
      }
      return readBatch(footer.recordBatches(0), footerStart);
    }

    private void checkSchema(org.apache.arrow.flatbuf.Schema schema) {
      String expected = "; expected exactly one column row_id: UInt32 not null";
      if (schema.endianness() != Endianness.Little) {
        throw fail("schema is big-endian");
      }
      if (schema.fieldsLength() != 1) {
        throw fail("schema has " + schema.fieldsLength() + " columns" + expected);
      }
      // Lance compares the whole schema, metadata included.
      if (schema.customMetadataLength() != 0) {
        throw fail("schema has custom metadata" + expected);
      }
      org.apache.arrow.flatbuf.Field field = schema.fields(0);
      if (field == null) {
        throw fail("schema column is missing");
      }
      String name = field.name();
      if (!COLUMN.equals(name)) {
        throw fail("column is named '" + name + "'" + expected);
      }
      if (field.typeType() != Type.Int) {
        throw fail("column row_id has Arrow type id " + field.typeType() + expected);
      }
      Int type = (Int) field.type(new Int());
      if (type == null || type.bitWidth() != 32 || type.isSigned()) {
        String actual =
            type == null ? "an integer without width" : (type.isSigned() ? "Int" : "UInt") + type.bitWidth();
        throw fail("column row_id is " + actual + expected);
      }
      if (field.nullable()) {
        throw fail("column row_id is nullable" + expected);
      }
      if (field.dictionary() != null || field.childrenLength() != 0) {
        throw fail("column row_id is dictionary-encoded or nested" + expected);
      }
      if (field.customMetadataLength() != 0) {
        throw fail("column row_id has custom metadata" + expected);
      }
    }

    private DeletionVector readBatch(Block block, int footerStart) {
      long offset = block.offset();
      long metaLength = block.metaDataLength();
      long bodyLength = block.bodyLength();
      if (offset < 8
          || metaLength < 8
          || bodyLength < 0
          || offset > footerStart
          || metaLength > footerStart - offset
          || bodyLength > footerStart - offset - metaLength) {
        throw fail(
            "record batch block (offset "
                + offset
                + ", metadata "
                + metaLength
                + ", body "
                + bodyLength
                + ") lies outside the file");
      }
      int at = (int) offset;
      // Current writers prefix the message with 0xFFFFFFFF; pre-1.0 writers omit it.
      int prefix = i32(at) == -1 ? 8 : 4;
      int messageLength = i32(at + prefix - 4);
      if (messageLength <= 0 || messageLength > metaLength - prefix) {
        throw fail("record batch message length " + messageLength + " exceeds its block");
      }
      Message message = Message.getRootAsMessage(slice(at + prefix, messageLength));
      checkVersion(message.version(), "record batch message");
      if (message.headerType() != MessageHeader.RecordBatch) {
        throw fail("record batch block holds message type " + message.headerType());
      }
      RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
      if (batch == null) {
        throw fail("record batch message has no header");
      }
      long rows = batch.length();
      if (rows < 0 || rows > MAX_ROWS) {
        throw fail("record batch length " + rows + " is out of range");
      }
      if (batch.nodesLength() != 1) {
        throw fail("record batch has " + batch.nodesLength() + " field nodes; expected 1");
      }
      FieldNode node = batch.nodes(0);
      if (node.length() != rows) {
        throw fail("column length " + node.length() + " differs from batch length " + rows);
      }
      if (node.nullCount() != 0) {
        throw fail(
            node.nullCount() > 0
                ? "null values are not allowed in deletion files (" + node.nullCount() + " nulls)"
                : "negative null count");
      }
      if (batch.buffersLength() != 2) {
        throw fail("record batch has " + batch.buffersLength() + " buffers; expected 2 (validity, values)");
      }
      Codec codec = codec(batch.compression());
      int bodyStart = (int) (offset + metaLength);
      ByteBuffer validity = buffer(batch.buffers(0), bodyStart, bodyLength, codec, (rows + 7) / 8, "validity");
      ByteBuffer values = buffer(batch.buffers(1), bodyStart, bodyLength, codec, 4 * rows, "values");

      // An empty validity buffer means "all valid"; otherwise every bit must be set.
      if (validity.remaining() > 0) {
        for (int i = 0; i < rows; i++) {
          if ((validity.get(validity.position() + i / 8) & (1 << (i % 8))) == 0) {
            throw fail("null values are not allowed in deletion files (row " + i + ")");
          }
        }
      }
      int[] offsets = new int[(int) rows];
      for (int i = 0; i < offsets.length; i++) {
        offsets[i] = values.getInt(values.position() + 4 * i);
      }
      return DeletionVector.adopt(RoaringBitmap.bitmapOfUnordered(offsets));
    }

    private Codec codec(BodyCompression compression) {
      if (compression == null) {
        return Codec.NONE;
      }
      if (compression.method() != BodyCompressionMethod.BUFFER) {
        throw fail("unsupported body compression method " + compression.method());
      }
      return switch (compression.codec()) {
        case CompressionType.ZSTD -> Codec.ZSTD;
        case CompressionType.LZ4_FRAME -> Codec.LZ4_FRAME;
        default -> throw fail("unsupported compression codec " + compression.codec());
      };
    }

    /**
     * Returns the decoded bytes of one body buffer (little-endian, position at the first byte).
     * Buffers of length 0 are empty; otherwise at least {@code needed} bytes are returned.
     */
    private ByteBuffer buffer(
        org.apache.arrow.flatbuf.Buffer buffer,
        int bodyStart,
        long bodyLength,
        Codec codec,
        long needed,
        String what) {
      long offset = buffer.offset();
      long length = buffer.length();
      if (offset < 0 || length < 0 || offset > bodyLength || length > bodyLength - offset) {
        throw fail(what + " buffer (offset " + offset + ", length " + length + ") lies outside the batch body");
      }
      int at = bodyStart + (int) offset;
      int len = (int) length;
      if (len == 0) {
        // Writers omit the validity buffer of a column without nulls; empty values need 0 rows.
        if (needed > 0 && what.equals("values")) {
          throw fail("values buffer is empty but the batch has rows");
        }
        return slice(at, 0);
      }
      if (codec == Codec.NONE) {
        if (len < needed) {
          throw fail(what + " buffer holds " + len + " bytes; its rows need " + needed);
        }
        return slice(at, len);
      }
      if (len < 8) {
        throw fail(what + " buffer is shorter than its 8-byte uncompressed-length prefix");
      }
      long declared = i64(at);
      int payloadAt = at + 8;
      int payloadLength = len - 8;
      if (declared == -1) {
        // Arrow writers store a buffer raw when compressing would not shrink it.
        if (payloadLength < needed) {
          throw fail(what + " buffer holds " + payloadLength + " bytes; its rows need " + needed);
        }
        return slice(payloadAt, payloadLength);
      }
      if (declared < needed || declared > needed + MAX_PADDING) {
        throw fail(what + " buffer declares " + declared + " uncompressed bytes; its rows need " + needed);
      }
      if (declared == 0) {
        return slice(payloadAt, 0);
      }
      byte[] out =
          codec == Codec.ZSTD
              ? zstd(payloadAt, payloadLength, declared, what)
              : lz4(payloadAt, payloadLength, declared, what);
      return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    }

    private byte[] zstd(int at, int length, long declared, String what) {
      // A ZSTD block of at least 4 bytes (3 header + 1 RLE byte) yields at most 128 KiB, so
      // larger claims are impossible and are rejected before allocating.
      if (declared > (length / 4 + 1) * 131_072L) {
        throw fail(what + " buffer declares " + declared + " bytes, more than " + length + " ZSTD bytes can hold");
      }
      byte[] out;
      long produced;
      try {
        // The frame header usually records the content size; if so it must agree.
        long frameSize = Zstd.getFrameContentSize(bytes, at, length);
        if (frameSize >= 0 && frameSize != declared) {
          throw fail(what + " buffer declares " + declared + " bytes but its ZSTD frame holds " + frameSize);
        }
        out = new byte[(int) declared];
        produced = Zstd.decompressByteArray(out, 0, out.length, bytes, at, length);
      } catch (FormatException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new FormatException(file, what + " buffer is not valid ZSTD data (" + e.getMessage() + ")", e);
      }
      if (produced != declared) {
        throw fail(what + " buffer decompressed to " + produced + " bytes; declared " + declared);
      }
      return out;
    }

    private byte[] lz4(int at, int length, long declared, String what) {
      // An LZ4 sequence expands at most ~255 output bytes per input byte.
      if (declared > 264L * length + 64) {
        throw fail(what + " buffer declares " + declared + " bytes, more than " + length + " LZ4 bytes can hold");
      }
      byte[] out = new byte[(int) declared];
      try (InputStream in =
          new FramedLZ4CompressorInputStream(new ByteArrayInputStream(bytes, at, length))) {
        int filled = 0;
        while (filled < out.length) {
          int n = in.read(out, filled, out.length - filled);
          if (n < 0) {
            break;
          }
          filled += n;
        }
        if (filled != out.length || in.read() != -1) {
          throw fail(what + " buffer does not decompress to its declared " + declared + " bytes");
        }
      } catch (IOException | RuntimeException e) {
        if (e instanceof FormatException fe) {
          throw fe;
        }
        throw new FormatException(file, what + " buffer is not valid LZ4 frame data (" + e.getMessage() + ")", e);
      }
      return out;
    }

    private void checkVersion(short version, String where) {
      // Arrow 1.0+ writes V5; V4 is the oldest layout readers still accept.
      if (version != MetadataVersion.V4 && version != MetadataVersion.V5) {
        throw fail(where + " has unsupported Arrow metadata version " + version);
      }
    }

    private boolean magicAt(int at) {
      for (int i = 0; i < MAGIC.length; i++) {
        if (bytes[at + i] != MAGIC[i]) {
          return false;
        }
      }
      return true;
    }

    private ByteBuffer slice(int at, int length) {
      return ByteBuffer.wrap(bytes, at, length).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private int i32(int at) {
      return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
    }

    private long i64(int at) {
      return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
    }

    private FormatException fail(String defect) {
      return new FormatException(file, defect);
    }
  }
}
