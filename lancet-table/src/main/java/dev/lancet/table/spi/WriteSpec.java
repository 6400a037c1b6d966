package dev.lancet.table.spi;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.model.Field;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What to write: batches of {@code arrowSchema} whose fields are the Lance {@code fields}
 * (table field ids, pre-order, one per Arrow field and child), as files of Lance file version
 * {@code fileVersion} under {@code directory} of the table at {@code tableUri}, each holding at
 * most {@code maxRowsPerFile} rows and about {@code maxBytesPerFile} bytes.
 *
 * @param directory the directory relative to the table root, normally {@code "data"}
 * @param storageOptions the table's storage options (the keys lance-core uses)
 * @param store the table's object store (the writer deletes its files through it on abort)
 * @param dictionaries the dictionaries of dictionary-encoded columns, if any
 * @param fileNamePrefix what each new file's name starts with (before its random part), so a
 *     coordinator can find every file of its write, reported or not; usually empty
 */
public record WriteSpec(
    String tableUri,
    Map<String, String> storageOptions,
    ObjectStore store,
    String directory,
    Schema arrowSchema,
    List<Field> fields,
    String fileVersion,
    long maxRowsPerFile,
    long maxBytesPerFile,
    BufferAllocator allocator,
    java.util.Optional<DictionaryProvider> dictionaries,
    String fileNamePrefix) {

  public WriteSpec {
    Objects.requireNonNull(tableUri, "tableUri");
    storageOptions = Map.copyOf(storageOptions);
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(arrowSchema, "arrowSchema");
    fields = List.copyOf(fields);
    Objects.requireNonNull(fileVersion, "fileVersion");
    if (maxRowsPerFile <= 0) {
      throw new IllegalArgumentException("maxRowsPerFile must be positive, not " + maxRowsPerFile);
    }
    if (maxBytesPerFile <= 0) {
      throw new IllegalArgumentException("maxBytesPerFile must be positive, not " + maxBytesPerFile);
    }
    Objects.requireNonNull(allocator, "allocator");
    Objects.requireNonNull(dictionaries, "dictionaries");
    Objects.requireNonNull(fileNamePrefix, "fileNamePrefix");
    if (fileNamePrefix.contains("/")) {
      throw new IllegalArgumentException("a file name prefix names no directory: " + fileNamePrefix);
    }
  }

  /** A spec whose files are named at random, with nothing before the random part. */
  public WriteSpec(String tableUri, Map<String, String> storageOptions, ObjectStore store,
      String directory, Schema arrowSchema, List<Field> fields, String fileVersion,
      long maxRowsPerFile, long maxBytesPerFile, BufferAllocator allocator,
      java.util.Optional<DictionaryProvider> dictionaries) {
    this(tableUri, storageOptions, store, directory, arrowSchema, fields, fileVersion,
        maxRowsPerFile, maxBytesPerFile, allocator, dictionaries, "");
  }
}
