package dev.lancet.bench;

import com.google.protobuf.CodedInputStream;
import dev.lancet.core.Table;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestValidator;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TableProtos;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Where Lancet's open-latest time goes, phase by phase, with the bytes each phase allocates.
 * Not a JMH benchmark: a plain loop (the second half of the rounds is reported, as medians) that
 * calls the same public pieces {@code Table.open(...).latest()} is made of.
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Xms2g -Xmx2g -XX:+AlwaysPreTouch \
 *   -cp lancet-bench/target/lancet-bench.jar dev.lancet.bench.OpenLatestBreakdown 1000 4000
 * </pre>
 *
 * Arguments: fragments (default 1000), rounds (default 2000), layout (default synthetic).
 */
public final class OpenLatestBreakdown {

  private static final String[] PHASES = {
    "Table.open (list _versions/)",
    "Versions.latest (hint + probe)",
    "ObjectStore.get (read file)",
    "protobuf parse (Manifest)",
    "ManifestCodec.fromProto",
    "ManifestValidator.validate",
    "= Table.open + latest()",
  };

  private OpenLatestBreakdown() {}

  public static void main(String[] args) throws Exception {
    int fragments = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    BenchTables.Layout layout =
        BenchTables.Layout.parse(args.length > 2 ? args[2] : "synthetic");
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().getId();
    Path scratch = Files.createTempDirectory("lancet-breakdown-");
    try (BufferAllocator alloc = new RootAllocator()) {
      Path dir = BenchTables.create(scratch, fragments, layout, alloc);
      String uri = dir.toString();
      LocalObjectStore store = new LocalObjectStore(dir);
      long[][] nanos = new long[PHASES.length][rounds];
      long[][] bytes = new long[PHASES.length][rounds];
      long sink = 0;
      for (int r = 0; r < rounds; r++) {
        // Separate methods, so nothing one measurement decoded is still reachable in the next.
        phases(uri, store, mx, tid, nanos, bytes, r);
        sink += endToEnd(uri, mx, tid, nanos, bytes, r);
      }
      System.out.printf("%s table, %d fragments, manifest file %d bytes, %d rounds (sink %d)%n",
          layout, fragments, store.size(Versions.latest(store).orElseThrow().path()), rounds, sink);
      for (int i = 0; i < PHASES.length; i++) {
        double us = median(nanos[i], rounds) / 1000.0;
        long b = median(bytes[i], rounds);
        System.out.printf("  %-32s %11.1f us  %8.3f us/fragment  %12d B  %6d B/fragment%n",
            PHASES[i], us, us / fragments, b, b / fragments);
      }
    } finally {
      BenchTables.deleteRecursively(scratch);
    }
  }

  private static void phases(String uri, LocalObjectStore store,
      com.sun.management.ThreadMXBean mx, long tid, long[][] nanos, long[][] bytes, int r)
      throws java.io.IOException {
    long t = System.nanoTime();
    long a = mx.getThreadAllocatedBytes(tid);
    Table table = Table.open(uri);
    nanos[0][r] = System.nanoTime() - t;
    bytes[0][r] = mx.getThreadAllocatedBytes(tid) - a;
    table.close();

    t = System.nanoTime();
    a = mx.getThreadAllocatedBytes(tid);
    VersionEntry entry = Versions.latest(store).orElseThrow();
    nanos[1][r] = System.nanoTime() - t;
    bytes[1][r] = mx.getThreadAllocatedBytes(tid) - a;

    t = System.nanoTime();
    a = mx.getThreadAllocatedBytes(tid);
    byte[] file = store.get(entry.path());
    nanos[2][r] = System.nanoTime() - t;
    bytes[2][r] = mx.getThreadAllocatedBytes(tid) - a;

    t = System.nanoTime();
    a = mx.getThreadAllocatedBytes(tid);
    ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int offset = (int) buf.getLong(file.length - ManifestFile.FOOTER_SIZE);
    int length = buf.getInt(offset);
    TableProtos.Manifest proto =
        TableProtos.Manifest.parseFrom(CodedInputStream.newInstance(file, offset + 4, length));
    nanos[3][r] = System.nanoTime() - t;
    bytes[3][r] = mx.getThreadAllocatedBytes(tid) - a;

    t = System.nanoTime();
    a = mx.getThreadAllocatedBytes(tid);
    Manifest m = ManifestCodec.fromProto(proto);
    nanos[4][r] = System.nanoTime() - t;
    bytes[4][r] = mx.getThreadAllocatedBytes(tid) - a;

    t = System.nanoTime();
    a = mx.getThreadAllocatedBytes(tid);
    ManifestValidator.validate(m, entry.path());
    nanos[5][r] = System.nanoTime() - t;
    bytes[5][r] = mx.getThreadAllocatedBytes(tid) - a;
  }

  /** The real thing, end to end, for comparison with the sum of the phases. */
  private static int endToEnd(String uri, com.sun.management.ThreadMXBean mx, long tid,
      long[][] nanos, long[][] bytes, int r) {
    long t = System.nanoTime();
    long a = mx.getThreadAllocatedBytes(tid);
    int n;
    try (Table table = Table.open(uri)) {
      n = table.latest().manifest().fragments().size();
    }
    nanos[6][r] = System.nanoTime() - t;
    bytes[6][r] = mx.getThreadAllocatedBytes(tid) - a;
    return n;
  }

  /** Median of the second half of the rounds (the first half is warm-up). */
  private static long median(long[] xs, int rounds) {
    long[] tail = Arrays.copyOfRange(xs, rounds / 2, rounds);
    Arrays.sort(tail);
    return tail[tail.length / 2];
  }
}
