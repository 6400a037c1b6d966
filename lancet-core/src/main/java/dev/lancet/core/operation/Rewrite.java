package dev.lancet.core.operation;

import com.google.protobuf.Any;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Compaction: each group replaces some fragments by others holding the same rows (new ids
 * are normally reserved beforehand with ReserveFragments); indices that were remapped to the
 * new fragments are listed with their new segment ids.
 */
public record Rewrite(List<Group> groups, List<RewrittenIndex> rewrittenIndices)
    implements LegacyOperation {

  /** Old fragments and the fragments that replace them. */
  public record Group(List<Fragment> oldFragments, List<Fragment> newFragments) {
    public Group {
      oldFragments = List.copyOf(oldFragments);
      newFragments = List.copyOf(newFragments);
    }
  }

  /**
   * An index segment remapped by the rewrite: it becomes {@code newId}. The details, version
   * and files describe the rewritten segment; a version of 0 and no files mean "unchanged".
   */
  public record RewrittenIndex(
      UUID oldId,
      UUID newId,
      Optional<Any> newIndexDetails,
      int newIndexVersion,
      List<IndexSegment.IndexFile> newIndexFiles) {
    public RewrittenIndex {
      Objects.requireNonNull(oldId, "oldId");
      Objects.requireNonNull(newId, "newId");
      Objects.requireNonNull(newIndexDetails, "newIndexDetails");
      newIndexFiles = List.copyOf(newIndexFiles);
    }
  }

  public Rewrite {
    groups = List.copyOf(groups);
    rewrittenIndices = List.copyOf(rewrittenIndices);
  }

  @Override
  public String operationName() {
    return "Rewrite";
  }
}
