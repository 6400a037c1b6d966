package dev.lancet.bench;

import dev.lancet.table.CommitInfo;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.RootAllocator;

/**
 * Peak memory of one streaming append (a documented harness, not JMH): appends N rows of the
 * benchmark shape, made on the fly one 8,192-row batch at a time, into a fresh table, while a
 * sampler thread records every 20 ms the JVM heap in use, the JVM's direct buffers, and the
 * process's resident set (which includes lance-core's native encoder buffers); Arrow's own peak
 * comes from the allocator. Run it for 1,000,000 and 10,000,000 rows: bounded memory means the
 * peaks do not grow with N.
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx1g -cp lancet-bench/target/lancet-bench.jar \
 *     dev.lancet.bench.AppendMemoryHarness 10000000
 * </pre>
 */
public final class AppendMemoryHarness {
  private AppendMemoryHarness() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    Path dir = Files.createTempDirectory("lancet-append-memory").resolve("t");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
    AtomicLong heapPeak = new AtomicLong();
    AtomicLong directPeak = new AtomicLong();
    AtomicLong rssPeak = new AtomicLong();
    long rssBefore = rss();
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        heapPeak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        directPeak.accumulateAndGet(direct.getMemoryUsed(), Math::max);
        rssPeak.accumulateAndGet(rss(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.setDaemon(true);
    long start;
    CommitInfo info;
    long arrowPeak;
    try (RootAllocator alloc = new RootAllocator();
        LanceTable table = LanceTable.create(dir.toString(), TableBenchData.schema(),
            CreateOptions.defaults())) {
      System.gc();
      sampler.start();
      start = System.nanoTime();
      try (TableBenchData.Generated data = new TableBenchData.Generated(alloc, rows)) {
        info = table.append(data);
      }
      arrowPeak = alloc.getPeakMemoryAllocation();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    sampler.interrupt();
    sampler.join();
    System.out.printf(Locale.ROOT, "rows=%d files=%d seconds=%.1f rows/s=%.0f heap-peak=%.1fMB "
            + "direct-peak=%.1fMB arrow-allocator-peak=%.1fMB rss-peak=%.1fMB rss-growth=%.1fMB "
            + "max-heap=%.0fMB%n",
        info.rowsWritten(), info.filesWritten(), seconds, info.rowsWritten() / seconds,
        mb(heapPeak.get()), mb(directPeak.get()), mb(arrowPeak), mb(rssPeak.get()),
        mb(rssPeak.get() - rssBefore), mb(Runtime.getRuntime().maxMemory()));
    TableAppendBenchmark.delete(dir.getParent());
  }

  private static double mb(long bytes) {
    return bytes / 1024.0 / 1024.0;
  }

  /** The process's resident set in bytes (Linux), or 0. */
  private static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
