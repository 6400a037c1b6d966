package dev.lancet.table;

import dev.lancet.core.action.Ref;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * The table as a statement plans against it: the version read, with what earlier statements of
 * the same transaction did applied (rows deleted, fragments written or removed, columns added).
 * A standalone statement sees the version read as it is.
 *
 * <p>Ids: fields an earlier statement added have ids above the version's field watermark and are
 * named by Local tokens equal to those ids; fragments an earlier statement wrote show under
 * provisional ids counted down from the top of the id space (so they never meet a real id) until
 * they get a reserved id.
 */
final class TableView {
  private static final long FIRST_PROVISIONAL_ID = 0xFFFF_FFFFL;

  private final TableContext ctx;
  private final Snapshot read;
  private Schema schema;
  private final int fieldWatermark;
  private final List<ViewFragment> fragments = new ArrayList<>();
  private long nextProvisionalId = FIRST_PROVISIONAL_ID;
  private java.util.function.LongConsumer progress = rows -> { };
  private long rowsRead;
  private ReaderCache readers; // null: each read opens and closes its files

  TableView(TableContext ctx, Snapshot read) {
    this.ctx = ctx.at(read.manifest());
    this.read = read;
    this.schema = read.manifest().schema();
    this.fieldWatermark = fieldWatermark(read.manifest());
    for (Fragment f : read.manifest().fragments()) {
      fragments.add(new ViewFragment(f, Optional.empty()));
    }
  }

  /** The largest field id the version uses, in its schema or still in a data file. */
  private static int fieldWatermark(Manifest m) {
    int max = m.schema().maxFieldId();
    for (Fragment f : m.fragments()) {
      for (dev.lancet.format.model.DataFile file : f.files()) {
        for (int id : file.fields()) {
          max = Math.max(max, id);
        }
      }
    }
    return max;
  }

  /** Reports the table rows statements have read so far (for progress displays). */
  void onProgress(java.util.function.LongConsumer observer) {
    this.progress = observer;
  }

  /** Notes that {@code rows} more table rows were read. */
  synchronized void advance(long rows) {
    rowsRead += rows;
    progress.accept(rowsRead);
  }

  TableContext ctx() {
    return ctx;
  }

  Snapshot read() {
    return read;
  }

  long readVersion() {
    return read.version();
  }

  Schema schema() {
    return schema;
  }

  void schema(Schema s) {
    this.schema = s;
  }

  org.apache.arrow.vector.types.pojo.Schema arrowSchema() {
    return TableSchemas.toArrow(schema);
  }

  String fileVersion() {
    return LanceTable.storageVersionOf(read.manifest());
  }

  boolean stableRowIds() {
    return read.manifest().usesStableRowIds();
  }

  int fieldWatermark() {
    return fieldWatermark;
  }

  /** The ref actions name field {@code id} by: committed, or the Local token that added it. */
  Ref fieldRef(int id) {
    return id > fieldWatermark ? Ref.local(id) : Ref.committed(id);
  }

  /** The fragments not removed, in order (committed ones first, then the ones written since). */
  List<ViewFragment> fragments() {
    List<ViewFragment> out = new ArrayList<>(fragments.size());
    for (ViewFragment f : fragments) {
      if (!f.removed()) {
        out.add(f);
      }
    }
    return out;
  }

  /** Every fragment written by the transaction and still without a reserved id. */
  List<ViewFragment> unreserved() {
    List<ViewFragment> out = new ArrayList<>();
    for (ViewFragment f : fragments) {
      if (f.pending().isPresent() && f.pending().get().reservedId().isEmpty()) {
        out.add(f);
      }
    }
    return out;
  }

  /** Every fragment written by the transaction. */
  List<ViewFragment> pending() {
    List<ViewFragment> out = new ArrayList<>();
    for (ViewFragment f : fragments) {
      if (f.pending().isPresent()) {
        out.add(f);
      }
    }
    return out;
  }

  ViewFragment addPending(PendingFragment p) {
    ViewFragment v = new ViewFragment(p.model(nextProvisionalId--), Optional.of(p));
    fragments.add(v);
    return v;
  }

  /** The top-level fields named {@code names} (in that order), or an error naming the column. */
  List<Field> columns(Iterable<String> names) {
    List<Field> out = new ArrayList<>();
    for (String n : names) {
      Field f = schema.topLevel().stream().filter(x -> x.name().equals(n)).findFirst()
          .orElseThrow(() -> new NotFoundException("column '" + n + "' does not exist at version "
              + read.version() + "; the table has " + String.join(", ",
                  schema.topLevel().stream().map(Field::name).toList())));
      out.add(f);
    }
    return out;
  }

  /** The Arrow schema of {@code columns} (top-level fields of the view's schema). */
  org.apache.arrow.vector.types.pojo.Schema arrowOf(List<Field> columns) {
    org.apache.arrow.vector.types.pojo.Schema full = arrowSchema();
    List<Field> top = schema.topLevel();
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
    for (Field f : columns) {
      out.add(full.getFields().get(top.indexOf(f)));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(out);
  }

  /**
   * Reads {@code columns} of the rows {@code rows} (physical offsets) of {@code f}, and of rows
   * between them where the readers read along more cheaply than they skip (see
   * {@link FragmentRead#offsets()}). The caller closes it.
   */
  FragmentRead read(ViewFragment f, List<Field> columns, RoaringBitmap rows, int batchSize) {
    return new FragmentRead(ctx, schema, f.fragment(), columns, false, false,
        gap -> Matches.ranges(rows, gap), batchSize, ctx.allocator(), arrowOf(columns),
        x -> Optional.empty(), readers);
  }

  /** Reads {@code columns} of the rows {@code ranges} of {@code f}. The caller closes it. */
  FragmentRead read(ViewFragment f, List<Field> columns, List<RowRange> ranges, int batchSize) {
    return new FragmentRead(ctx, schema, f.fragment(), columns, false, false, ranges, batchSize,
        ctx.allocator(), arrowOf(columns), x -> Optional.empty(), readers);
  }

  /**
   * Keeps the data-file readers of the reads that follow for later reads of the same files,
   * until {@link #dropReaders}: for a statement that reads fragments twice.
   */
  void keepReaders() {
    readers = new ReaderCache();
  }

  /** Closes the readers {@link #keepReaders} kept; reads open and close their files again. */
  void dropReaders() {
    if (readers != null) {
      readers.close();
      readers = null;
    }
  }
}
