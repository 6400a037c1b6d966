package dev.lancet.core.operation;

/** Makes an older version's content the newest version. */
public record Restore(long version) implements LegacyOperation {
  @Override
  public String operationName() {
    return "Restore";
  }
}
