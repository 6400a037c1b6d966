package dev.lancet.table;

import dev.lancet.core.action.RelocateRows;
import org.roaringbitmap.RoaringBitmap;

/**
 * The one place where a read-derived write (an update, a merge insert) declares the cells it
 * read and copied into new fragments: rows {@code rows} of fragment {@code f}, whose values it
 * carries into rows of its own.
 *
 * <p>Today the declaration is a RelocateRows of the moved rows: a concurrent overlay of any of
 * them (a partial write the copy would lose) conflicts, in either order. A concurrent rewrite of
 * a whole column of the fragment (TombstoneFieldData + AddDataFile) is not seen by it; the
 * kernel's read-set declaration (issue 12 point 5) closes that gap and goes here.
 */
final class ReadSet {
  private ReadSet() {}

  static void declareRead(TxnPlan plan, TxnPlan.Step step, ViewFragment f, RoaringBitmap rows,
      java.util.Collection<dev.lancet.format.model.Field> columnsRead) {
    if (rows.isEmpty() || f.pending().isPresent()) {
      return; // rows the transaction itself wrote: nobody else can have changed them
    }
    step.add(new RelocateRows(f.id(), rows));
  }
}
