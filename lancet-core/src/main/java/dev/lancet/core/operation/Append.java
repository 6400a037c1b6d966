package dev.lancet.core.operation;

import dev.lancet.format.model.Fragment;
import java.util.List;

/** New fragments. An id of 0 means "assign me" (the next free id at commit). */
public record Append(List<Fragment> fragments) implements LegacyOperation {
  public Append {
    fragments = List.copyOf(fragments);
  }

  @Override
  public String operationName() {
    return "Append";
  }
}
