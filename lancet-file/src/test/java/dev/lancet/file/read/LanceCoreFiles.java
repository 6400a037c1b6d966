package dev.lancet.file.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.file.LanceFileWriter;

/** Files written by the oracle, lance-core 7.0.0's {@link LanceFileWriter}, for the tests. */
final class LanceCoreFiles {
  private LanceCoreFiles() {}

  /**
   * Writes {@code root} (allocated by the test, so its buffers are aligned as lance-core needs)
   * as one file at {@code file} in lance-core's default file version, and returns its size.
   */
  static long write(Path file, VectorSchemaRoot root) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    LanceFileWriter writer = LanceFileWriter.open(file.toAbsolutePath().toString(),
        root.getFieldVectors().get(0).getAllocator(), null, Optional.empty(), Map.of());
    try {
      writer.write(root);
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
