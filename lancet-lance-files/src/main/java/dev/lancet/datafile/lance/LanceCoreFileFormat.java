package dev.lancet.datafile.lance;

import dev.lancet.table.spi.DataFileFormat;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.table.spi.WriteSpec;
import java.io.IOException;
import java.util.Set;
import org.lance.file.LanceFileReader;

/** The default {@link DataFileFormat}: lance-core 7.0.0's file writer and reader over JNI. */
public final class LanceCoreFileFormat implements DataFileFormat {
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

  @Override
  public DataFileReader openReader(ReadSpec spec) throws IOException {
    String location = FileUris.resolve(spec.tableUri(), spec.path());
    return new LanceCoreFileReader(
        LanceFileReader.open(location, spec.storageOptions(), spec.allocator()), location);
  }
}
