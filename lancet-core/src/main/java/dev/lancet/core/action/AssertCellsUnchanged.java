package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Fragment;
import java.util.List;
import java.util.Objects;
import org.roaringbitmap.RoaringBitmap;

/**
 * A precondition, not a change: the cells of {@code fields} at {@code rows} (physical offsets)
 * of {@code fragment}, which this operation read and copied into what it writes (an update that
 * moves rows, a merge-insert that updates matched rows, any read-derived write), were not changed
 * by a concurrent commit. Its footprint makes the read set visible to the conflict check: a
 * committed data-changing rewrite of one of the fields in that fragment, an overlay of those
 * cells or a move of those rows collides; a delete of other rows, an append, a rewrite of a
 * field it did not read or a config change does not. A fragment or field this operation mints
 * cannot be changed concurrently, so it records nothing for one. See
 * docs/decisions/0018-read-derived-writes.md.
 */
public record AssertCellsUnchanged(Ref fragment, List<Ref> fields, RoaringBitmap rows) implements Action {

  public AssertCellsUnchanged {
    Objects.requireNonNull(fragment, "fragment");
    fields = List.copyOf(fields);
    Objects.requireNonNull(rows, "rows");
    rows = rows.clone();
  }

  /** The read offsets (a copy: the record stays immutable). */
  @Override
  public RoaringBitmap rows() {
    return rows.clone();
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  /** Checks that the cells it names exist; changes nothing. */
  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.resolveFragment(fragment);
    Fragment target = state.fragment(fragmentId, actionName());
    String frag = "AssertCellsUnchanged on fragment " + Long.toUnsignedString(fragmentId);
    if (fields.isEmpty()) {
      throw state.invalid(frag + " names no field; list the fields whose cells were read");
    }
    state.requireRowsWithin(target, rows, frag, "list the offsets whose cells were read, or drop the action");
    for (Ref ref : fields) {
      int id = state.resolveField(ref);
      if (state.field(id).isEmpty()) {
        throw state.invalid(frag + " names field " + id + ", which is not in the schema");
      }
    }
  }

  /** The read cells, checked against concurrent changes of them. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.readCells(fragment, fields, rows);
  }
}
