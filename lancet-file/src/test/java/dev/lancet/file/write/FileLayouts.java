package dev.lancet.file.write;

import com.google.protobuf.Any;
import com.google.protobuf.TextFormat;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The column metadata of a Lance 2.x file, parsed from the raw footer (any schema): for tests
 * that compare what the Java writer chose with what lance-core 7.0.0 chose on the same data.
 */
final class FileLayouts {
  private FileLayouts() {}

  /** The file's version and its columns' metadata, in column order. */
  record Layout(int major, int minor, List<ColumnMetadata> columns) {
    /** One line per page: rows, buffer sizes, the page layout in compact text. */
    String describe() {
      StringBuilder sb = new StringBuilder("version " + major + "." + minor + "\n");
      for (int c = 0; c < columns.size(); c++) {
        ColumnMetadata m = columns.get(c);
        sb.append("column ").append(c).append(": ").append(m.getPagesCount()).append(" pages, ")
            .append(m.getBufferSizesList().size()).append(" column buffers ")
            .append(m.getBufferSizesList()).append('\n');
        for (int p = 0; p < m.getPagesCount(); p++) {
          ColumnMetadata.Page page = m.getPages(p);
          sb.append("  page ").append(p).append(": rows ").append(page.getLength())
              .append(" buffers ").append(page.getBufferSizesList()).append(" ")
              .append(layoutText(page)).append('\n');
        }
      }
      return sb.toString();
    }
  }

  static String layoutText(ColumnMetadata.Page page) {
    Any any = page.getEncoding().getDirect().getEncoding();
    try {
      String text = TextFormat.printer().emittingSingleLine(true)
          .printToString(PageLayout.parseFrom(any.getValue()));
      return text.replaceAll("symbol_table: \"[^\"]*\"", "symbol_table: <...>");
    } catch (IOException e) {
      return any.getTypeUrl() + " (unparsed)";
    }
  }

  static Layout read(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      ByteBuffer footer = read(ch, size - 40, 40);
      footer.getLong();
      long cmoStart = footer.getLong();
      footer.getLong();
      footer.getInt();
      int numColumns = footer.getInt();
      int major = Short.toUnsignedInt(footer.getShort());
      int minor = Short.toUnsignedInt(footer.getShort());
      ByteBuffer cmo = read(ch, cmoStart, 16 * numColumns);
      List<ColumnMetadata> cols = new ArrayList<>();
      for (int i = 0; i < numColumns; i++) {
        long pos = cmo.getLong();
        long len = cmo.getLong();
        cols.add(ColumnMetadata.parseFrom(read(ch, pos, (int) len)));
      }
      return new Layout(major, minor, cols);
    }
  }

  private static ByteBuffer read(FileChannel ch, long pos, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, pos + b.position()) < 0) {
        throw new java.io.EOFException();
      }
    }
    return b.flip();
  }
}
