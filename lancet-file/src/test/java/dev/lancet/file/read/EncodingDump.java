package dev.lancet.file.read;

import com.google.protobuf.TextFormat;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The page layouts of a file's columns as text: to see what lance-core wrote. */
final class EncodingDump {
  private EncodingDump() {}

  static List<String> columns(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    try (FileChannel ch = FileChannel.open(file)) {
      long size = ch.size();
      ByteBuffer tail = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(tail, size - 40);
      tail.flip();
      LanceFileFooter f = LanceFileFooter.parse(tail, size, file.toString());
      ByteBuffer cmo = ByteBuffer.allocate(16 * f.numColumns()).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(cmo, f.columnMetadataOffsetsStart());
      cmo.flip();
      for (int c = 0; c < f.numColumns(); c++) {
        long pos = cmo.getLong();
        long len = cmo.getLong();
        ByteBuffer m = ByteBuffer.allocate((int) len);
        ch.read(m, pos);
        m.flip();
        ColumnMetadata meta = ColumnMetadata.parseFrom(m);
        StringBuilder sb = new StringBuilder("column " + c + ": " + meta.getPagesCount()
            + " pages, column buffers " + meta.getBufferSizesList() + "\n");
        for (int p = 0; p < Math.min(3, meta.getPagesCount()); p++) {
          var page = meta.getPages(p);
          PageLayout l = PageLayout.parseFrom(page.getEncoding().getDirect().getEncoding()
              .getValue());
          String text = TextFormat.printer().shortDebugString(l);
          text = text.replaceAll("symbol_table: \"[^\"]*\"", "symbol_table: ...");
          sb.append("  page ").append(p).append(" rows ").append(page.getLength())
              .append(" buffers ").append(page.getBufferSizesList()).append(": ").append(text)
              .append('\n');
        }
        out.add(sb.toString());
      }
    }
    return out;
  }
}
