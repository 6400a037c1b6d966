package dev.lancet.demo;

import dev.lancet.format.model.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.file.LanceFileWriter;

/**
 * Writes real Lance data files with lance-core's {@link LanceFileWriter} and describes them as
 * Lancet {@link DataFile} entries, ready for an {@code AddDataFile} action. The kernel never
 * sees a data file's bytes; this is the one place that produces them.
 */
public final class LanceDataFiles {
  /** The Lance file version lance-core 7.0.0 writes by default. */
  public static final String FILE_VERSION = "2.1";

  private LanceDataFiles() {}

  /**
   * Writes {@code root} as a new file under {@code table/data/} and returns its entry: the
   * file's columns are the root's fields in order (column indices 0..n-1; the field ids are
   * bound by the AddDataFile action). Every root field must be a primitive (one column each).
   */
  public static DataFile write(Path table, VectorSchemaRoot root) {
    return write(DemoLocation.local(table), root);
  }

  /**
   * The same at any location: lance-core writes the file straight to the table's URI (for
   * example {@code s3://bucket/t/data/<uuid>.lance}) with the table's storage options.
   */
  public static DataFile write(DemoLocation table, VectorSchemaRoot root) {
    String name = UUID.randomUUID() + ".lance";
    long size = table.isLocal()
        ? writeFile(Path.of(table.file("data/" + name)), root, FILE_VERSION)
        : writeRemote(table, "data/" + name, root);
    String[] majorMinor = FILE_VERSION.split("\\.");
    List<Integer> columns = IntStream.range(0, root.getFieldVectors().size()).boxed().toList();
    return new DataFile(name, List.of(), columns, Integer.parseInt(majorMinor[0]),
        Integer.parseInt(majorMinor[1]), size);
  }

  /**
   * Writes {@code root} as one standalone Lance file at {@code file} in {@code fileVersion}
   * and returns its size in bytes.
   */
  public static long writeFile(Path file, VectorSchemaRoot root, String fileVersion) {
    if (root.getFieldVectors().isEmpty()) {
      throw new IllegalArgumentException("a data file needs at least one column: " + file);
    }
    // Export with the allocator that owns the vectors: with any other one lance-core 7.0.0
    // silently drops the batch and then fails on close ("No schema provided").
    BufferAllocator alloc = root.getFieldVectors().get(0).getAllocator();
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      LanceFileWriter writer = LanceFileWriter.open(file.toAbsolutePath().toString(), alloc, null,
          Optional.ofNullable(fileVersion), Map.of());
      try {
        writer.write(root);
      } finally {
        close(writer, file);
      }
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the Lance data file " + file, e);
    }
  }

  private static long writeRemote(DemoLocation table, String relative, VectorSchemaRoot root) {
    BufferAllocator alloc = root.getFieldVectors().get(0).getAllocator();
    try {
      LanceFileWriter writer = LanceFileWriter.open(table.file(relative), alloc, null, Optional.of(FILE_VERSION),
          table.storageOptions());
      try {
        writer.write(root);
      } finally {
        close(writer, table.file(relative));
      }
      try (dev.lancet.core.store.ObjectStore store = table.store()) {
        return store.size(relative);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing the Lance data file " + table.file(relative), e);
    }
  }

  private static void close(LanceFileWriter writer, Object file) throws IOException {
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the Lance file writer for " + file, e);
    }
  }
}
