package dev.lancet.datafile.lance;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.format.model.DataFile;
import dev.lancet.file.schema.ColumnLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.lance.file.LanceFileWriter;

/**
 * Single Lance data files through lance-core's {@link LanceFileWriter}: the one place that opens
 * the writer, so the rolling {@link LanceCoreFileWriter} and the callers that attach a hand-made
 * file to a fragment (the demo, the interop tests) share its rules.
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
    return write(table.toAbsolutePath().toString(), Map.of(), root);
  }

  /**
   * The same for a table at any URI ({@code s3://bucket/t}, {@code az://...}, a path):
   * lance-core writes the file straight to {@code <uri>/data/<uuid>.lance} with the table's
   * storage options, and the size is read back through Lancet's store for that URI.
   */
  public static DataFile write(String tableUri, Map<String, String> storageOptions,
      VectorSchemaRoot root) {
    String name = UUID.randomUUID() + ".lance";
    String relative = "data/" + name;
    String location = FileUris.resolve(tableUri, relative);
    if (root.getFieldVectors().isEmpty()) {
      throw new IllegalArgumentException("a data file needs at least one column: " + location);
    }
    BufferAllocator alloc = root.getFieldVectors().get(0).getAllocator();
    try (ObjectStore store = ObjectStores.forUri(tableUri, storageOptions)) {
      if (store instanceof LocalObjectStore) {
        Files.createDirectories(Path.of(location).getParent());
      }
      LanceFileWriter writer = open(location, alloc, null, Optional.of(FILE_VERSION), storageOptions);
      try {
        write(writer, root, alloc, location);
      } finally {
        close(writer, location);
      }
      store.makeDurable(relative);
      return entry(name, root, store.size(relative));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the Lance data file " + location, e);
    }
  }

  private static DataFile entry(String name, VectorSchemaRoot root, long size) {
    String[] majorMinor = FILE_VERSION.split("\\.");
    return new DataFile(name, List.of(), ColumnLayout.columnIndices(root.getFieldVectors().size()),
        Integer.parseInt(majorMinor[0]), Integer.parseInt(majorMinor[1]), size);
  }

  /**
   * Writes {@code root} as one standalone Lance file at {@code file} in {@code fileVersion}
   * (null: lance-core's default) and returns its size in bytes.
   */
  public static long writeFile(Path file, VectorSchemaRoot root, String fileVersion) {
    if (root.getFieldVectors().isEmpty()) {
      throw new IllegalArgumentException("a data file needs at least one column: " + file);
    }
    BufferAllocator alloc = root.getFieldVectors().get(0).getAllocator();
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      LanceFileWriter writer = open(file.toAbsolutePath().toString(), alloc, null,
          Optional.ofNullable(fileVersion), Map.of());
      try {
        write(writer, root, alloc, file.toString());
      } finally {
        close(writer, file.toString());
      }
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the Lance data file " + file, e);
    }
  }

  /**
   * Opens a writer. {@code alloc} must be the allocator that owns the vectors later written:
   * with any other one lance-core 7.0.0 silently drops the batch and then fails on close
   * ("No schema provided").
   */
  static LanceFileWriter open(String location, BufferAllocator alloc,
      DictionaryProvider dictionaries, Optional<String> fileVersion,
      Map<String, String> storageOptions) throws IOException {
    return LanceFileWriter.open(location, alloc, dictionaries, fileVersion, storageOptions);
  }

  /** Writes one batch, first copying it into aligned buffers when lance-core would abort on it. */
  static void write(LanceFileWriter writer, VectorSchemaRoot root, BufferAllocator alloc,
      String where) throws IOException {
    if (ArrowAlignment.isAligned(root)) {
      writer.write(root);
      return;
    }
    try (VectorSchemaRoot copy = ArrowAlignment.copy(root, alloc)) {
      if (!ArrowAlignment.isAligned(copy)) {
        throw new IOException("cannot hand the batch for " + where + " to lance-core: its "
            + "buffers are not aligned even after a copy");
      }
      writer.write(copy);
    }
  }

  static void close(LanceFileWriter writer, String where) throws IOException {
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the Lance file writer for " + where, e);
    }
  }
}
