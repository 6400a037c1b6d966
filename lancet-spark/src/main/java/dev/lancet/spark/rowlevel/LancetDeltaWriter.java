package dev.lancet.spark.rowlevel;

import dev.lancet.spark.write.LancetDataWriter;
import dev.lancet.spark.write.TaskFiles;
import dev.lancet.table.FragmentWriteSpec;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.types.StructType;
import org.roaringbitmap.RoaringBitmap;

/**
 * One task's share of a row-level operation: deleted row addresses collected per fragment
 * (offsets in a bitmap), updated rows as a delete of the old row plus the new row written,
 * inserted rows written as new data files.
 */
final class LancetDeltaWriter extends LancetDataWriter implements DeltaWriter<InternalRow> {
  private final Map<Long, RoaringBitmap> deleted = new HashMap<>();

  LancetDeltaWriter(FragmentWriteSpec spec, Schema arrow, StructType input, int partitionId,
      long taskId) {
    super(spec, arrow, input, partitionId, taskId);
  }

  @Override
  public void delete(InternalRow metadata, InternalRow id) {
    long addr = id.getLong(0);
    long fragment = addr >>> 32;
    int offset = (int) (addr & 0xFFFFFFFFL);
    deleted.computeIfAbsent(fragment, k -> new RoaringBitmap()).add(offset);
  }

  @Override
  public void update(InternalRow metadata, InternalRow id, InternalRow row) {
    delete(metadata, id);
    add(row);
  }

  @Override
  public void insert(InternalRow row) {
    add(row);
  }

  @Override
  public void write(InternalRow row) {
    add(row);
  }

  @Override
  public TaskFiles commit() {
    for (RoaringBitmap b : deleted.values()) {
      b.runOptimize();
    }
    return describe(deleted);
  }
}
