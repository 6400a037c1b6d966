package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.Objects;

/**
 * Removes a field and its descendants from the schema, exactly as legacy Project does: in
 * every fragment present at apply, a data file left holding no field of the schema is pruned;
 * a surviving file keeps the dropped ids in its slots (they are the field-id watermark, so the
 * ids are never reused); overlays are left alone. Indices over a dropped field are discarded
 * at assembly.
 */
public record DropField(Ref field) implements Action {

  public DropField {
    Objects.requireNonNull(field, "field");
  }

  @Override
  public boolean isDataChange() {
    // Every value the field held leaves the table.
    return true;
  }

  @Override
  public void apply(ApplyState state) {
    int id = state.resolveField(field);
    if (state.field(id).isEmpty()) {
      throw state.invalid("DropField names field " + id + ", which does not exist");
    }
    state.dropField(id);
  }

  @Override
  public void footprint(FootprintBuilder fp) {
    fp.removeField(field);
  }
}
