package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.FormatException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.roaringbitmap.RoaringBitmap;

class DeletionFileProperties {

  // ---------------------------------------------------------------- round trips

  @Property(tries = 200)
  void randomSetsRoundTripInBothForms(@ForAll("offsetSets") int[] offsets) {
    DeletionVector vector = DeletionVector.of(offsets);
    for (DeletionFile.Kind kind : DeletionFile.Kind.values()) {
      byte[] bytes = DeletionFileFormat.write(vector, kind);
      DeletionVector read = DeletionFileFormat.read(bytes, kind, "p");
      assertThat(read).isEqualTo(vector);
      assertThat(read.cardinality()).isEqualTo(Arrays.stream(offsets).distinct().count());
    }
  }

  @Provide
  Arbitrary<int[]> offsetSets() {
    // Sparse values anywhere in u32 (negative ints are offsets >= 2^31), small dense values,
    // and one contiguous run long enough to make bitmap containers.
    Arbitrary<Set<Integer>> sparse =
        Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(0, 70_000))
            .set()
            .ofMaxSize(300);
    Arbitrary<int[]> run =
        Combinators.combine(
                Arbitraries.integers().between(0, 1 << 20), Arbitraries.integers().between(0, 9000))
            .as((start, length) -> IntStream.range(start, start + length).toArray());
    return Combinators.combine(sparse, run.injectNull(0.5))
        .as(
            (values, dense) -> {
              IntStream all = values.stream().mapToInt(Integer::intValue);
              return dense == null ? all.toArray() : IntStream.concat(all, IntStream.of(dense)).toArray();
            });
  }

  // ---------------------------------------------------------------- corrupt input

  private static final List<byte[]> ARROW_FILES =
      List.of(
          DeletionFileFormat.writeArrow(DeletionVector.empty()),
          DeletionFileFormat.writeArrow(DeletionVector.of(3, 1, 4)),
          DeletionFileFormat.writeArrow(DeletionVector.of(IntStream.range(0, 300).map(i -> i * 7919).toArray())),
          ArrowFixtures.file(ArrowFixtures.DELETION_SCHEMA, CodecType.NO_COMPRESSION, ArrowFixtures.values(5, 9, 2)),
          ArrowFixtures.file(
              ArrowFixtures.DELETION_SCHEMA, CodecType.LZ4_FRAME, ArrowFixtures.values(IntStream.range(0, 500).toArray())));

  private static final List<byte[]> BITMAP_FILES = bitmapFiles();

  private static List<byte[]> bitmapFiles() {
    RoaringBitmap runs = RoaringBitmap.bitmapOf(1, 2, 3, 100_000);
    runs.add(300_000L, 310_000L);
    runs.runOptimize();
    return List.of(
        DeletionFileFormat.writeBitmap(DeletionVector.empty()),
        DeletionFileFormat.writeBitmap(DeletionVector.of(1, 70_000, -5)),
        DeletionFileFormat.writeBitmap(DeletionVector.ofRange(10, 6010)),
        BitmapDeletionFileTest.serialize(runs));
  }

  @Property(tries = 500)
  void corruptArrowFilesReadOrFailCleanly(@ForAll("corruptArrow") byte[] bytes) {
    assertReadsOrFailsCleanly(bytes, DeletionFile.Kind.ARROW_ARRAY);
  }

  @Property(tries = 500)
  void corruptBitmapFilesReadOrFailCleanly(@ForAll("corruptBitmap") byte[] bytes) {
    assertReadsOrFailsCleanly(bytes, DeletionFile.Kind.BITMAP);
  }

  @Provide
  Arbitrary<byte[]> corruptArrow() {
    return corrupt(ARROW_FILES);
  }

  @Provide
  Arbitrary<byte[]> corruptBitmap() {
    return corrupt(BITMAP_FILES);
  }

  /** A valid file with up to four bytes xor-ed and, half the time, cut short. */
  private static Arbitrary<byte[]> corrupt(List<byte[]> files) {
    return Arbitraries.of(files)
        .flatMap(
            file -> {
              Arbitrary<List<Integer>> positions =
                  Arbitraries.integers().between(0, file.length - 1).list().ofMinSize(1).ofMaxSize(4);
              Arbitrary<Integer> mask = Arbitraries.integers().between(1, 255);
              Arbitrary<Integer> cut = Arbitraries.integers().between(0, file.length).injectNull(0.5);
              return Combinators.combine(positions, mask, cut)
                  .as(
                      (at, xor, length) -> {
                        byte[] out = file.clone();
                        for (int p : at) {
                          out[p] ^= xor.byteValue();
                        }
                        return length == null ? out : Arrays.copyOf(out, length);
                      });
            });
  }

  private static void assertReadsOrFailsCleanly(byte[] bytes, DeletionFile.Kind kind) {
    long allocated =
        DeletionFileFormatTest.allocatedBytes(
            () -> {
              try {
                DeletionVector read = DeletionFileFormat.read(bytes, kind, "corrupt.file");
                // A flip can yield another well-formed file; its content must still be usable.
                assertThat(read.cardinality()).isEqualTo(read.toArray().length);
                Statistics.collect("read");
              } catch (FormatException e) {
                assertThat(e.file()).isEqualTo("corrupt.file");
                assertThat(e.defect()).isNotBlank();
                Statistics.collect("FormatException");
              }
            });
    // Inputs are < 100 KiB; reading (or rejecting) one must stay far below anything harmful.
    assertThat(allocated).isLessThan(16L << 20);
  }
}
