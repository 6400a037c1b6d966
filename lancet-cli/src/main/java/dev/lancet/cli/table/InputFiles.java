package dev.lancet.cli.table;

import dev.lancet.cli.CliException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Opens the {@code --from FILE} of a table command as an {@link ArrowReader}: an Arrow IPC file
 * (it starts with {@code ARROW1}), an Arrow IPC stream (it starts with the continuation marker
 * or a schema message), or CSV with a header row. The format is told by the content, or forced
 * with {@code --input-format}; a file that is none of them is an error naming what was found.
 */
public final class InputFiles {
  /** The input formats. */
  public enum Format { ARROW_FILE, ARROW_STREAM, CSV }

  private static final byte[] ARROW_MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};

  private InputFiles() {}

  /** Parses {@code --input-format} ("arrow-file", "arrow-stream", "csv"). */
  public static Format parseFormat(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "arrow-file", "arrow", "ipc", "feather" -> Format.ARROW_FILE;
      case "arrow-stream", "stream" -> Format.ARROW_STREAM;
      case "csv" -> Format.CSV;
      default -> throw new CliException("unknown input format '" + s + "'; use arrow-file, "
          + "arrow-stream or csv");
    };
  }

  /**
   * Opens {@code file}. For CSV, {@code target} is the table's schema when appending (values are
   * converted to it); without one the column types are inferred from the values.
   */
  public static ArrowReader open(Path file, Optional<Format> forced, Optional<Schema> target,
      BufferAllocator allocator) throws IOException {
    existing(file);
    Format format = forced.isPresent() ? forced.get() : sniff(file);
    switch (format) {
      case ARROW_FILE -> {
        ArrowFileReader r = new ArrowFileReader(FileChannel.open(file, StandardOpenOption.READ),
            allocator);
        return checked(r, file, "an Arrow IPC file");
      }
      case ARROW_STREAM -> {
        ArrowStreamReader r = new ArrowStreamReader(Files.newInputStream(file), allocator);
        return checked(r, file, "an Arrow IPC stream");
      }
      default -> {
        Schema schema = target.isPresent() ? target.get() : CsvReader.inferSchema(file);
        return new CsvReader(file, schema, allocator, CsvReader.DEFAULT_BATCH);
      }
    }
  }

  /**
   * Opens {@code file} as rows of some of {@code target}'s columns (a partial merge insert): an
   * Arrow file or stream as it is; CSV converted to the types of the table's columns its header
   * names, in table order (a header column the table does not have is an error).
   */
  public static ArrowReader openColumnsOf(Path file, Optional<Format> forced, Schema target,
      BufferAllocator allocator) throws IOException {
    Format format = forced.isPresent() ? forced.get() : sniff(existing(file));
    if (format != Format.CSV) {
      return open(file, Optional.of(format), Optional.of(target), allocator);
    }
    List<String> header = CsvReader.header(file);
    List<String> unknown = new java.util.ArrayList<>(header);
    target.getFields().forEach(f -> unknown.remove(f.getName()));
    if (!unknown.isEmpty()) {
      throw new CliException(file + " has columns the table does not: " + String.join(", ",
          unknown));
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = new java.util.ArrayList<>();
    for (org.apache.arrow.vector.types.pojo.Field f : target.getFields()) {
      if (header.contains(f.getName())) {
        fields.add(f);
      }
    }
    return new CsvReader(file, new Schema(fields), allocator, CsvReader.DEFAULT_BATCH);
  }

  private static Path existing(Path file) {
    if (Files.isDirectory(file)) {
      throw new CliException("input file " + file + " is a directory; give a file");
    }
    if (!Files.exists(file)) {
      throw new CliException("input file " + file + " does not exist");
    }
    if (!Files.isRegularFile(file)) {
      throw new CliException("input file " + file + " is not a regular file (a device or a "
          + "pipe, which Lancet does not read to the end); give a file");
    }
    return file;
  }

  private static ArrowReader checked(ArrowReader r, Path file, String what) throws IOException {
    try {
      r.getVectorSchemaRoot();
      return r;
    } catch (IOException | RuntimeException e) {
      r.close();
      throw new CliException(file + " is not " + what + " Lancet can read: " + e.getMessage(), e);
    }
  }

  /** The format of {@code file} by its first bytes; CSV when it is text. */
  static Format sniff(Path file) throws IOException {
    byte[] head = new byte[8];
    int n;
    try (InputStream in = Files.newInputStream(file)) {
      n = in.readNBytes(head, 0, head.length);
    }
    if (n >= 6 && Arrays.equals(Arrays.copyOf(head, 6), ARROW_MAGIC)) {
      return Format.ARROW_FILE;
    }
    if (n >= 4 && (head[0] & 0xFF) == 0xFF && (head[1] & 0xFF) == 0xFF && (head[2] & 0xFF) == 0xFF
        && (head[3] & 0xFF) == 0xFF) {
      return Format.ARROW_STREAM;
    }
    for (int i = 0; i < n; i++) {
      int b = head[i] & 0xFF;
      if (b < 0x09 || (b > 0x0D && b < 0x20 && b != 0x1B)) {
        throw new CliException(file + " is neither an Arrow IPC file or stream nor CSV text (it "
            + "starts with binary bytes); pass --input-format if it is one of them");
      }
    }
    if (n == 0) {
      throw new CliException(file + " is empty; it needs a CSV header row or Arrow data");
    }
    return Format.CSV;
  }
}
