package dev.lancet.file.read.v20;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.file.LanceFileWriter;

/** 2.0 files written by the oracle, lance-core 7.0.0's {@link LanceFileWriter}. */
final class Files20 {
  private Files20() {}

  /** Writes {@code roots} as one Lance 2.0 file at {@code file}; returns its size. */
  static long write(Path file, VectorSchemaRoot... roots) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    LanceFileWriter writer = LanceFileWriter.open(file.toAbsolutePath().toString(),
        roots[0].getFieldVectors().get(0).getAllocator(), null, Optional.of("2.0"), Map.of());
    try {
      for (VectorSchemaRoot r : roots) {
        writer.write(r);
      }
    } finally {
      try {
        writer.close();
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("closing lance-core's writer of " + file, e);
      }
    }
    return Files.size(file);
  }
}
