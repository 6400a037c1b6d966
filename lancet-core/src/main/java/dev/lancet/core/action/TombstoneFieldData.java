package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Marks the listed fields' slots in a fragment's files as tombstoned (-2). A file left with no
 * live field disappears at assembly. A column re-encode is TombstoneFieldData followed by
 * AddDataFile of the same field.
 */
public record TombstoneFieldData(Ref fragment, List<Ref> fieldIds, boolean dataChange)
    implements Action {

  public TombstoneFieldData {
    Objects.requireNonNull(fragment, "fragment");
    fieldIds = List.copyOf(fieldIds);
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.resolveFragment(fragment);
    Fragment target = state.fragment(fragmentId, actionName());
    List<Integer> fields = new ArrayList<>();
    List<DataFile> files = new ArrayList<>(target.files());
    for (Ref ref : fieldIds) {
      int field = state.resolveField(ref);
      boolean backed = false;
      for (int i = 0; i < files.size(); i++) {
        DataFile f = files.get(i);
        if (f.fields().contains(field)) {
          backed = true;
          files.set(i, f.withFields(ApplyState.tombstone(f.fields(), java.util.Set.of(field))));
        }
      }
      if (!backed) {
        throw state.invalid("TombstoneFieldData names field " + field + ", which no data file in "
            + "fragment " + fragmentId + " backs");
      }
      fields.add(field);
    }
    state.putFragment(ApplyState.tombstoneOverlays(
        target.toBuilder().files(files).build(), java.util.Set.copyOf(fields)));
    state.rebind(fragmentId, fields);
  }

  /** A data-changing tombstone in a committed fragment changes those fields' values in place. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.writeFieldData(fragment, fieldIds);
    fp.unbackFieldData(fragment, fieldIds);
    if (dataChange) {
      fp.rewriteCells(fragment, fieldIds);
    }
  }
}
