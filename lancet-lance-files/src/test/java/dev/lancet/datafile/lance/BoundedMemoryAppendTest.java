package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming append holds one batch of its reader at a time: ten times the rows use the same
 * Arrow memory (the peak of the allocator the batches come from is one batch), and the files
 * roll over as they fill. The 10-million-row figures, with the process's resident set, come
 * from {@code AppendMemoryHarness} in lancet-bench (BENCHMARKS.md).
 */
class BoundedMemoryAppendTest {
  @TempDir Path tmp;

  private long[] append(String name, long rows) throws Exception {
    try (RootAllocator alloc = new RootAllocator();
        LanceTable table = LanceTable.create(tmp.resolve(name).toString(),
            GeneratedRows.schema(16), CreateOptions.defaults())) {
      try (GeneratedRows data = new GeneratedRows(alloc, 0, rows, 4096, 16)) {
        var info = table.newAppend().from(data).maxRowsPerFile(100_000).commit();
        assertThat(info.rowsWritten()).isEqualTo(rows);
        assertThat(info.filesWritten()).isEqualTo((int) ((rows + 99_999) / 100_000));
      }
      return new long[] {alloc.getPeakMemoryAllocation(), table.countRows()};
    }
  }

  @Test
  void tenTimesTheRowsUseTheSameArrowMemory() throws Exception {
    // Both cross file boundaries (a batch straddling one is split: the batch and its slice).
    long[] small = append("small", 250_000);
    long[] large = append("large", 1_000_000);
    assertThat(large[1]).isEqualTo(1_000_000);
    assertThat(large[0]).isLessThanOrEqualTo(small[0] + small[0] / 10);
    // One 4,096-row batch of this shape is ~0.4 MB; its buffers round up to powers of two.
    assertThat(large[0]).isLessThan(3L * 1024 * 1024);
  }
}
