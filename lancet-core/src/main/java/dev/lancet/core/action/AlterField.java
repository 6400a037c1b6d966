package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Field;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Changes facets of a field in place: the name and the nullability, keeping its id; or, with
 * {@code newLocal}, its logical type (a cast). A cast gives the field a new id (minted for the
 * token {@code newLocal}) at the same schema position, as lance-core's {@code alter_columns}
 * does: the old id's descendants leave the schema (a nested new type adds its children with
 * AddField under the new token), its metadata is dropped, and the new data comes with
 * AddDataFile per fragment after the old data is tombstoned (decision 0011). A change of type
 * without {@code newLocal} is rejected.
 */
public record AlterField(Ref field, Optional<String> name, Optional<String> logicalType,
    Optional<Boolean> nullable, OptionalInt newLocal) implements Action {

  public AlterField {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(logicalType, "logicalType");
    Objects.requireNonNull(nullable, "nullable");
    Objects.requireNonNull(newLocal, "newLocal");
  }

  /** A change of name and/or nullability (a logical type, if given, must be the current one). */
  public AlterField(Ref field, Optional<String> name, Optional<String> logicalType,
      Optional<Boolean> nullable) {
    this(field, name, logicalType, nullable, OptionalInt.empty());
  }

  /** A cast of {@code field} to {@code logicalType}, its new id minted for {@code newLocal}. */
  public static AlterField cast(Ref field, int newLocal, String logicalType) {
    return new AlterField(field, Optional.empty(), Optional.of(logicalType), Optional.empty(),
        OptionalInt.of(newLocal));
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
    if (newLocal.isPresent()) {
      applyCast(state, current);
      return;
    }
    if (logicalType.isPresent() && !logicalType.get().equals(current.logicalType())) {
      throw state.invalid("AlterField cannot change the type of field " + id + " ('"
          + current.name() + "') from " + current.logicalType() + " to " + logicalType.get()
          + " in place; a cast is spelled TombstoneFieldData(" + id + ") in each fragment with "
          + "its data + AlterField(" + id + ", logical_type, new_local) + AddDataFile for the new "
          + "data in each fragment (decision 0011)");
    }
    if (name.isPresent() && name.get().isEmpty()) {
      throw state.invalid("AlterField cannot rename field " + id + " to an empty name");
    }
    Field.Builder b = current.toBuilder();
    name.ifPresent(b::name);
    nullable.ifPresent(b::nullable);
    state.replaceField(b.build());
  }

  private void applyCast(ApplyState state, Field current) {
    if (logicalType.isEmpty() || logicalType.get().isEmpty()) {
      throw state.invalid("AlterField with new_local " + newLocal.getAsInt() + " is a cast and "
          + "needs the new logical type of field " + current.id() + " ('" + current.name() + "')");
    }
    if (logicalType.get().equals(current.logicalType())) {
      throw state.invalid("AlterField casts field " + current.id() + " ('" + current.name()
          + "') to " + current.logicalType() + ", its current type; leave new_local unset");
    }
    if (name.isPresent() && name.get().isEmpty()) {
      throw state.invalid("AlterField cannot rename field " + current.id() + " to an empty name");
    }
    // Data of the old field that this operation does not tombstone would silently read as
    // null after the cast: a fragment a concurrent commit added (the rebase brought it in) is a
    // conflict, one the caller left out is invalid input.
    java.util.Set<Integer> subtree = new java.util.HashSet<>(java.util.List.of(current.id()));
    for (boolean grew = true; grew; ) {
      grew = false;
      for (Field c : state.readManifest().schema().fields()) {
        grew |= subtree.contains(c.parentId()) && subtree.add(c.id());
      }
    }
    for (dev.lancet.format.model.Fragment f : state.fragments()) {
      boolean live = f.files().stream().anyMatch(df -> df.fields().stream().anyMatch(subtree::contains));
      if (!live) {
        continue;
      }
      String problem = "fragment " + Long.toUnsignedString(f.id()) + " holds data of field "
          + current.id() + " ('" + current.name() + "') that this cast does not rewrite";
      if (state.readManifest().version() > state.readVersion()) {
        throw new dev.lancet.core.commit.ConflictingCommitException(state.readManifest().version(),
            "a concurrent commit", java.util.List.of(new dev.lancet.core.conflict.Collision.FieldData(
                f.id(), current.id(), problem + " (it was committed after version "
                + state.readVersion() + ", which the cast read): cast again")));
      }
      throw state.invalid(problem + "; tombstone it (TombstoneFieldData) and add the cast data "
          + "(AddDataFile) in the same operation");
    }
    int newId = state.mintField(newLocal.getAsInt());
    Field replacement = Field.builder(newId, name.orElse(current.name()), logicalType.get())
        .parentId(current.parentId())
        .nullable(nullable.orElse(current.nullable()))
        .encodingValue(Field.encodingOf(logicalType.get()))
        .dictionary(logicalType.get().startsWith("dict:")
            ? Optional.of(new Field.Dictionary(0, 0)) : Optional.empty())
        .build();
    state.replaceFieldIdentity(current.id(), replacement);
  }

  /**
   * Writes the definition whatever facets change; a rename also writes the new name. A cast
   * also removes the old field (as DropField does), so a concurrent write of its data or its
   * metadata collides.
   */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.writeFieldDefinition(field);
    name.ifPresent(n -> fp.write(new Coordinate.FieldName(n)));
    if (nullable.isPresent() && !nullable.get()) {
      fp.makeNonNullable(field);
    }
    if (newLocal.isPresent()) {
      fp.removeField(field);
    }
  }
}
