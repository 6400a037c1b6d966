package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import static dev.lancet.format.deletion.ArrowFixtures.DELETION_SCHEMA;
import static dev.lancet.format.deletion.ArrowFixtures.field;
import static dev.lancet.format.deletion.ArrowFixtures.file;
import static dev.lancet.format.deletion.ArrowFixtures.schema;
import static dev.lancet.format.deletion.ArrowFixtures.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TableProtos.DeletionFile.DeletionFileType;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.MetadataVersion;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.roaringbitmap.RoaringBitmap;

class DeletionFileFormatTest {
  private static final String NAME = "_deletions/3-7-99.arrow";

  // ---------------------------------------------------------------- round trips

  static Stream<Arguments> vectors() {
    Random random = new Random(42);
    return Stream.of(
        Arguments.of("empty", DeletionVector.empty()),
        Arguments.of("one row", DeletionVector.of(17)),
        Arguments.of("4999 sequential", DeletionVector.ofRange(0, 4999)),
        Arguments.of("5000 random", DeletionVector.of(random.ints(5000, 0, 1_000_000).distinct().toArray())),
        Arguments.of("5000 sequential", DeletionVector.ofRange(1000, 6000)),
        Arguments.of("100000 sequential", DeletionVector.ofRange(0, 100_000)),
        Arguments.of("100000 random", DeletionVector.of(random.ints(100_000, 0, Integer.MAX_VALUE).toArray())),
        Arguments.of("high u32 offsets", DeletionVector.of(-1, -2, Integer.MIN_VALUE, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void arrowRoundTrip(String label, DeletionVector vector) {
    byte[] bytes = DeletionFileFormat.writeArrow(vector);
    assertThat(DeletionFileFormat.read(bytes, DeletionFile.Kind.ARROW_ARRAY, NAME)).isEqualTo(vector);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void bitmapRoundTrip(String label, DeletionVector vector) {
    byte[] bytes = DeletionFileFormat.writeBitmap(vector);
    assertThat(DeletionFileFormat.read(bytes, DeletionFile.Kind.BITMAP, NAME)).isEqualTo(vector);
    // Exactly the portable serialization RoaringBitmap itself reads.
    RoaringBitmap independent = new RoaringBitmap();
    try {
      independent.deserialize(ByteBuffer.wrap(bytes));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThat(independent).isEqualTo(vector.toBitmap());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void arrowFileIsWhatArrowReadsAndUsesZstd(String label, DeletionVector vector) throws IOException {
    byte[] bytes = DeletionFileFormat.writeArrow(vector);
    // IPC file format: leading and trailing magic.
    assertThat(new String(bytes, 0, 6, StandardCharsets.US_ASCII)).isEqualTo("ARROW1");
    assertThat(new String(bytes, bytes.length - 6, 6, StandardCharsets.US_ASCII)).isEqualTo("ARROW1");

    try (RootAllocator allocator = new RootAllocator();
        ArrowFileReader reader =
            new ArrowFileReader(
                new ByteArrayReadableSeekableByteChannel(bytes), allocator, CommonsCompressionFactory.INSTANCE)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      Schema schema = root.getSchema();
      // Field-by-field and whole-schema equality (which includes metadata, as Lance checks).
      assertThat(schema.getFields()).hasSize(1);
      assertThat(schema.getFields().get(0).getName()).isEqualTo("row_id");
      assertThat(schema.getFields().get(0).getType()).isEqualTo(new ArrowType.Int(32, false));
      assertThat(schema.getFields().get(0).isNullable()).isFalse();
      assertThat(schema.getCustomMetadata()).isNullOrEmpty();
      assertThat(schema).isEqualTo(DELETION_SCHEMA);

      assertThat(reader.getRecordBlocks()).hasSize(1);
      assertThat(reader.loadNextBatch()).isTrue();
      UInt4Vector column = (UInt4Vector) root.getVector("row_id");
      int[] read = new int[root.getRowCount()];
      for (int i = 0; i < read.length; i++) {
        read[i] = column.get(i);
      }
      assertThat(read).containsExactly(vector.toArray());
      assertThat(reader.loadNextBatch()).isFalse();

      // The record batch declares ZSTD buffer compression.
      ArrowBlock block = reader.getRecordBlocks().get(0);
      SeekableByteChannel channel = new ByteArrayReadableSeekableByteChannel(bytes);
      channel.position(block.getOffset());
      try (ArrowRecordBatch batch =
          MessageSerializer.deserializeRecordBatch(new ReadChannel(channel), block, allocator)) {
        assertThat(batch.getBodyCompression().getCodec()).isEqualTo(CompressionType.ZSTD);
      }
    }
  }

  @Test
  void zstdActuallyShrinksTheValues() {
    // 100,000 u32 values are 400,000 raw bytes; ZSTD (level 3) only gets ~1.6x on them.
    byte[] sequential = DeletionFileFormat.writeArrow(DeletionVector.ofRange(0, 100_000));
    byte[] uncompressed =
        file(DELETION_SCHEMA, CodecType.NO_COMPRESSION, values(IntStream.range(0, 100_000).toArray()));
    assertThat(uncompressed.length).isGreaterThan(400_000);
    assertThat(sequential.length).isLessThan(300_000);
    // The data buffer is stored compressed, not raw behind a -1 prefix.
    ArrowFixtures.BatchLayout layout = ArrowFixtures.layout(sequential);
    long declared = ByteBuffer.wrap(sequential).order(ByteOrder.LITTLE_ENDIAN).getLong(layout.bufferStart(1));
    assertThat(declared).isEqualTo(400_000);
    assertThat(layout.bufferLengths()[1]).isLessThan(declared);
  }

  @Test
  void bitmapHasNoRunContainersAndStandardCookie() {
    byte[] bytes = DeletionFileFormat.writeBitmap(DeletionVector.ofRange(0, 100_000));
    int cookie = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    assertThat(cookie).isEqualTo(12346);
  }

  // ---------------------------------------------------------------- choice of form

  @Test
  void preferredKindSwitchesAtFiveThousand() {
    assertThat(DeletionFileFormat.preferredKind(0)).isEqualTo(DeletionFile.Kind.ARROW_ARRAY);
    assertThat(DeletionFileFormat.preferredKind(4999)).isEqualTo(DeletionFile.Kind.ARROW_ARRAY);
    assertThat(DeletionFileFormat.preferredKind(5000)).isEqualTo(DeletionFile.Kind.BITMAP);
    assertThat(DeletionFileFormat.preferredKind(1L << 32)).isEqualTo(DeletionFile.Kind.BITMAP);
  }

  @ParameterizedTest
  @EnumSource(DeletionFile.Kind.class)
  void kindMirrorsProtoEnum(DeletionFile.Kind kind) {
    assertThat(DeletionFile.Kind.fromWireValue(kind.wireValue(), "m")).isEqualTo(kind);
    assertThat(DeletionFile.Kind.ARROW_ARRAY.wireValue()).isEqualTo(DeletionFileType.ARROW_ARRAY.getNumber());
    assertThat(DeletionFile.Kind.BITMAP.wireValue()).isEqualTo(DeletionFileType.BITMAP.getNumber());
    assertThatThrownBy(() -> DeletionFile.Kind.fromWireValue(7, "frag 1"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("frag 1: ");
  }

  @Test
  void writeDispatchesOnKind() {
    DeletionVector v = DeletionVector.of(1, 2);
    assertThat(DeletionFileFormat.write(v, DeletionFile.Kind.ARROW_ARRAY)).startsWith("ARROW1".getBytes(StandardCharsets.US_ASCII));
    assertThat(DeletionFileFormat.write(v, DeletionFile.Kind.BITMAP)).isEqualTo(DeletionFileFormat.writeBitmap(v));
  }

  // ---------------------------------------------------------------- other valid Arrow files

  @Test
  void readsUncompressedLz4AndLegacyPrefixedFiles() {
    Integer[] rows = values(9, 1, 5, 1); // unordered, with a repeat
    DeletionVector expected = DeletionVector.of(1, 5, 9);
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.NO_COMPRESSION, rows))).isEqualTo(expected);
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.LZ4_FRAME, rows))).isEqualTo(expected);
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.ZSTD, new IpcOption(true, MetadataVersion.V5), rows)))
        .isEqualTo(expected);
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.ZSTD, new IpcOption(false, MetadataVersion.V4), rows)))
        .isEqualTo(expected);
    // Large enough that LZ4 really compresses.
    int[] many = IntStream.range(0, 20_000).map(i -> i * 3).toArray();
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.LZ4_FRAME, values(many)))).isEqualTo(DeletionVector.of(many));
  }

  @Test
  void acceptsOneEmptyBatch() {
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.ZSTD, values()))).isEqualTo(DeletionVector.empty());
    assertThat(readArrow(file(DELETION_SCHEMA, CodecType.NO_COMPRESSION, values()))).isEqualTo(DeletionVector.empty());
  }

  // ---------------------------------------------------------------- rejected Arrow files

  static Stream<Arguments> badArrowFiles() {
    Integer[] rows = values(1, 2, 3);
    return Stream.of(
        Arguments.of("random bytes", new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, "not an Arrow IPC file"),
        Arguments.of("empty input", new byte[0], "not an Arrow IPC file"),
        Arguments.of("stream format", ArrowFixtures.stream(DELETION_SCHEMA, rows), "not an Arrow IPC file"),
        Arguments.of("bitmap bytes", DeletionFileFormat.writeBitmap(DeletionVector.of(1, 2, 3)), "not an Arrow IPC file"),
        Arguments.of("column name", file(schema(field("rowid", new ArrowType.Int(32, false), false)), CodecType.ZSTD, rows), "named 'rowid'"),
        Arguments.of("signed type", file(schema(field("row_id", new ArrowType.Int(32, true), false)), CodecType.ZSTD, rows), "is Int32"),
        Arguments.of("u64 type", file(schema(field("row_id", new ArrowType.Int(64, false), false)), CodecType.ZSTD, rows), "is UInt64"),
        Arguments.of("nullable", file(schema(field("row_id", new ArrowType.Int(32, false), true)), CodecType.ZSTD, rows), "nullable"),
        Arguments.of(
            "two columns",
            file(schema(field("row_id", new ArrowType.Int(32, false), false), field("x", new ArrowType.Int(32, false), false)), CodecType.ZSTD, rows),
            "2 columns"),
        Arguments.of(
            "schema metadata",
            file(new Schema(DELETION_SCHEMA.getFields(), Map.of("k", "v")), CodecType.ZSTD, rows),
            "custom metadata"),
        Arguments.of("no batches", file(DELETION_SCHEMA, CodecType.ZSTD), "exactly one record batch, found 0"),
        Arguments.of("two batches", file(DELETION_SCHEMA, CodecType.ZSTD, rows, rows), "exactly one record batch, found 2"),
        Arguments.of("null value", file(DELETION_SCHEMA, CodecType.ZSTD, new Integer[] {1, null, 3}), "null values"),
        Arguments.of("null value, uncompressed", file(DELETION_SCHEMA, CodecType.NO_COMPRESSION, new Integer[] {null}), "null values"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArrowFiles")
  void rejectsBadArrowFiles(String label, byte[] bytes, String defect) {
    assertThatThrownBy(() -> readArrow(bytes))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(NAME + ": ")
        .hasMessageContaining(defect);
  }

  @Test
  void rejectsNullsHiddenByAZeroNullCount() {
    // Arrow readers like arrow-rs trust the validity bitmap, so a field node that claims no
    // nulls must not hide a cleared bit. Patch FieldNode{length 3, null_count 1} to null_count 0.
    for (CodecType codec : new CodecType[] {CodecType.NO_COMPRESSION, CodecType.ZSTD}) {
      byte[] bytes = file(DELETION_SCHEMA, codec, new Integer[] {4, null, 6});
      ArrowFixtures.BatchLayout layout = ArrowFixtures.layout(bytes);
      byte[] node = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(3).putLong(1).array();
      int at = indexOf(bytes, node, layout.blockStart(), layout.bodyStart());
      assertThat(at).as("field node in %s metadata", codec).isPositive();
      bytes[at + 8] = 0;
      assertThatThrownBy(() -> readArrow(bytes))
          .isInstanceOf(FormatException.class)
          .hasMessageContaining("null values are not allowed in deletion files (row 1)");
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from, int to) {
    for (int i = from; i + needle.length <= to; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void rejectsEveryTruncation() {
    byte[] bytes = DeletionFileFormat.writeArrow(DeletionVector.of(1, 2, 3, 1000));
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> readArrow(cut)).as("length %d", length).isInstanceOf(FormatException.class);
    }
  }

  @Test
  void rejectsBogusLengthsWithoutAllocating() {
    byte[] valid = DeletionFileFormat.writeArrow(DeletionVector.ofRange(0, 3000));
    ArrowFixtures.BatchLayout layout = ArrowFixtures.layout(valid);

    // Values buffer claims to decompress to 1 TiB, 2 GiB, more or less than its 3000 rows need.
    for (long declared : new long[] {1L << 40, Integer.MAX_VALUE, 3000 * 4 + 1000, 3000 * 4 - 4, -2}) {
      byte[] bytes = valid.clone();
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(layout.bufferStart(1), declared);
      assertRejectedCheaply(bytes, "values buffer declares " + declared + " uncompressed bytes; its rows need 12000");
    }
    // Within the padding allowance, the ZSTD frame header still contradicts the claim.
    byte[] padded = valid.clone();
    ByteBuffer.wrap(padded).order(ByteOrder.LITTLE_ENDIAN).putLong(layout.bufferStart(1), 3000 * 4 + 8);
    assertRejectedCheaply(padded, "its ZSTD frame holds 12000");
    // LZ4 frames carry no content size: output longer or shorter than declared is rejected.
    // (A repeated value, which the format allows, so that LZ4 really compresses the buffer.)
    byte[] lz4 = file(DELETION_SCHEMA, CodecType.LZ4_FRAME, values(IntStream.generate(() -> 7).limit(3000).toArray()));
    int lz4Values = ArrowFixtures.layout(lz4).bufferStart(1);
    assertThat(ByteBuffer.wrap(lz4).order(ByteOrder.LITTLE_ENDIAN).getLong(lz4Values)).isEqualTo(12000);
    assertThat(readArrow(lz4)).isEqualTo(DeletionVector.of(7));
    for (long declared : new long[] {3000 * 4 + 8, 1L << 40}) {
      byte[] bytes = lz4.clone();
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(lz4Values, declared);
      assertRejectedCheaply(bytes, declared < 1L << 40 ? "does not decompress to its declared" : "its rows need");
    }
    // Footer length pointing before the start of the file.
    byte[] footer = valid.clone();
    ByteBuffer.wrap(footer).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length - 10, Integer.MAX_VALUE);
    assertRejectedCheaply(footer, "footer length");
    // Message length prefix far larger than its block (after the 0xFFFFFFFF continuation).
    byte[] message = valid.clone();
    ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN).putInt(layout.blockStart() + 4, Integer.MAX_VALUE - 7);
    assertRejectedCheaply(message, "message length");
  }

  private static void assertRejectedCheaply(byte[] bytes, String defect) {
    long allocated = allocatedBytes(() -> assertThatThrownBy(() -> readArrow(bytes))
        .isInstanceOf(FormatException.class)
        .hasMessageContaining(defect));
    assertThat(allocated).as("bytes allocated while rejecting").isLessThan(4L << 20);
  }

  static long allocatedBytes(Runnable action) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    action.run();
    return threads.getCurrentThreadAllocatedBytes() - before;
  }

  private static DeletionVector readArrow(byte[] bytes) {
    return DeletionFileFormat.read(bytes, DeletionFile.Kind.ARROW_ARRAY, NAME);
  }
}
