package dev.lancet.table;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A branch of a table ({@code _refs/branches/{name}.json}, as lance-core reads and writes it): the
 * branch it was created from (empty: main), the version of that branch it starts at, when, and
 * its free-form metadata. Its own versions number on from {@code parentVersion}.
 */
public record BranchInfo(String name, Optional<String> parentBranch, long parentVersion,
    Instant createdAt, Map<String, String> metadata) {
  public BranchInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parentBranch, "parentBranch");
    Objects.requireNonNull(createdAt, "createdAt");
    metadata = Map.copyOf(metadata);
  }
}
