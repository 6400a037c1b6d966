package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;
import dev.lancet.file.read.v20.LanceFile20;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens a Lance data file with the Java reader of its version. */
public final class LanceDataFiles {
  private LanceDataFiles() {}

  /**
   * Opens {@code path} with the reader its footer's version names: 2.1 is {@link LanceFile};
   * 2.0 (which lance-core writes as 0.3, or 2.0) is {@link LanceFile20}.
   *
   * @throws UnsupportedFileException for another version, or a file the reader does not map
   * @throws CorruptFileException when the file contradicts itself
   */
  public static LanceDataFile open(Path path) throws IOException {
    LanceFileFooter footer;
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < LanceFileFooter.SIZE) {
        throw new CorruptFileException(path + ": " + size + " bytes is too short for a Lance "
            + "file (its footer alone is " + LanceFileFooter.SIZE + " bytes)");
      }
      ByteBuffer tail = ByteBuffer.allocate(LanceFileFooter.SIZE).order(ByteOrder.LITTLE_ENDIAN);
      while (tail.hasRemaining()) {
        if (ch.read(tail, size - LanceFileFooter.SIZE + tail.position()) < 0) {
          throw new EOFException(path + ": the file ended while reading its footer");
        }
      }
      footer = LanceFileFooter.parse(tail.flip(), size, path.toString());
    }
    if (footer.major() == 2 && footer.minor() == 1) {
      return LanceFile.open(path);
    }
    if (footer.major() == 2 && footer.minor() == 0 || footer.major() == 0 && footer.minor() == 3) {
      return LanceFile20.open(path);
    }
    throw new UnsupportedFileException(path + ": Lance file version " + footer.version()
        + "; the Java reader reads 2.0 and 2.1");
  }
}
