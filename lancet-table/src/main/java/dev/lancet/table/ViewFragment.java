package dev.lancet.table;

import dev.lancet.core.action.Ref;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * One fragment as a statement sees it: a committed fragment of the version read (with the
 * deletions earlier statements of the same transaction made), or a fragment an earlier statement
 * of the transaction wrote ({@link #pending()}). Deletion vectors and row-id sequences are read
 * when first asked for.
 */
final class ViewFragment {
  private Fragment fragment;
  private final Optional<PendingFragment> pending;
  private DeletionVector deleted;
  private boolean removed;

  ViewFragment(Fragment fragment, Optional<PendingFragment> pending) {
    this.fragment = fragment;
    this.pending = pending;
    if (pending.isPresent()) {
      this.deleted = DeletionVector.empty();
    }
  }

  long id() {
    return fragment.id();
  }

  Fragment fragment() {
    return fragment;
  }

  Optional<PendingFragment> pending() {
    return pending;
  }

  boolean removed() {
    return removed;
  }

  void markRemoved() {
    removed = true;
  }

  /** The fragment's id changed (a pending fragment got a reserved id). */
  void renumber(long id) {
    fragment = fragment.toBuilder().id(id).build();
  }

  /** The fragment now carries explicit row ids (reserved for a pending fragment). */
  void rowIds(RowIdSequence ids) {
    fragment = fragment.toBuilder().rowIds(Optional.of(StoredSequence.inline(ids.encode()))).build();
  }

  /** The ref an action names this fragment by. */
  Ref ref() {
    return pending.map(PendingFragment::ref).orElse(Ref.committed(fragment.id()));
  }

  /** Whether a deletion file can name it (a committed or reserved id). */
  boolean hasCommittedId() {
    return pending.isEmpty() || pending.get().reservedId().isPresent();
  }

  DeletionVector deleted(TableContext ctx) {
    if (deleted == null) {
      try {
        deleted = BaseFiles.deletions(ctx, fragment);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the deletion file of fragment " + fragment.id(), e);
      }
    }
    return deleted;
  }

  void deleted(DeletionVector now) {
    this.deleted = now;
  }

  long liveRows(TableContext ctx) {
    return fragment.physicalRows() - deleted(ctx).cardinality();
  }

  List<RowRange> liveRanges(TableContext ctx) {
    return RowSelection.live(fragment.physicalRows(), deleted(ctx));
  }

  /** The stable row id of every physical row, when the fragment has them. */
  Optional<RowIdSequence> rowIds(TableContext ctx) {
    return FragmentRead.inlineRowIds(fragment, ctx.store());
  }

  /** The version each physical row was created at, when recorded. */
  Optional<RowVersionSequence> createdAt(TableContext ctx) {
    return versions(ctx, fragment.createdAtVersions(), "created-at versions");
  }

  /** The version each physical row was last updated at, when recorded. */
  Optional<RowVersionSequence> lastUpdatedAt(TableContext ctx) {
    return versions(ctx, fragment.lastUpdatedAtVersions(), "last-updated versions");
  }

  private Optional<RowVersionSequence> versions(TableContext ctx, Optional<StoredSequence> s,
      String what) {
    if (s.isEmpty()) {
      return Optional.empty();
    }
    String where = what + " of fragment " + fragment.id();
    if (s.get() instanceof StoredSequence.Inline in) {
      return Optional.of(RowVersionSequence.decode(in.bytes().toByteArray(), where));
    }
    dev.lancet.format.model.ExternalFile ext = ((StoredSequence.External) s.get()).file();
    try {
      return Optional.of(RowVersionSequence.decode(
          ctx.store().getRange(ext.path(), ext.offset(), Math.toIntExact(ext.size())), where));
    } catch (IOException e) {
      throw new UncheckedIOException("reading the " + where + " from " + ext.path(), e);
    }
  }
}
