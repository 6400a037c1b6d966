package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import java.util.Objects;

/**
 * Removes a field and its descendants from the schema and tombstones their data in every
 * fragment present at apply (as legacy Project does). Field ids are never reused.
 */
public record DropField(Ref field) implements Action {

  public DropField {
    Objects.requireNonNull(field, "field");
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    int id = state.resolveField(field);
    if (state.field(id).isEmpty()) {
      throw state.invalid("DropField names field " + id + ", which does not exist");
    }
    state.dropField(id);
  }
}
