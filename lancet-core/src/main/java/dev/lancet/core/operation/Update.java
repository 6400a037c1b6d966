package dev.lancet.core.operation;

import com.google.protobuf.ByteString;
import dev.lancet.core.action.CompactedSsTable;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.format.model.Fragment;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Changed rows: fragments removed, fragments with new deletion files or rewritten columns
 * (post-images, existing ids), and new fragments holding moved or inserted rows (id 0 means
 * "assign me"). Field ids are unsigned 32-bit values held in ints.
 *
 * @param updatedFragmentOffsetBitmaps fragment id to a portable Roaring bitmap of the physical
 *     offsets this update touched (the deprecated list form decodes into it)
 */
public record Update(
    List<Long> removedFragmentIds,
    List<Fragment> updatedFragments,
    List<Fragment> newFragments,
    List<Integer> fieldsModified,
    List<CompactedSsTable> compactedSsTables,
    List<Integer> fieldsForPreservingFragBitmap,
    UpdateMode updateMode,
    Optional<InsertedRows> insertedRows,
    Map<Long, ByteString> updatedFragmentOffsetBitmaps) implements LegacyOperation {

  /** How the updated rows were written. */
  public enum UpdateMode {
    /** Updated rows are deleted where they were and rewritten into new fragments. */
    REWRITE_ROWS,
    /** Updated columns are rewritten in place, in the fragments the rows live in. */
    REWRITE_COLUMNS
  }

  /** The keys a merge insert inserted, over the key fields {@code keyFieldIds}. */
  public record InsertedRows(List<Integer> keyFieldIds, KeyExistenceFilter filter) {
    public InsertedRows {
      keyFieldIds = List.copyOf(keyFieldIds);
      Objects.requireNonNull(filter, "filter");
    }
  }

  public Update {
    removedFragmentIds = List.copyOf(removedFragmentIds);
    updatedFragments = List.copyOf(updatedFragments);
    newFragments = List.copyOf(newFragments);
    fieldsModified = List.copyOf(fieldsModified);
    compactedSsTables = List.copyOf(compactedSsTables);
    fieldsForPreservingFragBitmap = List.copyOf(fieldsForPreservingFragBitmap);
    Objects.requireNonNull(updateMode, "updateMode");
    Objects.requireNonNull(insertedRows, "insertedRows");
    updatedFragmentOffsetBitmaps = Map.copyOf(updatedFragmentOffsetBitmaps);
  }

  @Override
  public String operationName() {
    return "Update";
  }
}
