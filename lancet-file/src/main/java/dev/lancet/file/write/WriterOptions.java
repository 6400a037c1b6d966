package dev.lancet.file.write;

/**
 * How a {@link LanceFileWriter} writes.
 *
 * @param pageBytes a column's values are buffered until they reach about this many bytes, then
 *     written as one page (lance-core 7.0.0 buffers 8 MiB per column)
 * @param durable force the file to the device when it is finished
 * @param dictionary allow dictionary encoding of low-cardinality string and binary pages
 * @param fsst allow FSST compression of string and binary pages; off by default: it costs
 *     about 0.3 s per million short strings to write for a small saving in the benchmark's
 *     files (decision 0033); lance-core applies it by the same rule
 */
public record WriterOptions(long pageBytes, boolean durable, boolean dictionary, boolean fsst) {
  public static final long DEFAULT_PAGE_BYTES = 8L << 20;

  public WriterOptions {
    if (pageBytes < 1 || pageBytes > (1L << 30)) {
      throw new IllegalArgumentException("page size " + pageBytes + " bytes: choose between 1 "
          + "byte and 1 GiB");
    }
  }

  /** 8 MiB pages, no forcing, dictionaries allowed, no FSST. */
  public static WriterOptions defaults() {
    return new WriterOptions(DEFAULT_PAGE_BYTES, false, true, false);
  }

  public WriterOptions withPageBytes(long bytes) {
    return new WriterOptions(bytes, durable, dictionary, fsst);
  }

  public WriterOptions withDurable(boolean force) {
    return new WriterOptions(pageBytes, force, dictionary, fsst);
  }

  public WriterOptions withDictionary(boolean allow) {
    return new WriterOptions(pageBytes, durable, allow, fsst);
  }

  public WriterOptions withFsst(boolean allow) {
    return new WriterOptions(pageBytes, durable, dictionary, allow);
  }
}
