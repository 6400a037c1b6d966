package dev.lancet.table;

import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/**
 * A fragment's data overlays for the projected columns: new values for some (physical offset,
 * field) cells. The value of a covered offset sits at its rank in the field's coverage bitmap;
 * of several overlays covering a cell, the newest committed one wins (a later one in the
 * fragment's list on a tie); deleted rows are never read, so deletions win. Overlays are small
 * by design: each overlay column a scan needs is read once, whole, when the fragment opens.
 */
final class Overlays implements AutoCloseable {
  /** One overlay's values for one field, and which offsets it covers. */
  private record Layer(long version, int order, RoaringBitmap covered, FieldVector values) {}

  private final Map<Integer, List<Layer>> byField = new java.util.HashMap<>();
  private final List<AutoCloseable> open = new ArrayList<>();

  Overlays(TableContext ctx, Fragment fragment, List<Field> projected, BufferAllocator allocator) {
    List<DataOverlayFile> overlays = fragment.overlays();
    try {
      for (int order = 0; order < overlays.size(); order++) {
        DataOverlayFile o = overlays.get(order);
        List<Integer> ids = o.dataFile().fields();
        for (Field f : projected) {
          int slot = ids.indexOf(f.id());
          if (slot < 0) {
            continue;
          }
          String where = "overlay " + o.dataFile().path() + " of fragment " + fragment.id();
          RoaringBitmap covered = coverage(o, slot, where);
          BaseFiles.Location at = BaseFiles.data(ctx, o.dataFile(), where);
          DataFileReader file = ctx.dataFiles().openReader(new ReadSpec(at.uri(),
              ctx.storageOptions(), at.path(), allocator));
          open.add(file);
          FileColumns.Column column = FileColumns.of(o.dataFile(), file.schema(), where).stream()
              .filter(c -> c.slotIds().equals(List.of(f.id()))).findFirst()
              .orElseThrow(() -> new LanceTableException(where + " holds field " + f.id()
                  + " ('" + f.name() + "') as part of a nested column; Lancet reads overlays of "
                  + "top-level columns only"));
          long rows = file.numRows();
          if (rows < covered.getLongCardinality() || rows > Integer.MAX_VALUE) {
            throw new LanceTableException(where + " has " + rows + " rows for "
                + covered.getLongCardinality() + " covered offsets");
          }
          ArrowReader r = file.read(List.of(column.name()), List.of(new RowRange(0, rows)),
              (int) Math.max(1, rows));
          open.add(r);
          if (!r.loadNextBatch()) {
            throw new LanceTableException(where + " returned no rows");
          }
          FieldVector values = r.getVectorSchemaRoot().getVector(0);
          byField.computeIfAbsent(f.id(), k -> new ArrayList<>())
              .add(new Layer(o.committedVersion(), order, covered, values));
        }
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("reading the overlays of fragment " + fragment.id(), e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    byField.values().forEach(l -> l.sort(Comparator.comparingLong(Layer::version)
        .thenComparingInt(Layer::order)));
  }

  private static RoaringBitmap coverage(DataOverlayFile o, int slot, String where) {
    if (o.coverage() instanceof DataOverlayFile.SharedCoverage s) {
      return PortableRoaring.read(s.offsetBitmap().toByteArray(), where);
    }
    List<com.google.protobuf.ByteString> perField =
        ((DataOverlayFile.PerFieldCoverage) o.coverage()).offsetBitmaps();
    if (slot >= perField.size()) {
      throw new LanceTableException(where + " has no coverage bitmap for its field slot " + slot);
    }
    return PortableRoaring.read(perField.get(slot).toByteArray(), where);
  }

  boolean isEmpty() {
    return byField.isEmpty();
  }

  /**
   * {@code base} with the overlaid cells of field {@code fieldId} at physical {@code offsets}
   * replaced, as a new vector the caller owns; or null when no overlay covers any of them.
   */
  FieldVector apply(int fieldId, FieldVector base, long[] offsets, BufferAllocator allocator) {
    List<Layer> layers = byField.get(fieldId);
    if (layers == null) {
      return null;
    }
    int n = offsets.length;
    Layer[] winner = new Layer[n];
    boolean any = false;
    for (Layer l : layers) {
      for (int i = 0; i < n; i++) {
        if (offsets[i] <= 0xFFFF_FFFFL && l.covered().contains((int) offsets[i])) {
          winner[i] = l;
          any = true;
        }
      }
    }
    if (!any) {
      return null;
    }
    FieldVector out = base.getField().createVector(allocator);
    try {
      out.setInitialCapacity(n);
      out.allocateNew();
      for (int i = 0; i < n; i++) {
        if (winner[i] == null) {
          out.copyFromSafe(i, i, base);
        } else {
          int rank = (int) winner[i].covered().rankLong((int) offsets[i]) - 1;
          out.copyFromSafe(rank, i, winner[i].values());
        }
      }
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public void close() {
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (Exception e) {
        // closing readers of a finished read
      }
    }
    open.clear();
  }
}
