package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.pb.FileProtos;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;

/** The global buffers and schema metadata of a file lance-core 7.0.0 wrote. */
class GlobalBuffersTest {
  @TempDir Path dir;

  @Test
  void schemaMetadataAndGlobalBuffersAsWritten() throws Exception {
    Path file = dir.resolve("g.lance");
    try (BufferAllocator alloc = new RootAllocator()) {
      try (LanceFileWriter w = LanceFileWriter.open(file.toString(), alloc, null,
          Optional.empty(), Map.of());
          BigIntVector v = new BigIntVector("id", alloc)) {
        v.allocateNew(3);
        for (int i = 0; i < 3; i++) {
          v.set(i, i);
        }
        v.setValueCount(3);
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
          root.setRowCount(3);
          w.write(root);
        }
        w.addSchemaMetadata(Map.of("lance:ivf", "1", "note", "centroids in buffer 1"));
      }
      try (LanceFile f = LanceFile.open(file);
          LanceFileReader core = LanceFileReader.open(file.toString(), alloc)) {
        assertThat(f.schemaMetadata()).containsEntry("lance:ivf", "1")
            .containsEntry("note", "centroids in buffer 1");
        assertThat(f.schemaMetadata()).isEqualTo(core.schema().getCustomMetadata());
        assertThat(f.numGlobalBuffers()).isGreaterThanOrEqualTo(1);
        FileProtos.FileDescriptor d = FileProtos.FileDescriptor.parseFrom(f.globalBuffer(0));
        assertThat(d.getLength()).isEqualTo(3);
        assertThat(f.globalBufferSize(0)).isEqualTo(f.globalBuffer(0).remaining());
        assertThatThrownBy(() -> f.globalBuffer(f.numGlobalBuffers()))
            .isInstanceOf(IndexOutOfBoundsException.class);
      }
    }
  }
}
