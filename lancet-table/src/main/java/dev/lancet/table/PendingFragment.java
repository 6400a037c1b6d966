package dev.lancet.table;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.Ref;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.table.spi.WrittenFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntFunction;

/**
 * A fragment a statement wrote and the transaction has not committed yet: one data file, named
 * by a Local token until a later statement of the same transaction must address it by id (to
 * delete rows of it), when it gets a reserved id. Its actions (AddFragment + AddDataFile) are
 * made at commit, so they name the fragment as it is then.
 *
 * <p>Row ids: {@code rowIds} are the stable row ids of the first rows (rows an update moved keep
 * theirs; reserved ones), the rest get fresh ids at apply. Row versions left empty are stamped
 * with the committed version; a compaction carries both.
 */
final class PendingFragment {
  private final int token;
  private final WrittenFile file;
  private final boolean dataChange;
  private OptionalLong reservedId = OptionalLong.empty();
  private Optional<RowIdSequence> rowIds;
  private final Optional<RowVersionSequence> createdAt;
  private final Optional<RowVersionSequence> lastUpdatedAt;

  PendingFragment(int token, WrittenFile file, boolean dataChange, Optional<RowIdSequence> rowIds,
      Optional<RowVersionSequence> createdAt, Optional<RowVersionSequence> lastUpdatedAt) {
    this.token = token;
    this.file = file;
    this.dataChange = dataChange;
    this.rowIds = rowIds.filter(s -> !s.isEmpty());
    this.createdAt = createdAt;
    this.lastUpdatedAt = lastUpdatedAt;
  }

  int token() {
    return token;
  }

  WrittenFile file() {
    return file;
  }

  long physicalRows() {
    return file.physicalRows();
  }

  OptionalLong reservedId() {
    return reservedId;
  }

  void reserve(long id) {
    reservedId = OptionalLong.of(id);
  }

  Optional<RowIdSequence> rowIds() {
    return rowIds;
  }

  /** Rows that still get fresh row ids at apply. */
  long rowsWithoutIds() {
    return physicalRows() - rowIds.map(RowIdSequence::length).orElse(0L);
  }

  /** Gives the rows without ids the ids {@code [start, start + rowsWithoutIds())}. */
  void assignRowIds(long start) {
    RowIdSequence fresh = RowIdSequence.ofRange(start, rowsWithoutIds());
    rowIds = Optional.of(rowIds.map(s -> s.concat(fresh)).orElse(fresh));
  }

  Ref ref() {
    return reservedId.isPresent() ? Ref.committed(reservedId.getAsLong()) : Ref.local(token);
  }

  DataFile dataFile() {
    return new DataFile(file.path(), file.fieldIds(), file.columnIndices(),
        file.fileMajorVersion(), file.fileMinorVersion(), file.sizeBytes());
  }

  /** A view of the fragment for reads by later statements, under {@code id}. */
  dev.lancet.format.model.Fragment model(long id) {
    return dev.lancet.format.model.Fragment.builder(id).physicalRows(physicalRows())
        .files(List.of(dataFile()))
        .rowIds(rowIds.map(s -> StoredSequence.inline(s.encode())))
        .build();
  }

  /** AddFragment and AddDataFile; {@code fieldRef} names each field id the file holds. */
  List<Action> actions(IntFunction<Ref> fieldRef) {
    List<Ref> fields = new ArrayList<>();
    for (int id : file.fieldIds()) {
      fields.add(fieldRef.apply(id));
    }
    List<Action> out = new ArrayList<>(2);
    out.add(new AddFragment(ref(), physicalRows(),
        rowIds.map(s -> StoredSequence.inline(s.encode())),
        lastUpdatedAt.map(s -> StoredSequence.inline(s.encode())),
        createdAt.map(s -> StoredSequence.inline(s.encode())), dataChange));
    out.add(new AddDataFile(ref(), dataFile(), fields, dataChange));
    return out;
  }
}
