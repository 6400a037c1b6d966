package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.BasePath;
import java.util.Objects;

/** A new base path. Names (when set) and locations are unique within a table. */
public record AddBase(int local, BasePath base) implements Action {

  public AddBase {
    Objects.requireNonNull(base, "base");
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    int id = state.mintBase(local);
    for (BasePath existing : state.bases()) {
      if (base.name().isPresent() && base.name().equals(existing.name())) {
        throw state.invalid("a base path named \"" + base.name().get() + "\" already exists (id "
            + existing.id() + ", at '" + existing.path() + "'); base names are unique within a table");
      }
      if (base.path().equals(existing.path())) {
        throw state.invalid("a base path at '" + base.path() + "' already exists (id "
            + existing.id() + "); base locations are unique within a table");
      }
    }
    state.addBase(base.withId(id));
  }

  /** Writes its name (when set) and its location. */
  @Override
  public void footprint(FootprintBuilder fp) {
    base.name().ifPresent(n -> fp.write(new Coordinate.BaseName(n)));
    fp.write(new Coordinate.BaseLocation(base.path()));
  }
}
