package dev.lancet.core.apply;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.pb.RowIdProtos;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the next manifest from a read manifest and a composite operation: applies every
 * action in order to an {@link ApplyState}, then assembles the result. Pure: no I/O. The
 * first failing action aborts the whole build, so nothing partial is ever produced. Applying
 * the same operation to a newer manifest re-mints every Local token from that manifest's
 * counters (this is how a commit is rebased).
 */
public final class CompositeApply {
  private static final String FRAGMENT_REUSE_INDEX = "__lance_frag_reuse";

  private CompositeApply() {}

  /**
   * The manifest and index list the operation produces, and which action produced each part of
   * them (for errors the publish checks find).
   */
  public record Result(Manifest manifest, List<IndexSegment> indices, Provenance provenance) {
    public Result(Manifest manifest, List<IndexSegment> indices) {
      this(manifest, indices, Provenance.none());
    }
  }

  /**
   * Applies {@code op} on top of {@code current} (the newest manifest) for a transaction that
   * read {@code readVersion}. The result is version {@code current.version() + 1}; feature
   * flags, timestamp and the transaction file name are stamped when it is published.
   */
  public static Result apply(Manifest current, List<IndexSegment> indices, CompositeOperation op,
      long readVersion) {
    if (current == null) {
      throw new ApplyException("", "there is no table to apply the operation to: an action-based "
          + "transaction describes a change to an existing table and cannot create one (create the "
          + "table with a legacy Overwrite first)");
    }
    ApplyState state = new ApplyState(current, indices, readVersion);
    List<UserStep> steps = op.steps();
    for (int s = 0; s < steps.size(); s++) {
      UserStep step = steps.get(s);
      List<Action> actions = step.actions();
      for (int a = 0; a < actions.size(); a++) {
        Action action = actions.get(a);
        state.at("step " + (s + 1) + " ('" + step.description() + "'), action " + (a + 1)
            + " (" + action.actionName() + ")");
        action.apply(state);
      }
    }
    state.at("assembling the manifest");
    return assemble(state);
  }

  static Result assemble(ApplyState state) {
    for (Map.Entry<Long, String> declared : state.relocationsDeclared.entrySet()) {
      if (!state.rowsLeave.contains(declared.getKey())) {
        throw new ApplyException(declared.getValue(), "RelocateRows declares rows of fragment "
            + Long.toUnsignedString(declared.getKey()) + " moved, but nothing in this operation "
            + "removes them from it; add the SetDeletionFile that deletes the moved rows (or the "
            + "RemoveFragment of the whole fragment)");
      }
    }
    Manifest read = state.readManifest();
    long nextRowId = read.nextRowId();
    if (state.usesStableRowIds()) {
      nextRowId = assignRowIds(state, read.nextRowId());
    }
    for (long id : state.minted) {
      Fragment f = state.fragments.get(id);
      if (f == null) {
        continue;
      }
      Fragment.Builder b = f.toBuilder();
      if (state.usesStableRowIds() && f.lastUpdatedAtVersions().isEmpty()) {
        b.lastUpdatedAtVersions(Optional.of(state.uniformVersions(f.physicalRows())));
      }
      if (state.usesStableRowIds() && f.createdAtVersions().isEmpty()) {
        b.createdAtVersions(Optional.of(state.uniformVersions(f.physicalRows())));
      }
      state.fragments.put(id, b.build());
    }
    nextRowId += state.reservedRowIds;

    Schema schema = new Schema(state.fields, state.schemaMetadata);
    List<IndexSegment> indices = pruneRebound(state);
    indices = retainRelevant(indices, schema, state.fragments.keySet());

    List<Fragment> fragments = new ArrayList<>(state.fragments.size());
    Set<Integer> liveFields = new HashSet<>();
    for (Field field : schema.fields()) {
      liveFields.add(field.id());
    }
    for (Fragment f : state.fragments.values()) {
      fragments.add(normalize(f, liveFields));
    }
    fragments.sort(Comparator.comparingLong(Fragment::id));

    List<BasePath> bases = new ArrayList<>(read.basePaths());
    bases.addAll(state.newBases.values());

    OptionalLong maxFragmentId = read.maxFragmentId();
    long highWater = Math.max(state.nextFragmentId - 1, state.reservedHighWater);
    if (highWater > 0xFFFF_FFFFL) {
      throw state.invalid("reserving fragment ids up to " + highWater + " exceeds the maximum "
          + "fragment id (4294967295)");
    }
    if (highWater >= 0 && (maxFragmentId.isEmpty() || maxFragmentId.getAsLong() < highWater)) {
      maxFragmentId = OptionalLong.of(highWater);
    }

    Manifest next = read.toBuilder()
        .version(read.version() + 1)
        .schema(schema)
        .fragments(fragments)
        .basePaths(bases)
        .config(state.config)
        .tableMetadata(state.tableMetadata)
        .maxFragmentId(maxFragmentId)
        .nextRowId(nextRowId)
        .tag("")
        .transactionFile("")
        .indexSection(OptionalLong.empty())
        .transactionSection(OptionalLong.empty())
        .timestamp(Optional.empty())
        .build();
    return new Result(next, List.copyOf(indices), state.provenance.build());
  }

