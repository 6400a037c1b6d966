package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A data file for a fragment. {@code fieldIds} (one per stored field, in file order) is the
 * authority for which field each slot holds; the file's own field list is stamped at apply.
 */
public record AddDataFile(Ref fragment, DataFile file, List<Ref> fieldIds, boolean dataChange)
    implements Action {

  public AddDataFile {
    Objects.requireNonNull(fragment, "fragment");
    Objects.requireNonNull(file, "file");
    fieldIds = List.copyOf(fieldIds);
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.resolveFragment(fragment);
    List<Integer> fields = new ArrayList<>(fieldIds.size());
    for (Ref f : fieldIds) {
      fields.add(state.resolveField(f));
    }
    if (!file.columnIndices().isEmpty() && file.columnIndices().size() != fields.size()) {
      throw state.invalid("AddDataFile for " + file.path() + " lists " + fields.size()
          + " field ids but the file has " + file.columnIndices().size() + " columns");
    }
    Fragment target = state.fragment(fragmentId, actionName());
    List<DataFile> files = new ArrayList<>(target.files());
    files.add(file.withFields(fields));
    state.putFragment(target.toBuilder().files(files).build());
  }

  /** A data-changing file in a committed fragment changes those fields' values in place. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.writeFieldData(fragment, fieldIds);
    fp.backFieldData(fragment, fieldIds);
    if (dataChange) {
      fp.rewriteCells(fragment, fieldIds);
    }
  }
}
