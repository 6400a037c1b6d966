package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Field;
import java.util.Objects;
import java.util.Optional;

/**
 * A new schema field. A nested column is several AddFields, parent first, each child naming
 * its parent by token; ids are minted in action order, which is the pre-order Lance uses.
 */
public record AddField(int local, Optional<Ref> parent, Field def) implements Action {

  public AddField {
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(def, "def");
  }

  public static AddField topLevel(int token, Field def) {
    return new AddField(token, Optional.empty(), def);
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    int id = state.mintField(local);
    int parentId = Field.NO_PARENT;
    if (parent.isPresent()) {
      parentId = state.resolveField(parent.get());
      if (state.field(parentId).isEmpty()) {
        throw state.invalid("AddField names parent field " + parentId + ", which does not exist");
      }
    }
    state.addField(def.toBuilder().id(id).parentId(parentId).build());
  }

  /** Writes the name table-wide; needs a committed parent's definition unchanged. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.write(new Coordinate.FieldName(def.name()));
    parent.ifPresent(fp::requireFieldDefinition);
    if (!def.nullable()) {
      fp.mintNonNullable();
    }
  }
}
