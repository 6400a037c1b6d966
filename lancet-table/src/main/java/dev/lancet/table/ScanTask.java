package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.table.spi.RowRange;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * One fragment's share of a scan, for engines that split a scan across workers: open each task
 * on its own and the union of their rows (in task order) is the scan's. A task reads its
 * fragment at the scan's version, with the scan's columns, deletions and limit applied.
 */
public final class ScanTask {
  private final TableContext ctx;
  private final Scan.Plan plan;
  private final Fragment fragment;
  private final List<RowRange> ranges;

  ScanTask(TableContext ctx, Scan.Plan plan, Fragment fragment, List<RowRange> ranges) {
    this.ctx = ctx;
    this.plan = plan;
    this.fragment = fragment;
    this.ranges = List.copyOf(ranges);
  }

  /** The version the task reads. */
  public long version() {
    return plan.version();
  }

  public long fragmentId() {
    return fragment.id();
  }

  /** Rows the task returns (with a filter: at most this many, the live rows it reads). */
  public long rows() {
    return RowSelection.count(ranges);
  }

  /** The task's rows as Arrow batches, allocated from the table's allocator. */
  public ArrowReader open() {
    return open(ctx.allocator());
  }

  /** The task's rows as Arrow batches, allocated from {@code allocator}. */
  public ArrowReader open(BufferAllocator allocator) {
    return plan.filter().isPresent()
        ? new ScanReader(allocator, plan.outSchema(), List.of(this), 0, Long.MAX_VALUE)
        : new ScanReader(allocator, plan.outSchema(), List.of(this));
  }

  FragmentRead read(BufferAllocator allocator) {
    Schema schema = plan.schema();
    return new FragmentRead(ctx, schema, fragment, plan.read(), plan.withRowId(),
        plan.withRowAddr(), ranges, plan.batchSize(), allocator, plan.readSchema(),
        f -> FragmentRead.inlineRowIds(f, ctx.store()));
  }

  Scan.Plan plan() {
    return plan;
  }
}
