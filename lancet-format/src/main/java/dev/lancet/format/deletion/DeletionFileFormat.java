package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.FormatException;

/**
 * Reads and writes the contents of deletion files (format-facts §1.3, §5.1).
 *
 * <ul>
 *   <li>{@link DeletionFile.Kind#ARROW_ARRAY} ({@code .arrow}): an Arrow IPC file with exactly one
 *       record batch of one non-nullable UInt32 column {@code row_id}, ZSTD-compressed buffers.
 *   <li>{@link DeletionFile.Kind#BITMAP} ({@code .bin}): a portable 32-bit Roaring bitmap.
 * </ul>
 *
 * <p>Readers accept both forms whatever their size. They never trust a length field before
 * checking it against the bytes present, so corrupt or hostile input ends in a {@link
 * FormatException} naming the file and the defect, never in another exception or a large
 * allocation.
 */
public final class DeletionFileFormat {
  /**
   * Lance's {@code BITMAP_THRESDHOLD} (rust/lance-core/src/utils/deletion.rs): deletion vectors
   * of this many rows or more are kept, and written, as bitmaps.
   */
  public static final int BITMAP_THRESHOLD = 5000;

  private DeletionFileFormat() {}

  /**
   * The form Lance would write for a vector of {@code cardinality} rows built in one go.
   *
   * <p>Lance keeps an in-memory vector as a hash set (written as {@code .arrow}) or a bitmap
   * (written as {@code .bin}). A vector collected from an iterator whose size is known to be at
   * least 5000 becomes a bitmap at once, so 5000 rows gives {@link DeletionFile.Kind#BITMAP}; that
   * is the rule here. Lance's other path, growing a set, only promotes it once it holds
   * <em>more</em> than 5000 rows, and a bitmap never demotes, so Lance may write a 5000-row
   * {@code .arrow} file or a small {@code .bin} one; readers must accept both forms at any size.
   */
  public static DeletionFile.Kind preferredKind(long cardinality) {
    return cardinality >= BITMAP_THRESHOLD ? DeletionFile.Kind.BITMAP : DeletionFile.Kind.ARROW_ARRAY;
  }

  /** Writes {@code vector} in the given form. */
  public static byte[] write(DeletionVector vector, DeletionFile.Kind kind) {
    return switch (kind) {
      case ARROW_ARRAY -> writeArrow(vector);
      case BITMAP -> writeBitmap(vector);
    };
  }

  /**
   * An Arrow IPC file (file format, not stream) with one record batch whose only column is the
   * non-nullable UInt32 {@code row_id}, offsets in ascending order, buffers compressed with ZSTD.
   */
  public static byte[] writeArrow(DeletionVector vector) {
    return ArrowDeletionCodec.write(vector);
  }

  /** The portable Roaring serialization, using only array and bitmap containers. */
  public static byte[] writeBitmap(DeletionVector vector) {
    return RoaringDeletionCodec.write(vector);
  }

  /**
   * Reads a deletion file.
   *
   * <p>{@code .arrow} files may be uncompressed or use ZSTD or LZ4_FRAME buffer compression; the
   * values may be in any order and may repeat. A batch of zero rows is an empty vector.
   *
   * @param fileName names the file in errors
   * @throws FormatException naming {@code fileName} if the bytes are not a valid deletion file of
   *     that kind
   */
  public static DeletionVector read(byte[] bytes, DeletionFile.Kind kind, String fileName) {
    return switch (kind) {
      case ARROW_ARRAY -> ArrowDeletionCodec.read(bytes, fileName);
      case BITMAP -> RoaringDeletionCodec.read(bytes, fileName);
    };
  }
}
