package dev.lancet.file.read.v20;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Random schemas and data written by lance-core 7.0.0 as 2.0 files, read by lance-core's
 * reader and the Java reader with random projections, row ranges and batch sizes, compared
 * value by value with validity. Seeds are printed; {@code -Dlancet.v20.tries=N} runs longer.
 */
class Differential20Test {
  static final int[] ROWS = {0, 1, 17, 100, 1000, 4099};

  @Property(tries = 30, seed = "20")
  void randomSchemas(@ForAll long seed) throws Exception {
    check(seed);
  }

  /** The long run: {@code -Dlancet.v20.tries=N} seeds from {@code -Dlancet.v20.seed}. */
  @org.junit.jupiter.api.Test
  void longRun() throws Exception {
    long first = Long.getLong("lancet.v20.seed", 1000);
    long n = Long.getLong("lancet.v20.tries", 0);
    for (long s = first; s < first + n; s++) {
      check(s);
    }
  }

  static void check(long seed) throws Exception {
    System.out.println("Differential20Test seed " + seed);
    Random rnd = new Random(seed);
    Path dir = Files.createTempDirectory("v20diff");
    try (BufferAllocator alloc = new RootAllocator()) {
      RandomData20 data = new RandomData20(rnd);
      Schema schema = data.schema(5);
      int rows = ROWS[rnd.nextInt(ROWS.length)];
      Path file = dir.resolve("f.lance");
      int parts = 1 + rnd.nextInt(3);
      VectorSchemaRoot[] roots = new VectorSchemaRoot[parts];
      for (int p = 0; p < parts; p++) {
        roots[p] = data.root(alloc, schema, rows);
      }
      try {
        Files20.write(file, roots);
      } catch (RuntimeException e) {
        throw new AssertionError("lance-core did not write " + describe(schema) + ": " + e, e);
      } finally {
        for (VectorSchemaRoot r : roots) {
          r.close();
        }
      }
      try {
        Compare20.compare(file, alloc, rnd, 4, 17);
      } catch (Throwable t) {
        throw new AssertionError(describe(schema) + " rows " + rows + "x" + parts + ": " + t, t);
      }
    } catch (Throwable t) {
      throw new AssertionError("seed " + seed + ": " + t, t);
    } finally {
      try (var s = Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  static String describe(Schema s) {
    StringBuilder b = new StringBuilder();
    for (var f : s.getFields()) {
      describe(f, b);
      b.append("; ");
    }
    return b.toString();
  }

  private static void describe(org.apache.arrow.vector.types.pojo.Field f, StringBuilder b) {
    b.append(f.getName()).append(':').append(f.getType()).append(f.isNullable() ? "?" : "");
    if (f.getMetadata() != null && !f.getMetadata().isEmpty()) {
      b.append(f.getMetadata());
    }
    if (!f.getChildren().isEmpty()) {
      b.append('<');
      for (var c : f.getChildren()) {
        describe(c, b);
        b.append(',');
      }
      b.append('>');
    }
  }

  @AfterContainer
  static void everyCodingWasMet() {
    System.out.println("2.0 codings met: " + new java.util.TreeSet<>(Compare20.SEEN));
    // Every coding lance-core 7.0.0 writes in a 2.0 file (decision 0031) was met and decoded.
    for (String c : new String[] {"Nullable.no(Flat(", "Nullable.some(Flat(", "Nullable.all",
        "(Flat(1))", "(Flat(8))", "(Flat(16))", "(Flat(24))", "(Flat(32))", "(Flat(64))",
        "(Flat(128))", "(Flat(256))", "Binary(Flat(8))", "Binary(Flat(8,zstd))",
        "Binary(Flat(8,lz4))", "Fsst(Binary(Flat(8)))", "Dictionary(Binary(Flat(8)))",
        "SimpleStruct", "List(Flat(64))", "FixedSizeList(Nullable.some(",
        "FixedSizeList(Nullable.no(", "Nullable.some(FixedSizeList("}) {
      assertThat(Compare20.SEEN).as("coding " + c).anyMatch(s -> s.contains(c));
    }
  }
}
