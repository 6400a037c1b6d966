package dev.lancet.table.spi;

import java.io.IOException;

/**
 * The data-file seam: the one way the table layer reaches the bytes of Lance data files. It
 * writes streams of Arrow batches as Lance data files and reads a data file's columns back as
 * Arrow batches. The kernel never sees a data file's bytes.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (see {@link DataFileFormats})
 * or passed explicitly. The default one, in module {@code lancet-lance-files}, runs lance-core's
 * {@code LanceFileWriter} / {@code LanceFileReader}; a pure-Java implementation can replace it
 * without a change to the table layer.
 */
public interface DataFileFormat {
  /** A short name for messages ("lance-core 7.0.0"). */
  String name();

  /** The Lance file versions this implementation writes ("2.0", "2.1"). */
  java.util.Set<String> writableVersions();

  /** Starts writing a stream of batches of {@code spec.arrowSchema()} as data files. */
  DataFileWriter newWriter(WriteSpec spec) throws IOException;

  /** Opens one data file for reading. */
  DataFileReader openReader(ReadSpec spec) throws IOException;
}
