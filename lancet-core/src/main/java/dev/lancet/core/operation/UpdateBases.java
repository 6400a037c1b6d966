package dev.lancet.core.operation;

import dev.lancet.format.model.BasePath;
import java.util.List;

/** Registers new base paths; an id of 0 means "assign the next free id". */
public record UpdateBases(List<BasePath> newBases) implements LegacyOperation {
  public UpdateBases {
    newBases = List.copyOf(newBases);
  }

  @Override
  public String operationName() {
    return "UpdateBases";
  }
}
