package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Field;
import java.util.Objects;
import java.util.Optional;

/**
 * Changes facets of a field in place, keeping its id: the name and the nullability. A change
 * of logical type (a cast) is rejected: a cast is DropField, AddField and the new data.
 */
public record AlterField(Ref field, Optional<String> name, Optional<String> logicalType,
    Optional<Boolean> nullable) implements Action {

  public AlterField {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(logicalType, "logicalType");
    Objects.requireNonNull(nullable, "nullable");
  }

  public static AlterField rename(Ref field, String newName) {
    return new AlterField(field, Optional.of(newName), Optional.empty(), Optional.empty());
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    int id = state.resolveField(field);
    Field current = state.field(id).orElseThrow(() ->
        state.invalid("AlterField names field " + id + ", which does not exist"));
    if (logicalType.isPresent() && !logicalType.get().equals(current.logicalType())) {
      throw state.invalid("AlterField cannot change the type of field " + id + " ('"
          + current.name() + "') from " + current.logicalType() + " to " + logicalType.get()
          + "; a cast is spelled DropField(" + id + ") + AddField(new " + logicalType.get()
          + " field) + AddDataFile for its data in each fragment");
    }
    if (name.isPresent() && name.get().isEmpty()) {
      throw state.invalid("AlterField cannot rename field " + id + " to an empty name");
    }
    Field.Builder b = current.toBuilder();
    name.ifPresent(b::name);
    nullable.ifPresent(b::nullable);
    state.replaceField(b.build());
  }

  /** Writes the definition whatever facets change; a rename also writes the new name. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.writeFieldDefinition(field);
    name.ifPresent(n -> fp.write(new Coordinate.FieldName(n)));
    if (nullable.isPresent() && !nullable.get()) {
      fp.makeNonNullable(field);
    }
  }
}
