package dev.lancet.format.deletion;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Builds Arrow IPC files with Arrow's own writers, for tests of the deletion-file reader. */
final class ArrowFixtures {
  private ArrowFixtures() {}

  static final Schema DELETION_SCHEMA = schema(field("row_id", new ArrowType.Int(32, false), false));

  static Field field(String name, ArrowType type, boolean nullable) {
    return new Field(name, new FieldType(nullable, type, null), null);
  }

  static Schema schema(Field... fields) {
    return new Schema(List.of(fields));
  }

  /**
   * An IPC file with the given schema and one batch per entry of {@code batches}; every column
   * of a batch gets the same values, null entries become nulls.
   */
  static byte[] file(Schema schema, CodecType codec, IpcOption option, Integer[]... batches) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        ArrowFileWriter writer =
            new ArrowFileWriter(
                root,
                null,
                Channels.newChannel(out),
                (Map<String, String>) null,
                option,
                codec == CodecType.NO_COMPRESSION
                    ? NoCompressionCodec.Factory.INSTANCE
                    : CommonsCompressionFactory.INSTANCE,
                codec,
                Optional.empty())) {
      writer.start();
      for (Integer[] batch : batches) {
        fill(root, batch);
        writer.writeBatch();
      }
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] file(Schema schema, CodecType codec, Integer[]... batches) {
    return file(schema, codec, IpcOption.DEFAULT, batches);
  }

  /** The same content in the IPC stream format (no footer, no trailing magic). */
  static byte[] stream(Schema schema, Integer[] values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
      writer.start();
      fill(root, values);
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static Integer[] values(int... values) {
    Integer[] boxed = new Integer[values.length];
    for (int i = 0; i < values.length; i++) {
      boxed[i] = values[i];
    }
    return boxed;
  }

  private static void fill(VectorSchemaRoot root, Integer[] values) {
    for (FieldVector vector : root.getFieldVectors()) {
      vector.allocateNew();
      for (int i = 0; i < values.length; i++) {
        if (values[i] == null) {
          ((BaseFixedWidthVector) vector).setNull(i);
        } else {
          ((BaseIntVector) vector).setWithPossibleTruncate(i, values[i]);
        }
      }
      vector.setValueCount(values.length);
    }
    root.setRowCount(values.length);
  }

  /** Where the first record batch's body buffers and length prefixes sit in a file. */
  record BatchLayout(int blockStart, int bodyStart, long[] bufferOffsets, long[] bufferLengths, byte codec, boolean compressed) {
    int bufferStart(int i) {
      return bodyStart + (int) bufferOffsets[i];
    }
  }

  /** Locates the first record batch of an IPC file using Arrow's flatbuffer accessors. */
  static BatchLayout layout(byte[] file) {
    ByteBuffer all = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int footerLength = all.getInt(file.length - 10);
    int footerStart = file.length - 10 - footerLength;
    Footer footer =
        Footer.getRootAsFooter(ByteBuffer.wrap(file, footerStart, footerLength).slice());
    var block = footer.recordBatches(0);
    int at = (int) block.offset();
    int prefix = all.getInt(at) == -1 ? 8 : 4;
    int messageLength = all.getInt(at + prefix - 4);
    Message message = Message.getRootAsMessage(ByteBuffer.wrap(file, at + prefix, messageLength).slice());
    RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
    long[] offsets = new long[batch.buffersLength()];
    long[] lengths = new long[batch.buffersLength()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = batch.buffers(i).offset();
      lengths[i] = batch.buffers(i).length();
    }
    boolean compressed = batch.compression() != null;
    return new BatchLayout(
        at,
        at + block.metaDataLength(), offsets, lengths, compressed ? batch.compression().codec() : -1, compressed);
  }
}
