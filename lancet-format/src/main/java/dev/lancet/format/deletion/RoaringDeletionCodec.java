package dev.lancet.format.deletion;

import dev.lancet.format.FormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.roaringbitmap.RoaringBitmap;

/**
 * The {@code .bin} form: a 32-bit Roaring bitmap in the portable serialization
 * (https://github.com/RoaringBitmap/RoaringFormatSpec).
 *
 * <p>RoaringBitmap's own deserializer trusts its input (unsorted arrays or wrong cardinalities
 * give a silently broken bitmap), so every structural rule is checked here first, reading only
 * fixed-size fields and never allocating from a length field. Only then is the library asked to
 * build the bitmap.
 */
final class RoaringDeletionCodec {
  private static final int COOKIE_NO_RUNS = 12346;
  private static final int COOKIE_RUNS = 12347;
  // Containers with more values than this are stored as 1024 64-bit words.
  private static final int ARRAY_MAX = 4096;
  private static final int BITMAP_BYTES = 8192;
  // With runs and fewer containers than this, the offset header is omitted.
  private static final int NO_OFFSET_THRESHOLD = 4;

  private RoaringDeletionCodec() {}

  static byte[] write(DeletionVector vector) {
    RoaringBitmap bitmap = vector.toBitmap();
    // Run containers need roaring-rs >= 0.10.x to read; array/bitmap containers are read by
    // every Lance version, so write only those.
    bitmap.removeRunCompression();
    ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    bitmap.serialize(out);
    return out.array();
  }

  static DeletionVector read(byte[] bytes, String file) {
    long cardinality = validate(bytes, file);
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException | RuntimeException e) {
      // Not expected after validation; kept so no library exception escapes unwrapped.
      throw new FormatException(file, "corrupt Roaring bitmap: " + e.getMessage(), e);
    }
    if (bitmap.getLongCardinality() != cardinality) {
      throw new FormatException(file, "Roaring bitmap cardinality does not match its header");
    }
    return DeletionVector.adopt(bitmap);
  }

  /** Checks the whole layout; returns the total cardinality. */
  private static long validate(byte[] bytes, String file) {
    Reader in = new Reader(bytes, file);
    int cookie = in.i32("cookie");
    boolean hasRuns;
    int containers;
    if ((cookie & 0xFFFF) == COOKIE_RUNS) {
      hasRuns = true;
      containers = (cookie >>> 16) + 1;
    } else if (cookie == COOKIE_NO_RUNS) {
      hasRuns = false;
      int count = in.i32("container count");
      // At most 2^16 containers exist (one per high 16 bits); this also bounds all loops below.
      if (count < 0 || count > 65536) {
        throw new FormatException(file, "Roaring container count " + Integer.toUnsignedString(count) + " exceeds 65536");
      }
      containers = count;
    } else {
      throw new FormatException(
          file, String.format("not a portable Roaring bitmap (cookie 0x%08x)", cookie));
    }
    int runFlagsAt = in.pos;
    if (hasRuns) {
      in.skip((containers + 7) / 8, "run flags");
    }
    int headerAt = in.pos;
    in.skip(4L * containers, "container headers");
    if (!hasRuns || containers >= NO_OFFSET_THRESHOLD) {
      // Offsets are redundant with the sizes below; like other readers we do not use them.
      in.skip(4L * containers, "container offsets");
    }

    long total = 0;
    int previousKey = -1;
    for (int i = 0; i < containers; i++) {
      int key = in.u16At(headerAt + 4 * i);
      int cardinality = in.u16At(headerAt + 4 * i + 2) + 1;
      if (key <= previousKey) {
        throw new FormatException(file, "Roaring container keys are not strictly ascending at container " + i);
      }
      previousKey = key;
      boolean isRun = hasRuns && (bytes[runFlagsAt + i / 8] & (1 << (i % 8))) != 0;
      if (isRun) {
        validateRuns(in, cardinality, i);
      } else if (cardinality <= ARRAY_MAX) {
        validateArray(in, cardinality, i);
      } else {
        validateBitmap(in, cardinality, i);
      }
      total += cardinality;
    }
    if (in.pos != bytes.length) {
      throw new FormatException(
          file, (bytes.length - in.pos) + " unexpected bytes after the Roaring bitmap");
    }
    return total;
  }

  private static void validateArray(Reader in, int cardinality, int container) {
    in.require(2L * cardinality, "array container " + container);
    int previous = -1;
    for (int j = 0; j < cardinality; j++) {
      int value = in.u16();
      if (value <= previous) {
        throw new FormatException(in.file, "Roaring array container " + container + " is not strictly ascending");
      }
      previous = value;
    }
  }

  private static void validateBitmap(Reader in, int cardinality, int container) {
    in.require(BITMAP_BYTES, "bitmap container " + container);
    int ones = 0;
    for (int w = 0; w < BITMAP_BYTES / 8; w++) {
      ones += Long.bitCount(in.i64());
    }
    if (ones != cardinality) {
      throw new FormatException(
          in.file,
          "Roaring bitmap container " + container + " has " + ones + " bits set but claims " + cardinality);
    }
  }

  private static void validateRuns(Reader in, int cardinality, int container) {
    int runs = in.u16();
    in.require(4L * runs, "run container " + container);
    long covered = 0;
    int previousEnd = -1;
    for (int r = 0; r < runs; r++) {
      int start = in.u16();
      int end = start + in.u16(); // inclusive
      if (end > 0xFFFF) {
        throw new FormatException(in.file, "Roaring run container " + container + " runs past 65535");
      }
      if (start <= previousEnd) {
        throw new FormatException(in.file, "Roaring run container " + container + " has overlapping or unsorted runs");
      }
      previousEnd = end;
      covered += end - start + 1;
    }
    if (covered != cardinality) {
      throw new FormatException(
          in.file,
          "Roaring run container " + container + " covers " + covered + " values but claims " + cardinality);
    }
  }

  /** Little-endian cursor that reports truncation as a FormatException. */
  private static final class Reader {
    final byte[] bytes;
    final String file;
    int pos;

    Reader(byte[] bytes, String file) {
      this.bytes = bytes;
      this.file = file;
    }

    void require(long n, String what) {
      if (n > bytes.length - pos) {
        throw new FormatException(file, "Roaring bitmap truncated in " + what);
      }
    }

    void skip(long n, String what) {
      require(n, what);
      pos += (int) n;
    }

    int u16At(int at) {
      return (bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8;
    }

    int u16() {
      require(2, "container data");
      int v = u16At(pos);
      pos += 2;
      return v;
    }

    int i32(String what) {
      require(4, what);
      int v = u16At(pos) | u16At(pos + 2) << 16;
      pos += 4;
      return v;
    }

    long i64() {
      long lo = i32("container data") & 0xFFFF_FFFFL;
      long hi = i32("container data") & 0xFFFF_FFFFL;
      return lo | hi << 32;
    }
  }
}
