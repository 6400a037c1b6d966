package dev.lancet.table;

import java.util.Objects;
import java.util.Optional;

/**
 * A tag: a name for a version of a branch ({@code _refs/tags/{name}.json}, as lance-core reads and
 * writes). {@code branch} is empty for a version of main.
 */
public record TagInfo(String name, long version, Optional<String> branch) {
  public TagInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(branch, "branch");
  }

  /** A tag of a version of main. */
  public TagInfo(String name, long version) {
    this(name, version, Optional.empty());
  }
}