  /**
   * Stable row ids for fragments this operation minted, in mint order: a missing sequence gets
   * a fresh range; a short one is extended; a supplied one may only use ids that an earlier
   * commit reserved (below the committed counter). Errors about a fragment's sequence name the
   * AddFragment action that supplied it.
   */
  private static long assignRowIds(ApplyState state, long counter) {
    long readCounter = counter;
    for (long id : state.minted) {
      Fragment f = state.fragments.get(id);
      if (f == null) {
        continue;
      }
      if (f.rowIds().isEmpty()) {
        state.fragments.put(id, f.toBuilder()
            .rowIds(Optional.of(rangeSequence(counter, f.physicalRows()))).build());
        counter += f.physicalRows();
        continue;
      }
      if (!(f.rowIds().get() instanceof StoredSequence.Inline inline)) {
        continue;
      }
      dev.lancet.format.rowids.RowIdSequence seq;
      try {
        seq = dev.lancet.format.rowids.RowIdSequence.decode(inline.bytes().toByteArray(),
            "fragment " + id + " row ids");
      } catch (dev.lancet.format.FormatException e) {
        throw rowIdError(state, id, "fragment " + id + " carries an unreadable row-id sequence ("
            + e.getMessage() + ")");
      }
      long largest = largestId(seq);
      if (!seq.isEmpty() && Long.compareUnsigned(largest, readCounter) >= 0) {
        throw rowIdError(state, id, "fragment " + id + " carries row id "
            + Long.toUnsignedString(largest) + ", but no commit has reserved it (the table's next "
            + "row id is " + readCounter + "); reserve row ids with ReserveRowIds in an earlier "
            + "commit, or leave the sequence out to have fresh ids assigned");
      }
      long missing = f.physicalRows() - seq.length();
      if (missing < 0) {
        throw rowIdError(state, id, "fragment " + id + " carries " + seq.length() + " row ids for "
            + f.physicalRows() + " rows");
      }
      if (missing > 0) {
        dev.lancet.format.rowids.RowIdSequence extended =
            seq.concat(dev.lancet.format.rowids.RowIdSequence.ofRange(counter, missing));
        state.fragments.put(id, f.toBuilder()
            .rowIds(Optional.of(StoredSequence.inline(extended.encode()))).build());
        counter += missing;
      }
    }
    return counter;
  }

  /** An error about a minted fragment's row ids, located at the action that added it. */
  private static ApplyException rowIdError(ApplyState state, long fragmentId, String problem) {
    String addedAt = state.addedAt.get(fragmentId);
    return addedAt == null ? state.invalid(problem) : new ApplyException(addedAt, problem);
  }

  static StoredSequence rangeSequence(long start, long count) {
    return new StoredSequence.Inline(RowIdProtos.RowIdSequence.newBuilder()
        .addSegments(RowIdProtos.U64Segment.newBuilder().setRange(
            RowIdProtos.U64Segment.Range.newBuilder().setStart(start).setEnd(start + count)))
        .build().toByteString());
  }

