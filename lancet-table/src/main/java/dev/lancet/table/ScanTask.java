package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.file.RowRange;
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

  /** The physical row ranges of the fragment the task reads. */
  public List<RowRange> ranges() {
    return ranges;
  }

  /** A serializable description, re-opened with {@link LanceTable#openTask} on a worker. */
  public Descriptor describe() {
    List<String> columns = plan.projected().stream().map(Field::name).toList();
    return new Descriptor(plan.version(), fragment.id(), ranges, columns, plan.withRowId(),
        plan.withRowAddr(), plan.batchSize());
  }

  /**
   * What a worker needs to re-create a task: the version, the fragment and its row ranges, the
   * projected columns (by name at that version) and the extra columns.
   */
  public record Descriptor(long version, long fragmentId, List<RowRange> ranges,
      List<String> columns, boolean withRowId, boolean withRowAddr, int batchSize)
      implements java.io.Serializable {
    public Descriptor {
      ranges = List.copyOf(ranges);
      columns = List.copyOf(columns);
    }
  }

  /** The task's rows as Arrow batches, allocated from the table's allocator. */
  public ArrowReader open() {
    return open(ctx.allocator());
  }

  /** The task's rows as Arrow batches, allocated from {@code allocator}. */
  public ArrowReader open(BufferAllocator allocator) {
    return plan.filter().isPresent()
        ? new ScanReader(allocator, plan, List.of(this), 0, Long.MAX_VALUE)
        : new ScanReader(allocator, plan, List.of(this));
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
