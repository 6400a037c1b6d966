package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.Texts;
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
    Fragment target = state.fragment(fragmentId, actionName());
    if (fieldIds.isEmpty()) {
      throw state.invalid("AddDataFile for " + Texts.quote(file.path()) + " names no field ids; "
          + "list the field each column of the file stores");
    }
    List<Integer> fields = new ArrayList<>(fieldIds.size());
    for (Ref f : fieldIds) {
      int id = state.resolveField(f);
      if (state.field(id).isEmpty()) {
        throw state.invalid("AddDataFile for " + Texts.quote(file.path()) + " stores field " + id
            + ", which does not exist" + (state.readManifest().schema().field(id).isPresent()
                ? " any more (an earlier action in this operation dropped it)" : "")
            + "; a data file stores fields of the schema");
      }
      fields.add(id);
    }
    if (!file.columnIndices().isEmpty() && file.columnIndices().size() != fields.size()) {
      throw state.invalid("AddDataFile for " + file.path() + " lists " + fields.size()
          + " field ids but the file has " + file.columnIndices().size() + " columns");
    }
    List<DataFile> files = new ArrayList<>(target.files());
    DataFile added = file.withFields(fields);
    files.add(added);
    state.putFragment(target.toBuilder().files(files).build());
    state.noteAddedFile(fragmentId, added);
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
