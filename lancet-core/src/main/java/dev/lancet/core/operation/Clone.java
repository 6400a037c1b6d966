package dev.lancet.core.operation;

import java.util.Objects;
import java.util.Optional;

/**
 * Creates a table (or branch) as a clone of version {@code refVersion} of the table at
 * {@code refPath}; a shallow clone references the source's files through a base path.
 */
public record Clone(boolean isShallow, Optional<String> refName, long refVersion, String refPath,
    Optional<String> branchName) implements LegacyOperation {
  public Clone {
    Objects.requireNonNull(refName, "refName");
    Objects.requireNonNull(refPath, "refPath");
    Objects.requireNonNull(branchName, "branchName");
  }

  @Override
  public String operationName() {
    return "Clone";
  }
}
