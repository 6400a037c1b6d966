package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files fail with an IOException that names the file and, where known, column and page. */
class CorruptFileTest {
  @TempDir Path dir;
  private Path good;
  private byte[] bytes;

  @BeforeEach
  void writeGoodFile() throws IOException {
    good = dir.resolve("good.lance");
    try (BufferAllocator alloc = new RootAllocator();
        BigIntVector v = new BigIntVector("id", alloc)) {
      v.allocateNew(5000);
      for (int i = 0; i < 5000; i++) {
        v.set(i, i * 7L);
      }
      v.setValueCount(5000);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
        root.setRowCount(5000);
        LanceCoreFiles.write(good, root);
      }
    }
    bytes = Files.readAllBytes(good);
  }

  private Path variant(String name, byte[] content) throws IOException {
    Path p = dir.resolve(name + ".lance");
    Files.write(p, content);
    return p;
  }

  private static long u64(byte[] b, int at) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
  }

  private static void putU64(byte[] b, int at, long v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
  }

  private static void firstBatch(LanceFile f, BufferAllocator alloc) throws IOException {
    try (ArrowReader r = f.read(List.of("id"), List.of(new RowRange(0, 10)), 10, alloc)) {
      r.loadNextBatch();
    }
  }

  @Test
  void theGoodFileReads() throws IOException {
    try (LanceFile f = LanceFile.open(good); BufferAllocator alloc = new RootAllocator();
        ArrowReader r = f.read(List.of("id"), List.of(new RowRange(0, 5000)), 5000, alloc)) {
      assertThat(r.loadNextBatch()).isTrue();
      assertThat(((BigIntVector) r.getVectorSchemaRoot().getVector(0)).get(4999))
          .isEqualTo(4999 * 7L);
    }
  }

  @Test
  void aTruncatedFile() throws IOException {
    Path p = variant("truncated", Arrays.copyOf(bytes, bytes.length / 2));
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(p.toString()).hasMessageContaining("not a Lance file");
    Path tiny = variant("tiny", Arrays.copyOf(bytes, 12));
    assertThatThrownBy(() -> LanceFile.open(tiny)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(tiny.toString()).hasMessageContaining("too short");
  }

  @Test
  void aBadMagic() throws IOException {
    byte[] b = bytes.clone();
    b[b.length - 1] = 'X';
    Path p = variant("magic", b);
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(p.toString()).hasMessageContaining("LANC");
  }

  @Test
  void aFooterOffsetPastTheEnd() throws IOException {
    byte[] b = bytes.clone();
    putU64(b, b.length - 40, b.length + 100L);
    Path p = variant("footer", b);
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(p.toString()).hasMessageContaining("past the end");
  }

  @Test
  void aColumnMetadataOffsetPastTheEnd() throws IOException {
    byte[] b = bytes.clone();
    int table = (int) u64(b, b.length - 32);
    putU64(b, table, Long.MAX_VALUE - 3);
    Path p = variant("cmo", b);
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(p.toString()).hasMessageContaining("column 0: its metadata")
        .hasMessageContaining("lies outside");
  }

  @Test
  void aHugeColumnMetadataSize() throws IOException {
    byte[] b = bytes.clone();
    int table = (int) u64(b, b.length - 32);
    putU64(b, table + 8, -1L);
    Path p = variant("cms", b);
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("column 0: its metadata");
  }

  @Test
  void aChunkSizeThatOverrunsItsPage() throws IOException {
    long metaPos;
    try (LanceFile f = LanceFile.open(good)) {
      metaPos = ((MiniBlockPage) f.column(0).decoders().get(0)).metaPos();
    }
    byte[] b = bytes.clone();
    // Chunk 0 claims the largest size (4096 words of 8 bytes) and 2^1 values.
    b[(int) metaPos] = (byte) 0xF1;
    b[(int) metaPos + 1] = (byte) 0xFF;
    Path p = variant("chunk", b);
    try (LanceFile f = LanceFile.open(p); BufferAllocator alloc = new RootAllocator()) {
      assertThatThrownBy(() -> firstBatch(f, alloc))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(p.toString()).hasMessageContaining("column 0 ('id'), page 0")
          .hasMessageContaining("overrun the page's chunk buffer");
    }
  }

  @Test
  void moreValuesThanAChunkCanHold() throws IOException {
    long metaPos;
    int chunks;
    try (LanceFile f = LanceFile.open(good)) {
      MiniBlockPage page = (MiniBlockPage) f.column(0).decoders().get(0);
      metaPos = page.metaPos();
      chunks = page.numChunkWords();
    }
    assertThat(chunks).isGreaterThan(1);
    byte[] b = bytes.clone();
    // The chunks before the last claim 2 values each, leaving the last chunk more than the
    // 1024 an inline bit-packed chunk holds.
    for (int c = 0; c < chunks - 1; c++) {
      int at = (int) metaPos + 2 * c;
      b[at] = (byte) ((b[at] & 0xF0) | 1);
    }
    Path p = variant("count", b);
    try (LanceFile f = LanceFile.open(p); BufferAllocator alloc = new RootAllocator()) {
      assertThatThrownBy(() -> firstBatch(f, alloc))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("column 0 ('id'), page 0, chunk " + (chunks - 1))
          .hasMessageContaining("cannot fit");
    }
  }

  @Test
  void aValueBufferThatOverrunsItsChunk() throws IOException {
    long dataPos;
    try (LanceFile f = LanceFile.open(good)) {
      dataPos = ((MiniBlockPage) f.column(0).decoders().get(0)).dataPos();
    }
    byte[] b = bytes.clone();
    // Chunk 0's header: u16 level count, u16 value buffer size.
    b[(int) dataPos + 2] = (byte) 0xFF;
    b[(int) dataPos + 3] = (byte) 0xFF;
    Path p = variant("values", b);
    try (LanceFile f = LanceFile.open(p); BufferAllocator alloc = new RootAllocator()) {
      assertThatThrownBy(() -> firstBatch(f, alloc))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("column 0 ('id'), page 0, chunk 0")
          .hasMessageContaining("overrun the chunk");
    }
  }

  @Test
  void anotherFileVersionIsUnsupportedNotCorrupt() throws IOException {
    byte[] b = bytes.clone();
    b[b.length - 6] = 2; // minor version 2
    Path p = variant("v22", b);
    assertThatThrownBy(() -> LanceFile.open(p)).isInstanceOf(UnsupportedFileException.class)
        .hasMessageContaining("2.2");
  }
}
