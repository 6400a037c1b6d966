package dev.lancet.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads an operation file given on the command line: a regular file (a directory, FIFO or device
 * is refused by name, never opened: reading a FIFO could block forever), no larger than the
 * limit (checked before reading, so a 3 GiB file is refused, not read), in UTF-8 (an invalid
 * byte is reported with its offset).
 */
final class OperationFiles {
  private OperationFiles() {}

  static String read(Path file, long maxBytes) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new CliException("operation file " + file + " does not exist");
    }
    if (attributes.isDirectory()) {
      throw new CliException("operation file " + file + " is a directory; give the JSON file itself");
    }
    if (!attributes.isRegularFile()) {
      throw new CliException("operation file " + file + " is not a regular file (a FIFO, socket or "
          + "device?); write the operation to a file and give that");
    }
    if (attributes.size() > maxBytes) {
      throw new CliException("operation file " + file + " is " + attributes.size() + " bytes, more "
          + "than the " + maxBytes + " bytes read (--max-file-bytes)");
    }
    byte[] bytes;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > maxBytes) {
        throw new CliException("operation file " + file + " is " + size + " bytes, more than the "
            + maxBytes + " bytes read (--max-file-bytes)");
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) size);
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // keep reading
      }
      bytes = buffer.array();
    }
    return utf8(file, bytes);
  }

  /** Strict UTF-8: a malformed or unmappable byte is an error naming its offset. */
  private static String utf8(Path file, byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new CliException("operation file " + file + " is not valid UTF-8: byte offset "
          + in.position() + " begins an invalid sequence; save the file as UTF-8");
    }
    decoder.flush(out);
    out.flip();
    return out.toString();
  }
}
