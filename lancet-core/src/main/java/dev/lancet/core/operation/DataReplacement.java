package dev.lancet.core.operation;

import dev.lancet.format.model.DataFile;
import java.util.List;
import java.util.Objects;

/** Swaps in new data files for some fields of existing fragments (same rows, new values). */
public record DataReplacement(List<Replacement> replacements) implements LegacyOperation {

  /** The file that now holds the replaced fields of one fragment. */
  public record Replacement(long fragmentId, DataFile newFile) {
    public Replacement {
      Objects.requireNonNull(newFile, "newFile");
    }
  }

  public DataReplacement {
    replacements = List.copyOf(replacements);
  }

  @Override
  public String operationName() {
    return "DataReplacement";
  }
}
