package dev.lancet.core.version;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A branch of a table, as Lance records it in {@code _refs/branches/{name}.json}: the branch it
 * was created from (empty: main), the version of that branch it starts at, when (seconds since
 * the epoch), the size of that version's manifest, its lineage and free-form metadata. The
 * branch's own versions live under {@link #directory()} (docs/decisions/0027).
 *
 * @param lineage Lance's branch identifier: one {@link Fork} per branch point from main down to
 *     this branch (the parent's lineage plus this branch's own fork); empty when the file carries
 *     none (branch files older than the identifier)
 */
public record Branch(String name, Optional<String> parentBranch, long parentVersion,
    long createAt, long manifestSize, List<Fork> lineage, Map<String, String> metadata) {

  /** One branch point of a lineage: the parent's version and the new branch's random id. */
  public record Fork(long version, String uuid) {
    public Fork {
      Objects.requireNonNull(uuid, "uuid");
    }
  }

  public Branch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parentBranch, "parentBranch");
    lineage = List.copyOf(lineage);
    metadata = Map.copyOf(metadata);
  }

  /** The branch's dataset root relative to the table root: {@code tree/{name}/}. */
  public String directory() {
    return Branches.directory(name);
  }
}
