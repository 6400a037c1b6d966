package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fixed 40-byte tail of a Lance 2.x data file (upstream {@code protos/file2.proto}, "File
 * Layout"): where the column metadata, its offset table and the global-buffer offset table
 * start, how many global buffers and columns there are, and the format version.
 */
public record LanceFileFooter(long columnMetadataStart, long columnMetadataOffsetsStart,
    long globalBufferOffsetsStart, int numGlobalBuffers, int numColumns, int major, int minor) {
  public static final int SIZE = 40;
  private static final int MAGIC = 'L' | 'A' << 8 | 'N' << 16 | 'C' << 24;

  /**
   * Parses and checks the footer of a file of {@code fileSize} bytes: magic, version, and that
   * every region lies inside the file, in order, with room for its table entries.
   */
  public static LanceFileFooter parse(ByteBuffer tail, long fileSize, String where)
      throws CorruptFileException {
    ByteBuffer b = tail.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() != SIZE) {
      throw new CorruptFileException(where + ": the footer must be " + SIZE + " bytes");
    }
    long cmStart = b.getLong();
    long cmoStart = b.getLong();
    long gboStart = b.getLong();
    long numGlobal = Integer.toUnsignedLong(b.getInt());
    long numColumns = Integer.toUnsignedLong(b.getInt());
    int major = Short.toUnsignedInt(b.getShort());
    int minor = Short.toUnsignedInt(b.getShort());
    int magic = b.getInt();
    if (magic != MAGIC) {
      throw new CorruptFileException(where + ": not a Lance file (the last 4 bytes are not "
          + "\"LANC\")");
    }
    long footerStart = fileSize - SIZE;
    // Regions: column metadata [cmStart, cmoStart), its offset table [cmoStart, cmoStart +
    // 16 * columns), global buffers, then the global-buffer offset table up to the footer.
    if (cmStart < 0 || cmoStart < cmStart || gboStart < cmoStart || gboStart > footerStart) {
      throw new CorruptFileException(where + ": footer regions out of order or past the end "
          + "(column metadata at " + Long.toUnsignedString(cmStart) + ", its offset table at "
          + Long.toUnsignedString(cmoStart) + ", global buffer table at "
          + Long.toUnsignedString(gboStart) + ", footer at " + footerStart + ")");
    }
    if (numColumns * 16 > gboStart - cmoStart) {
      throw new CorruptFileException(where + ": " + numColumns + " columns do not fit in the "
          + "column metadata offset table (" + (gboStart - cmoStart) + " bytes)");
    }
    if (numGlobal * 16 != footerStart - gboStart) {
      throw new CorruptFileException(where + ": " + numGlobal + " global buffers, but the "
          + "global buffer offset table holds " + (footerStart - gboStart) + " bytes");
    }
    return new LanceFileFooter(cmStart, cmoStart, gboStart, (int) numGlobal, (int) numColumns,
        major, minor);
  }

  public String version() {
    return major + "." + minor;
  }
}
