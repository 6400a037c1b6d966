package dev.lancet.core.conflict.legacy;

import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The manifests around a committed legacy transaction that landed as version {@code landed}:
 * the version before it ({@code landed - 1}, what it was applied onto), itself, and the version
 * its transaction says it read, when that is still readable. Loaded by the commit path (I/O in
 * the conflict path is accepted, seed §3 option C point 2); the lowering itself is pure.
 *
 * @param before manifest {@code landed - 1}
 * @param beforeIndices its index segments
 * @param landed the manifest the transaction produced
 * @param landedIndices its index segments
 * @param read the manifest of the transaction's recorded read version, empty when it was
 *     cleaned up
 */
public record CommittedVersions(Manifest before, List<IndexSegment> beforeIndices, Manifest landed,
    List<IndexSegment> landedIndices, Optional<Manifest> read) {

  public CommittedVersions {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(landed, "landed");
    Objects.requireNonNull(read, "read");
    beforeIndices = List.copyOf(beforeIndices);
    landedIndices = List.copyOf(landedIndices);
  }

  /**
   * The fragments the version removed: in {@code before} (and, for a transaction whose read
   * version is honest, in its read version) but not in {@code landed}.
   */
  public Set<Long> removedFragments(boolean includeRead) {
    Set<Long> kept = ids(landed);
    Set<Long> out = new LinkedHashSet<>();
    for (long id : ids(before)) {
      if (!kept.contains(id)) {
        out.add(id);
      }
    }
    if (includeRead && read.isPresent()) {
      for (long id : ids(read.get())) {
        if (!kept.contains(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  static Set<Long> ids(Manifest m) {
    Set<Long> out = new LinkedHashSet<>();
    for (Fragment f : m.fragments()) {
      out.add(f.id());
    }
    return out;
  }
}