  /** The largest id of a non-empty sequence (unsigned), read off the segments' shapes. */
  private static long largestId(dev.lancet.format.rowids.RowIdSequence seq) {
    long max = 0;
    for (dev.lancet.format.rowids.U64Segment s : seq.segments()) {
      long length = s.length();
      if (length == 0) {
        continue;
      }
      long segmentMax;
      if (s instanceof dev.lancet.format.rowids.U64Segment.Array) {
        segmentMax = 0;
        java.util.PrimitiveIterator.OfLong values = s.iterator();
        while (values.hasNext()) {
          long v = values.nextLong();
          if (Long.compareUnsigned(v, segmentMax) > 0) {
            segmentMax = v;
          }
        }
      } else {
        // Every other shape holds its values in ascending order.
        segmentMax = s.get(length - 1);
      }
      if (Long.compareUnsigned(segmentMax, max) > 0) {
        max = segmentMax;
      }
    }
    return max;
  }

  /** Removes fragments whose field data changed from the coverage of indices over those fields. */
  private static List<IndexSegment> pruneRebound(ApplyState state) {
    List<IndexSegment> out = new ArrayList<>(state.indices.size());
    for (IndexSegment s : state.indices) {
      if (s.fragmentBitmap().isEmpty() || state.rebound.isEmpty()) {
        out.add(s);
        continue;
      }
      RoaringBitmap bitmap = s.coveredFragments().orElseThrow().toRoaringBitmap();
      boolean changed = false;
      for (Map.Entry<Long, Set<Integer>> e : state.rebound.entrySet()) {
        long frag = e.getKey();
        if (frag < 0 || frag > 0xFFFF_FFFFL || !bitmap.contains((int) frag)) {
          continue;
        }
        for (int field : s.fields()) {
          if (e.getValue().contains(field)) {
            bitmap.remove((int) frag);
            changed = true;
            break;
          }
        }
      }
      out.add(changed ? s.withFragmentBitmap(bitmap) : s);
    }
    return out;
  }

  /**
   * Lance's rule for which segments survive a commit: a non-system segment over a field no
   * longer in the schema goes; per index name, segments that cover none of the remaining
   * fragments go, except that a scalar index keeps its oldest empty segment when all are empty
   * and a single non-vector segment is kept even when empty.
   */
  static List<IndexSegment> retainRelevant(List<IndexSegment> indices, Schema schema, Set<Long> fragmentIds) {
    Set<Integer> fieldIds = new HashSet<>();
    for (Field f : schema.fields()) {
      fieldIds.add(f.id());
    }
    List<IndexSegment> kept = new ArrayList<>();
    for (IndexSegment s : indices) {
      if (isSystem(s) || fieldIds.containsAll(s.fields())) {
        kept.add(s);
      }
    }
    Map<String, List<IndexSegment>> byName = new HashMap<>();
    for (IndexSegment s : kept) {
      byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
    }
    List<IndexSegment> out = new ArrayList<>();
    for (IndexSegment s : kept) {
      List<IndexSegment> group = byName.get(s.name());
      if (isSystem(s) || s.name().equals(FRAGMENT_REUSE_INDEX) || !coversNothing(s, fragmentIds)) {
        out.add(s);
        continue;
      }
      boolean vector = s.detailsTypeUrl().endsWith("VectorIndexDetails");
      if (group.size() == 1) {
        if (!vector) {
          out.add(s);
        }
        continue;
      }
      boolean allEmpty = group.stream().allMatch(g -> coversNothing(g, fragmentIds));
      if (allEmpty && !vector) {
        IndexSegment oldest = group.stream().min(Comparator.comparingLong(IndexSegment::datasetVersion)).orElseThrow();
        if (oldest == s) {
          out.add(s);
        }
      }
    }
    return out;
  }

  private static boolean isSystem(IndexSegment s) {
    return s.name().startsWith("__lance_");
  }

  /** True when the segment records coverage and none of it is a fragment that still exists. */
  private static boolean coversNothing(IndexSegment s, Set<Long> fragmentIds) {
    if (s.fragmentBitmap().isEmpty()) {
      return false;
    }
    for (int id : s.coveredFragments().orElseThrow()) {
      if (fragmentIds.contains(Integer.toUnsignedLong(id))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A file that backs no field of the final schema is dropped: its slots are all tombstoned,
   * or name only fields that were dropped (legacy Project prunes the same files).
   */
  private static Fragment normalize(Fragment f, Set<Integer> live) {
    List<DataFile> files = new ArrayList<>(f.files().size());
    for (DataFile file : f.files()) {
      if (file.fields().stream().anyMatch(live::contains)) {
        files.add(file);
      }
    }
    return files.size() == f.files().size() ? f : f.toBuilder().files(files).build();
  }


}
