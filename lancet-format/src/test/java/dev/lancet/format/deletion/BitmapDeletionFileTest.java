package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import static dev.lancet.format.deletion.DeletionFileFormatTest.allocatedBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** The {@code .bin} form, including hand-crafted corrupt Roaring bytes. */
class BitmapDeletionFileTest {
  private static final String NAME = "_deletions/1-2-3.bin";

  @Test
  void readsRunContainersWrittenByOtherWriters() {
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.add(0L, 70_000L); // one full and one partial container
    bitmap.add(1_000_000);
    bitmap.runOptimize();
    assertThat(read(serialize(bitmap))).isEqualTo(DeletionVector.fromBitmap(bitmap));
    // The fixture really uses the run-container cookie.
    assertThat(ByteBuffer.wrap(serialize(bitmap)).order(ByteOrder.LITTLE_ENDIAN).getShort(0)).isEqualTo((short) 12347);
  }

  @Test
  void readsEmptyBitmap() {
    byte[] empty = le(12346, 0);
    assertThat(read(empty)).isEqualTo(DeletionVector.empty());
  }

  @Test
  void handBuiltArrayContainer() {
    // cookie, 1 container, key 1 with 2 values, one offset, values 5 and 9 -> 65541, 65545
    ByteBuffer b = buf(8 + 4 + 4 + 4);
    b.putInt(12346).putInt(1).putShort((short) 1).putShort((short) 1).putInt(16).putShort((short) 5).putShort((short) 9);
    assertThat(read(b.array()).toArray()).containsExactly(65541, 65545);
  }

  @Test
  void rejectsBadCookie() {
    assertRejected(le(12345, 0), "cookie");
    assertRejected(new byte[] {1, 2}, "truncated");
    assertRejected(new byte[0], "truncated");
  }

  @Test
  void rejectsContainerCountAbove65536() {
    assertRejected(le(12346, 65537), "exceeds 65536");
    assertRejected(le(12346, -1), "exceeds 65536");
  }

  @Test
  void hugeClaimedContentIsRejectedWithoutAllocating() {
    // 65536 containers, each claiming 65536 values (bitmap containers, 8 KiB each = 512 MiB),
    // with every header present but no container data at all.
    ByteBuffer b = buf(8 + 65536 * 8);
    b.putInt(12346).putInt(65536);
    for (int key = 0; key < 65536; key++) {
      b.putShort((short) key).putShort((short) 0xFFFF);
    }
    for (int i = 0; i < 65536; i++) {
      b.putInt(0);
    }
    byte[] bytes = b.array();
    long allocated = allocatedBytes(() -> assertRejected(bytes, "truncated"));
    assertThat(allocated).isLessThan(4L << 20);

    // Same with the run cookie: 65536 run containers each claiming 65535 runs.
    ByteBuffer r = buf(4 + 8192 + 65536 * 8 + 2);
    r.putInt(12347 | 0xFFFF << 16);
    for (int i = 0; i < 8192; i++) {
      r.put((byte) 0xFF);
    }
    for (int key = 0; key < 65536; key++) {
      r.putShort((short) key).putShort((short) 0xFFFF);
    }
    for (int i = 0; i < 65536; i++) {
      r.putInt(0);
    }
    r.putShort((short) 0xFFFF);
    byte[] runs = r.array();
    assertThat(allocatedBytes(() -> assertRejected(runs, "truncated"))).isLessThan(4L << 20);
  }

  @Test
  void rejectsUnsortedArrayContainer() {
    ByteBuffer b = buf(8 + 4 + 4 + 4);
    b.putInt(12346).putInt(1).putShort((short) 0).putShort((short) 1).putInt(16).putShort((short) 9).putShort((short) 5);
    assertRejected(b.array(), "not strictly ascending");
  }

  @Test
  void rejectsUnsortedKeys() {
    ByteBuffer b = buf(8 + 8 + 8 + 4);
    b.putInt(12346).putInt(2);
    b.putShort((short) 5).putShort((short) 0).putShort((short) 5).putShort((short) 0);
    b.putInt(24).putInt(26).putShort((short) 1).putShort((short) 2);
    assertRejected(b.array(), "keys");
  }

  @Test
  void rejectsBitmapContainerWithWrongPopcount() {
    // One bitmap container (the writer never emits run containers).
    byte[] bytes = DeletionFileFormat.writeBitmap(DeletionVector.ofRange(0, 5000));
    bytes[bytes.length - 1] = (byte) 0xFF; // sets 8 extra bits
    assertRejected(bytes, "bits set");
  }

  @Test
  void rejectsOverlappingRuns() {
    // run cookie, 1 container (flag set), header key 0 card 20, no offsets (< 4 containers)
    ByteBuffer b = buf(4 + 1 + 4 + 2 + 8);
    b.putInt(12347).put((byte) 1).putShort((short) 0).putShort((short) 19);
    b.putShort((short) 2).putShort((short) 0).putShort((short) 9).putShort((short) 5).putShort((short) 9);
    assertRejected(b.array(), "overlapping");
  }

  @Test
  void rejectsRunPastContainerEnd() {
    ByteBuffer b = buf(4 + 1 + 4 + 2 + 4);
    b.putInt(12347).put((byte) 1).putShort((short) 0).putShort((short) 9);
    b.putShort((short) 1).putShort((short) 0xFFFB).putShort((short) 9);
    assertRejected(b.array(), "past 65535");
  }

  @Test
  void rejectsRunCardinalityMismatch() {
    ByteBuffer b = buf(4 + 1 + 4 + 2 + 4);
    b.putInt(12347).put((byte) 1).putShort((short) 0).putShort((short) 3);
    b.putShort((short) 1).putShort((short) 10).putShort((short) 9);
    assertRejected(b.array(), "covers 10 values but claims 4");
  }

  @Test
  void rejectsTrailingBytes() {
    byte[] valid = DeletionFileFormat.writeBitmap(DeletionVector.of(1, 2, 3));
    assertRejected(Arrays.copyOf(valid, valid.length + 1), "unexpected bytes");
  }

  @Test
  void rejectsEveryTruncation() {
    RoaringBitmap mixed = RoaringBitmap.bitmapOf(1, 5, 70_000);
    mixed.add(200_000L, 260_000L);
    mixed.runOptimize();
    for (byte[] valid : new byte[][] {DeletionFileFormat.writeBitmap(DeletionVector.fromBitmap(mixed)), serialize(mixed)}) {
      for (int length = 0; length < valid.length; length++) {
        byte[] cut = Arrays.copyOf(valid, length);
        assertThatThrownBy(() -> read(cut)).as("length %d", length).isInstanceOf(FormatException.class);
      }
    }
  }

  private static void assertRejected(byte[] bytes, String defect) {
    assertThatThrownBy(() -> read(bytes))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(NAME + ": ")
        .hasMessageContaining(defect)
        .satisfies(e -> assertThat(((FormatException) e).file()).isEqualTo(NAME));
  }

  private static DeletionVector read(byte[] bytes) {
    return DeletionFileFormat.read(bytes, DeletionFile.Kind.BITMAP, NAME);
  }

  static byte[] serialize(RoaringBitmap bitmap) {
    ByteBuffer b = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(b);
    return b.array();
  }

  private static ByteBuffer buf(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static byte[] le(int... ints) {
    ByteBuffer b = buf(4 * ints.length);
    for (int i : ints) {
      b.putInt(i);
    }
    return b.array();
  }
}
