package dev.lancet.datafile.lance;

import dev.lancet.table.spi.DataFileFormat;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.file.read.LanceDataFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.lance.file.LanceFileReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link DataFileFormat}: lance-core 7.0.0's file writer over JNI; for reading,
 * Lancet's Java reader where it decodes the file (local 2.1 files) and lance-core's reader
 * otherwise.
 */
public final class LanceCoreFileFormat implements DataFileFormat {
  private static final Logger LOG = LoggerFactory.getLogger(LanceCoreFileFormat.class);
  private static final Set<String> VERSIONS = Set.of("2.0", "2.1");

  @Override
  public String name() {
    return "lance-core 7.0.0";
  }

  @Override
  public Set<String> writableVersions() {
    return VERSIONS;
  }

  @Override
  public DataFileWriter newWriter(WriteSpec spec) {
    if (!VERSIONS.contains(spec.fileVersion())) {
      throw new IllegalArgumentException("lance-core 7.0.0 writes Lance file versions "
          + VERSIONS + ", not " + spec.fileVersion());
    }
    return new LanceCoreFileWriter(spec);
  }

  /**
   * A local file is opened by Lancet's Java reader (footer and schema, no JNI), which serves
   * every read of columns it decodes and hands the others to lance-core's reader; a file the
   * Java reader cannot open (another version, a schema shape it does not map, damage) and
   * every object-store file are lance-core's alone (decisions 0025, 0031).
   */
  @Override
  public DataFileReader openReader(ReadSpec spec) throws IOException {
    String location = FileUris.resolve(spec.tableUri(), spec.path());
    Optional<Path> local = FileUris.localPath(spec.tableUri(), spec.path());
    if (local.isPresent()) {
      try {
        return new HybridFileReader(LanceDataFiles.open(local.get()), location, spec);
      } catch (IOException e) {
        LOG.debug("lance-core opens {}: {}", location, e.getMessage());
      }
    }
    return new LanceCoreFileReader(
        LanceFileReader.open(location, spec.storageOptions(), spec.allocator()), location);
  }
}
