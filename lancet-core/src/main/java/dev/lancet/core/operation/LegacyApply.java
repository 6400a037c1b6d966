package dev.lancet.core.operation;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateCompactedSsTables;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.apply.Provenance;
import dev.lancet.format.FormatException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.format.rowids.U64Segment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the next manifest from the newest manifest and a legacy operation, as Lance's
 * {@code build_manifest} does, with the documented legacy defects fixed. Pure: no I/O (older
 * versions come from the {@link ManifestHistory}). The result is version
 * {@code current.version() + 1}, unstamped: timestamp, writer version, feature flags and the
 * transaction file are stamped when it is published. The result keeps {@code current}'s
 * feature flags, so the publisher's derivation carries stable row ids.
 *
 * <p>Rebasing. {@code current} may be newer than {@code readVersion} (a concurrent commit
 * landed and did not conflict). What the operation means then:
 *
 * <ul>
 *   <li>Append, Update/Rewrite new fragments: ids of 0 are minted from {@code current}'s
 *       high-water mark. Overwrite fragments: ids of 0 are numbered from 0, as lance-core does
 *       (the high-water mark is kept, not lowered). Stable row ids of all of them come from
 *       {@code current}'s counter.
 *   <li>Delete: only the fragments it names, by id; from each it takes the deletion file and
 *       nothing else, so a concurrent overlay or column drop on the fragment survives.
 *   <li>Update: only the fragments it names, by id; its own change to each (deletion file,
 *       files it added, slots it tombstoned, files it removed) is computed against the version
 *       it read and replayed onto the fragment in {@code current}.
 *   <li>DataOverlay, DataReplacement, CreateIndex, UpdateConfig, UpdateBases,
 *       UpdateMemWalState, ReserveFragments, Project: deltas by nature, applied to
 *       {@code current}.
 *   <li>Merge: a post-image of the whole fragment list (Lance gives no delta to replay); its
 *       conflict rules make it retry rather than rebase over a data change.
 *   <li>Restore: the restored version's content, whatever {@code current} holds.
 * </ul>
 */
public final class LegacyApply {
  private static final String FRAGMENT_REUSE_INDEX = "__lance_frag_reuse";
  private static final String MEM_WAL_INDEX = "__lance_mem_wal";

  private LegacyApply() {}

  /**
   * The manifest and index list the operation produces, and where each new fragment came from
   * in the operation (for errors the publish checks find).
   */
  public record Result(Manifest manifest, List<IndexSegment> indices, Provenance provenance) {
    public Result {
      Objects.requireNonNull(manifest, "manifest");
      indices = List.copyOf(indices);
      Objects.requireNonNull(provenance, "provenance");
    }

    public Result(Manifest manifest, List<IndexSegment> indices) {
      this(manifest, indices, Provenance.none());
    }
  }

  /**
   * Applies {@code op}, planned against {@code readVersion}, on top of {@code current} (the
   * newest manifest, with its index list). Clone is the exception to "on top of": it builds a
   * new table from its source version (read through {@code history}) and ignores
   * {@code current}'s content.
   */
  public static Result apply(Manifest current, List<IndexSegment> indices, LegacyOperation op,
      long readVersion, ManifestHistory history) {
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(history, "history");
    Build b = new Build(current, indices, readVersion, history, op.operationName());
    if (op instanceof Append a) {
      b.append(a);
    } else if (op instanceof Delete d) {
      b.delete(d);
    } else if (op instanceof Overwrite o) {
      b.overwrite(o);
    } else if (op instanceof CreateIndex c) {
      b.createIndex(c);
    } else if (op instanceof Rewrite r) {
      b.rewrite(r);
    } else if (op instanceof DataReplacement d) {
      b.dataReplacement(d);
    } else if (op instanceof DataOverlay d) {
      b.dataOverlay(d);
    } else if (op instanceof Merge m) {
      b.merge(m);
    } else if (op instanceof Restore r) {
      return b.restore(r);
    } else if (op instanceof ReserveFragments r) {
      b.reserveFragments = r.numFragments();
    } else if (op instanceof Update u) {
      b.update(u);
    } else if (op instanceof Project p) {
      b.project(p);
    } else if (op instanceof UpdateConfig u) {
      b.updateConfig(u);
    } else if (op instanceof UpdateMemWalState w) {
      b.updateMemWalState(w);
    } else if (op instanceof Clone c) {
      return b.clone(c);
    } else if (op instanceof UpdateBases u) {
      b.updateBases(u);
    } else {
      throw new IllegalArgumentException("not a legacy operation: " + op);
    }
    return b.assemble();
  }

  /** The working state of one build. */
  private static final class Build {
    final Manifest current;
    final long readVersion;
    final ManifestHistory history;
    final String op;
    final long newVersion;
    Schema schema;
    List<Fragment> fragments;
    List<IndexSegment> indices;
    Map<String, String> config;
    Map<String, String> tableMetadata;
    List<BasePath> bases;
    long nextFragmentId;
    long nextRowId;
    long reserveFragments;
    final Provenance.Builder provenance;

    Build(Manifest current, List<IndexSegment> indices, long readVersion, ManifestHistory history,
        String op) {
      this.current = current;
      this.readVersion = readVersion;
      this.history = history;
      this.op = op;
      this.newVersion = current.version() + 1;
      this.schema = current.schema();
      this.fragments = new ArrayList<>(current.fragments());
      this.indices = new ArrayList<>(indices);
      this.config = new LinkedHashMap<>(current.config());
      this.tableMetadata = new LinkedHashMap<>(current.tableMetadata());
      this.bases = new ArrayList<>(current.basePaths());
      this.nextFragmentId = current.effectiveMaxFragmentId().orElse(-1) + 1;
      this.nextRowId = current.nextRowId();
      this.provenance = new Provenance.Builder(op);
    }

    boolean stableRowIds() {
      return current.usesStableRowIds();
    }

    ApplyException invalid(String problem) {
      return new ApplyException(op, problem);
    }

    ApplyException missing(long fragment, String problem) {
      return new ApplyException(op, problem, java.util.OptionalLong.of(fragment));
    }

    // ---- operations -----------------------------------------------------------------------

    void append(Append a) {
      List<Fragment> added = withFreshIds(a.fragments(), true);
      added = withRowIdsAndVersions(added);
      fragments.addAll(added);
    }

    /**
     * Defect (a) fixed: takes only the deletion file from each updated fragment and keeps the
     * rest (files, overlays, row metadata) from {@code current}, so a concurrent overlay or a
     * concurrent Project's pruning is not undone.
     */
    void delete(Delete d) {
      Set<Long> deleted = new HashSet<>(d.deletedFragmentIds());
      Map<Long, Fragment> updated = new HashMap<>();
      for (Fragment f : d.updatedFragments()) {
        updated.putIfAbsent(f.id(), f);
      }
      requirePresent(deleted, "deletes fragment", updated.keySet(), "sets the deletion file of fragment");
      List<Fragment> out = new ArrayList<>(fragments.size());
      for (Fragment f : fragments) {
        if (deleted.contains(f.id())) {
          continue;
        }
        Fragment u = updated.get(f.id());
        out.add(u == null ? f : f.toBuilder().deletionFile(u.deletionFile()).build());
      }
      fragments = out;
      indices = retainRelevant(indices, schema, fragments);
    }

    /**
     * The fragments an operation removes and those it updates must exist in the version it
     * applies to (a no-op version, or rows silently left, otherwise); updated ones are noted as
     * its own for errors found before publishing.
     */
    private void requirePresent(Set<Long> removed, String removing, Set<Long> updated, String updating) {
      Set<Long> present = new HashSet<>();
      fragments.forEach(f -> present.add(f.id()));
      for (long id : removed) {
        requirePresent(present, id, removing);
      }
      for (long id : updated) {
        requirePresent(present, id, updating);
        provenance.fragment(id, op + " (updated fragment " + Long.toUnsignedString(id) + ")");
      }
    }

    private void requirePresent(Set<Long> present, long id, String what) {
      if (!present.contains(id)) {
        throw missing(id, "it " + what + " " + Long.toUnsignedString(id) + ", which does not exist at "
            + "version " + current.version() + " (fragments " + describeIds(present) + ")");
      }
    }

    void overwrite(Overwrite o) {
      if (!o.initialBases().isEmpty()) {
        throw invalid("an Overwrite of an existing table cannot register base paths ("
            + o.initialBases().size() + " initial bases given); register them with UpdateBases");
      }
      schema = o.schema();
      // As lance-core does: an overwrite numbers its fragments afresh from 0. Ids left 0 take
      // 0, 1, 2, ... in the order given; an id the writer set is kept. The high-water mark is
      // not lowered (assemble keeps current's), so a later append still goes past the old ids.
      nextFragmentId = 0;
      List<Fragment> added = withFreshIds(o.fragments(), false);
      requireDistinctIds(added);
      fragments = new ArrayList<>(withRowIdsAndVersions(added));
      indices = new ArrayList<>();
      config.putAll(o.configUpsertValues());
    }

    void createIndex(CreateIndex c) {
      Set<UUID> gone = new HashSet<>();
      c.removedIndices().forEach(s -> gone.add(s.uuid()));
      c.newIndices().forEach(s -> gone.add(s.uuid()));
      indices.removeIf(s -> gone.contains(s.uuid()));
      indices.addAll(c.newIndices());
    }

    void rewrite(Rewrite r) {
      List<List<Long>> oldIds = new ArrayList<>();
      List<List<Long>> newIds = new ArrayList<>();
      for (Rewrite.Group g : r.groups()) {
        if (g.oldFragments().isEmpty()) {
          throw invalid("a rewrite group replaces no fragment; every group must name the "
              + "fragments it rewrites");
        }
        List<Long> olds = new ArrayList<>();
        Set<Long> present = new HashSet<>();
        fragments.forEach(f -> present.add(f.id()));
        for (Fragment f : g.oldFragments()) {
          if (!present.contains(f.id())) {
            throw missing(f.id(), "fragment " + f.id() + " that the rewrite replaces no longer exists at "
                + "version " + current.version() + " (a concurrent commit removed or rewrote it); "
                + "re-plan the compaction against the newest version");
          }
          olds.add(f.id());
        }
        List<Fragment> added = withFreshIds(g.newFragments(), true);
        Set<Long> oldSet = new HashSet<>(olds);
        fragments.removeIf(f -> oldSet.contains(f.id()));
        fragments.addAll(added);
        List<Long> news = new ArrayList<>();
        added.forEach(f -> news.add(f.id()));
        oldIds.add(olds);
        newIds.add(news);
      }
      if (stableRowIds()) {
        // Stable row ids survive a rewrite, so every index follows its rows.
        for (int i = 0; i < indices.size(); i++) {
          IndexSegment s = indices.get(i);
          if (!s.fragmentBitmap().isEmpty()) {
            indices.set(i, s.withFragmentBitmap(remap(s, oldIds, newIds)));
          }
        }
      } else {
        Set<UUID> seen = new HashSet<>();
        for (Rewrite.RewrittenIndex ri : r.rewrittenIndices()) {
          if (!seen.add(ri.oldId())) {
            throw invalid("index segment " + ri.oldId() + " is rewritten twice in one compaction");
          }
          int at = -1;
          for (int i = 0; i < indices.size(); i++) {
            if (indices.get(i).uuid().equals(ri.oldId())) {
              at = i;
            }
          }
          if (at < 0) {
            throw invalid("the rewrite remaps index segment " + ri.oldId() + ", which does not "
                + "exist at version " + current.version() + "; re-plan the compaction");
          }
          IndexSegment s = indices.get(at);
          if (s.fragmentBitmap().isEmpty()) {
            throw invalid("index segment " + s.uuid() + " records no fragment coverage, so it "
                + "cannot be remapped by a rewrite");
          }
          RoaringBitmap bitmap = remap(s, oldIds, newIds);
          indices.set(at, new IndexSegment(ri.newId(), s.fields(), s.name(), s.datasetVersion(),
              IndexSegment.fragmentBitmapOf(bitmap),
              ri.newIndexDetails().isPresent() ? ri.newIndexDetails() : s.indexDetails(),
              ri.newIndexVersion() != 0 ? OptionalInt.of(ri.newIndexVersion()) : s.indexVersion(),
              s.createdAt(), s.baseId(), ri.newIndexFiles().isEmpty() ? s.files() : ri.newIndexFiles(), s.coveringFields(),
              s.unknownFields()));
        }
      }
    }

    /** A segment's coverage after the rewrite: a fully covered group moves to its new ids. */
    RoaringBitmap remap(IndexSegment s, List<List<Long>> oldIds, List<List<Long>> newIds) {
      RoaringBitmap old = s.coveredFragments().orElseThrow().toRoaringBitmap();
      RoaringBitmap out = old.clone();
      for (int g = 0; g < oldIds.size(); g++) {
        boolean any = oldIds.get(g).stream().anyMatch(id -> old.contains((int) (long) id));
        boolean all = oldIds.get(g).stream().allMatch(id -> old.contains((int) (long) id));
        if (!any) {
          continue;
        }
        if (!all) {
          throw invalid("rewrite group " + (g + 1) + " mixes fragments index '" + s.name()
              + "' covers with fragments it does not; plan groups within one coverage");
        }
        oldIds.get(g).forEach(id -> out.remove((int) (long) id));
        newIds.get(g).forEach(id -> out.add((int) (long) id));
      }
      return out;
    }

    void dataReplacement(DataReplacement d) {
      Set<List<Integer>> shapes = new HashSet<>();
      d.replacements().forEach(r -> shapes.add(r.newFile().fields()));
      if (shapes.size() > 1) {
        throw invalid("all new data files must hold the same fields, but they hold " + shapes);
      }
      List<Integer> replaced = new ArrayList<>();
      if (!d.replacements().isEmpty()) {
        for (int f : d.replacements().get(0).newFile().fields()) {
          if (f >= 0) {
            replaced.add(f);
          }
        }
      }
      Set<Integer> live = liveFieldIds(schema);
      Map<Long, Integer> at = positions();
      Set<Long> changed = new HashSet<>();
      for (DataReplacement.Replacement r : d.replacements()) {
        Integer pos = at.get(r.fragmentId());
        if (pos == null) {
          throw missing(r.fragmentId(), "fragment " + r.fragmentId() + " whose data is replaced does not exist at "
              + "version " + current.version());
        }
        Fragment before = fragments.get(pos);
        DataFile nf = r.newFile();
        List<DataFile> files = new ArrayList<>();
        Set<Integer> covered = new HashSet<>();
        boolean inPlace = false;
        for (DataFile f : before.files()) {
          if (f.fields().equals(nf.fields()) && f.fileMajorVersion() == nf.fileMajorVersion()
              && f.fileMinorVersion() == nf.fileMinorVersion()) {
            files.add(new DataFile(nf.path(), f.fields(), f.columnIndices(), f.fileMajorVersion(),
                f.fileMinorVersion(), nf.fileSizeBytes(), nf.baseId(), f.unknownFields()));
            inPlace = true;
          } else {
            files.add(f);
          }
          covered.addAll(f.fields());
        }
        boolean disjoint = nf.fields().stream().noneMatch(covered::contains);
        if (disjoint) {
          files.add(nf);
        } else if (!inPlace && canTombstone(files, nf.fields())) {
          List<DataFile> kept = new ArrayList<>();
          for (DataFile f : files) {
            DataFile t = isLegacyV1(f) ? f : f.withFields(tombstone(f.fields(), new HashSet<>(nf.fields())));
            if (t.fields().stream().anyMatch(live::contains)) {
              kept.add(t);
            }
          }
          kept.add(nf);
          files = kept;
        }
        Fragment after = before.toBuilder().files(files).build();
        if (after.equals(before)) {
          throw invalid("the new data file for fragment " + r.fragmentId() + " (fields "
              + nf.fields() + ", file version " + nf.fileMajorVersion() + "." + nf.fileMinorVersion()
              + ") matches none of its data files; its fields and file version must match an "
              + "existing file's");
        }
        // New base values supersede overlays this transaction saw; newer overlays stay on top.
        List<DataOverlayFile> overlays = new ArrayList<>();
        List<DataOverlayFile> newer = new ArrayList<>();
        for (DataOverlayFile o : after.overlays()) {
          if (Long.compareUnsigned(o.committedVersion(), readVersion) <= 0) {
            overlays.add(new DataOverlayFile(o.dataFile().withFields(
                tombstone(o.dataFile().fields(), new HashSet<>(replaced))), o.coverage(),
                o.committedVersion(), o.unknownFields()));
          } else {
            newer.add(o);
          }
        }
        overlays.addAll(newer);
        after = after.toBuilder().overlays(overlays).build();
        if (stableRowIds()) {
          after = after.toBuilder().lastUpdatedAtVersions(uniformVersions(after.physicalRows())).build();
        }
        fragments.set(pos, after);
        changed.add(r.fragmentId());
      }
      pruneCoverage(changed, replaced);
    }

    private boolean canTombstone(List<DataFile> files, List<Integer> fields) {
      for (int field : fields) {
        boolean coveredSomewhere = false;
        for (DataFile f : files) {
          if (f.fields().contains(field)) {
            if (isLegacyV1(f)) {
              return false;
            }
            coveredSomewhere = true;
          }
        }
        if (!coveredSomewhere) {
          return false;
        }
      }
      return true;
    }

    void dataOverlay(DataOverlay d) {
      Map<Long, List<DataOverlayFile>> byFragment = new LinkedHashMap<>();
      for (DataOverlay.Group g : d.groups()) {
        byFragment.computeIfAbsent(g.fragmentId(), k -> new ArrayList<>()).addAll(g.overlays());
      }
      Map<Long, Integer> at = positions();
      for (Map.Entry<Long, List<DataOverlayFile>> e : byFragment.entrySet()) {
        Integer pos = at.get(e.getKey());
        if (pos == null) {
          throw missing(e.getKey(), "DataOverlay targets fragment " + Long.toUnsignedString(e.getKey())
              + ", which does not exist at version " + current.version());
        }
        Fragment f = fragments.get(pos);
        List<DataOverlayFile> overlays = new ArrayList<>(f.overlays());
        // Appended, never replaced, so concurrent overlays survive; stamped with this version.
        e.getValue().forEach(o -> overlays.add(o.withCommittedVersion(newVersion)));
        fragments.set(pos, f.toBuilder().overlays(overlays).build());
      }
    }

    void merge(Merge m) {
      Map<Long, Fragment> before = new HashMap<>();
      fragments.forEach(f -> before.put(f.id(), f));
      Set<Long> listed = new HashSet<>();
      m.fragments().forEach(f -> listed.add(f.id()));
      List<Long> missing = new ArrayList<>();
      for (long id : before.keySet()) {
        if (!listed.contains(id)) {
          missing.add(id);
        }
      }
      if (!missing.isEmpty()) {
        missing.sort(null);
        throw invalid("a Merge lists every fragment of the table as it is after the merge (a "
            + "post-image), but it leaves out " + missing.size() + " of the " + before.size()
            + " fragments of version " + current.version() + " (" + describeIds(missing)
            + "), which would drop their rows; list them all");
      }
      for (Fragment f : m.fragments()) {
        provenance.fragment(f.id(), op + " (fragment " + Long.toUnsignedString(f.id()) + ")");
      }
      List<Fragment> merged = new ArrayList<>();
      for (Fragment f : m.fragments()) {
        Fragment prev = before.get(f.id());
        if (stableRowIds()) {
          if (prev == null) {
            Optional<StoredSequence> v = uniformVersions(f.physicalRows());
            f = f.toBuilder().lastUpdatedAtVersions(v).createdAtVersions(v).build();
          } else if (physicallyRewritten(prev, f)) {
            f = f.toBuilder().lastUpdatedAtVersions(uniformVersions(f.physicalRows())).build();
          }
        }
        merged.add(f);
      }
      // A column rewritten in place keeps its field, so its indices stay but lose the fragment.
      Map<Integer, Set<Long>> rewritten = new HashMap<>();
      for (Fragment f : m.fragments()) {
        Fragment prev = before.get(f.id());
        if (prev == null) {
          continue;
        }
        Map<Integer, String> oldFile = fieldFiles(prev);
        Map<Integer, String> newFile = fieldFiles(f);
        for (Map.Entry<Integer, String> e : newFile.entrySet()) {
          String was = oldFile.get(e.getKey());
          if (was != null && !was.equals(e.getValue())) {
            rewritten.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(f.id());
          }
        }
      }
      for (Map.Entry<Integer, Set<Long>> e : rewritten.entrySet()) {
        pruneCoverage(e.getValue(), List.of(e.getKey()));
      }
      schema = m.schema();
      fragments = merged;
      indices = retainRelevant(indices, schema, fragments);
    }

    /** Whether a merge gave the fragment new column bytes (a file added, removed or changed). */
    private boolean physicallyRewritten(Fragment prev, Fragment next) {
      if (prev.files().size() != next.files().size()) {
        return true;
      }
      for (int i = 0; i < prev.files().size(); i++) {
        DataFile a = prev.files().get(i);
        DataFile b = next.files().get(i);
        if (!a.path().equals(b.path()) || !a.fields().equals(b.fields())
            || !a.columnIndices().equals(b.columnIndices()) || !a.baseId().equals(b.baseId())
            || a.fileMajorVersion() != b.fileMajorVersion() || a.fileMinorVersion() != b.fileMinorVersion()) {
          return true;
        }
      }
      return false;
    }

    private Map<Integer, String> fieldFiles(Fragment f) {
      Map<Integer, String> out = new HashMap<>();
      for (DataFile file : f.files()) {
        for (int id : file.fields()) {
          if (id >= 0) {
            out.put(id, file.path());
          }
        }
      }
      return out;
    }

    Result restore(Restore r) {
      if (r.version() >= newVersion) {
        throw invalid("cannot restore version " + r.version() + ": the newest version is "
            + current.version());
      }
      Manifest old = history.manifestAt(r.version());
      List<IndexSegment> oldIndices = history.indicesAt(r.version());
      OptionalLong max = old.maxFragmentId();
      OptionalLong cur = current.maxFragmentId();
      if (cur.isPresent() && (max.isEmpty() || max.getAsLong() < cur.getAsLong())) {
        max = cur;
      }
      // The ids minted since must never be reused, so the high-water mark never goes down.
      Manifest restored = unstamped(old.toBuilder()).version(newVersion).maxFragmentId(max).build();
      return new Result(restored, oldIndices);
    }

    Result clone(Clone c) {
      if (current.version() > 0) {
        throw invalid("a shallow Clone creates a new table from version " + c.refVersion()
            + " of " + c.refPath() + ", but this table already exists (version " + current.version()
            + "); clone into a location that holds no table");
      }
      Manifest source = history.manifestAt(c.refVersion());
      List<IndexSegment> sourceIndices = history.indicesAt(c.refVersion());
      if (!c.isShallow()) {
        throw invalid("a deep clone copies files and is not a manifest operation; only a "
            + "shallow clone (is_shallow = true) can be applied");
      }
      int baseId = 0;
      for (BasePath b : source.basePaths()) {
        baseId = Math.max(baseId, b.id() + 1);
      }
      final int newBase = baseId;
      List<Fragment> cloned = new ArrayList<>();
      for (Fragment f : source.fragments()) {
        List<DataFile> files = new ArrayList<>();
        for (DataFile file : f.files()) {
          files.add(file.baseId().isPresent() ? file : new DataFile(file.path(), file.fields(),
              file.columnIndices(), file.fileMajorVersion(), file.fileMinorVersion(),
              file.fileSizeBytes(), OptionalInt.of(newBase), file.unknownFields()));
        }
        Optional<dev.lancet.format.model.DeletionFile> del = f.deletionFile().map(d ->
            d.baseId().isPresent() ? d : new dev.lancet.format.model.DeletionFile(d.kindValue(),
                d.readVersion(), d.id(), d.numDeletedRows(), OptionalInt.of(newBase), d.unknownFields()));
        cloned.add(f.toBuilder().files(files).deletionFile(del).build());
      }
      List<BasePath> sourceBases = new ArrayList<>(source.basePaths());
      sourceBases.add(new BasePath(newBase, c.refName(), true, c.refPath()));
      List<IndexSegment> idx = new ArrayList<>();
      for (IndexSegment s : sourceIndices) {
        idx.add(new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(), s.fragmentBitmap(),
            s.indexDetails(), s.indexVersion(), s.createdAt(), OptionalInt.of(newBase), s.files(), s.coveringFields(),
            s.unknownFields()));
      }
      // As Lance: the clone keeps the source's version number (it starts its own history).
      Manifest m = unstamped(source.toBuilder()).fragments(cloned).basePaths(sourceBases)
          .branch(c.branchName()).build();
      return new Result(m, idx);
    }

    /**
     * Upstream carries the updated fragment's post-image; here the update's own change is
     * replayed onto the fragment in {@code current} (see the class comment), which is the same
     * fragment when nothing landed since the read, and keeps concurrent changes otherwise.
     */
    void update(Update u) {
      Manifest read = readVersion == current.version() ? current : readManifest();
      Set<Long> removed = new HashSet<>(u.removedFragmentIds());
      Map<Long, Fragment> updated = new LinkedHashMap<>();
      for (Fragment f : u.updatedFragments()) {
        updated.putIfAbsent(f.id(), f);
      }
      requirePresent(removed, "removes fragment", updated.keySet(), "updates fragment");
      boolean rewriteColumns = u.updateMode() == Update.UpdateMode.REWRITE_COLUMNS;
      Set<Integer> modified = new HashSet<>(u.fieldsModified());
      List<Fragment> existing = new ArrayList<>(fragments);
      List<Fragment> out = new ArrayList<>();
      for (Fragment c : existing) {
        if (removed.contains(c.id())) {
          continue;
        }
        Fragment post = updated.get(c.id());
        if (post == null) {
          out.add(c);
          continue;
        }
        Fragment base = read == current ? c : read.fragment(c.id()).orElse(c);
        Fragment merged = replay(base, post, c);
        List<DataOverlayFile> overlays = c.overlays();
        if (rewriteColumns) {
          overlays = tombstoneOverlays(overlays, modified);
        }
        merged = merged.toBuilder().overlays(overlays).build();
        if (stableRowIds() && rewriteColumns) {
          merged = refreshPartial(merged, u.updatedFragmentOffsetBitmaps().get(c.id()), c);
        }
        out.add(merged);
      }
      fragments = out;
      pruneCoverage(updated.keySet(), u.fieldsModified());

      List<Fragment> added = withFreshIds(u.newFragments(), true);
      if (stableRowIds()) {
        added = assignRowIds(added);
        added = resolveUpdateVersions(existing, added);
        if (!rewriteColumns) {
          registerPureRewrites(added, u, existing);
        }
      }
      fragments.addAll(added);
      indices = retainRelevant(indices, schema, fragments);
      if (!u.compactedSsTables().isEmpty()) {
        recordCompacted(new UpdateCompactedSsTables(u.compactedSsTables()));
      }
    }

    private Manifest readManifest() {
      try {
        return history.manifestAt(readVersion);
      } catch (dev.lancet.core.LancetException e) {
        // Typed errors (the read version was cleaned up) say what happened themselves.
        throw e;
      } catch (RuntimeException e) {
        throw new ApplyException(op, "the version it read (" + readVersion + ") cannot be loaded ("
            + e.getMessage() + "), so its changes cannot be replayed onto version "
            + current.version() + "; re-plan the update against the newest version");
      }
    }

    /**
     * The update's change to one fragment ({@code base} -> {@code post}) replayed onto
     * {@code now}: the deletion file and row metadata of the post-image; files the update
     * added; slots it tombstoned; files it removed. Nothing else of {@code now} changes.
     */
    private Fragment replay(Fragment base, Fragment post, Fragment now) {
      Map<String, DataFile> baseFiles = new HashMap<>();
      base.files().forEach(f -> baseFiles.put(f.path(), f));
      Map<String, DataFile> postFiles = new HashMap<>();
      post.files().forEach(f -> postFiles.put(f.path(), f));
      List<DataFile> files = new ArrayList<>();
      for (DataFile f : now.files()) {
        DataFile was = baseFiles.get(f.path());
        DataFile becomes = postFiles.get(f.path());
        if (was != null && becomes == null) {
          continue;
        }
        if (was != null) {
          Set<Integer> dropped = new HashSet<>();
          for (int id : was.fields()) {
            if (id >= 0 && !becomes.fields().contains(id)) {
              dropped.add(id);
            }
          }
          f = dropped.isEmpty() ? f : f.withFields(tombstone(f.fields(), dropped));
        }
        files.add(f);
      }
      for (DataFile f : post.files()) {
        if (!baseFiles.containsKey(f.path())) {
          files.add(f);
        }
      }
      Fragment.Builder b = now.toBuilder().files(files).deletionFile(post.deletionFile())
          .physicalRows(post.physicalRows());
      if (!Objects.equals(base.rowIds(), post.rowIds())) {
        b.rowIds(post.rowIds());
      }
      if (!Objects.equals(base.lastUpdatedAtVersions(), post.lastUpdatedAtVersions())) {
        b.lastUpdatedAtVersions(post.lastUpdatedAtVersions());
      }
      if (!Objects.equals(base.createdAtVersions(), post.createdAtVersions())) {
        b.createdAtVersions(post.createdAtVersions());
      }
      return b.build();
    }

    /** Re-stamps the rewritten offsets of a fragment as last updated by this version. */
    private Fragment refreshPartial(Fragment f, ByteString offsets, Fragment prev) {
      if (offsets == null || offsets.isEmpty() || f.lastUpdatedAtVersions().isEmpty()
          || !(f.lastUpdatedAtVersions().get() instanceof StoredSequence.Inline inline)) {
        return f;
      }
      RoaringBitmap bitmap = bitmapOf(offsets, "updated_fragment_offset_bitmaps[" + f.id() + "]");
      if (bitmap.isEmpty()) {
        return f;
      }
      if (bitmap.last() >= Math.max(prev.physicalRows(), 0) || bitmap.last() < 0) {
        throw invalid("updated_fragment_offset_bitmaps for fragment " + f.id() + " names offset "
            + Integer.toUnsignedLong(bitmap.last()) + ", beyond the fragment's "
            + prev.physicalRows() + " rows");
      }
      RowVersionSequence seq = RowVersionSequence.decode(inline.bytes().toByteArray(),
          "fragment " + f.id() + " last_updated_at versions");
      long[] versions = new long[(int) f.physicalRows()];
      for (int i = 0; i < versions.length; i++) {
        versions[i] = i < seq.length() ? seq.versionAt(i) : current.version();
      }
      for (int off : bitmap) {
        versions[off] = newVersion;
      }
      return f.toBuilder().lastUpdatedAtVersions(Optional.of(encodeRuns(versions))).build();
    }

    /** Created-at kept from each moved row's origin; last-updated is this version. */
    private List<Fragment> resolveUpdateVersions(List<Fragment> existing, List<Fragment> added) {
      Set<Long> needed = new HashSet<>();
      Map<Long, RowIdSequence> addedIds = new HashMap<>();
      for (Fragment f : added) {
        RowIdSequence seq = inlineRowIds(f);
        if (seq != null) {
          addedIds.put(f.id(), seq);
          seq.forEach(needed::add);
        }
      }
      Map<Long, long[]> source = new HashMap<>();
      Map<Long, Fragment> byId = new HashMap<>();
      List<Fragment> sorted = new ArrayList<>(existing);
      sorted.sort(Comparator.comparingLong(Fragment::id));
      for (Fragment f : sorted) {
        byId.put(f.id(), f);
        RowIdSequence seq = needed.isEmpty() ? null : inlineRowIds(f);
        if (seq == null) {
          continue;
        }
        long offset = 0;
        for (long rid : seq) {
          if (needed.contains(rid)) {
            source.putIfAbsent(rid, new long[] {f.id(), offset});
          }
          offset++;
        }
      }
      Map<Long, RowVersionSequence> created = new HashMap<>();
      List<Fragment> out = new ArrayList<>();
      for (Fragment f : added) {
        RowIdSequence seq = addedIds.get(f.id());
        if (seq == null) {
          StoredSequence v = uniformVersions(f.physicalRows()).orElse(null);
          out.add(f.toBuilder().lastUpdatedAtVersions(Optional.ofNullable(v))
              .createdAtVersions(Optional.ofNullable(v)).build());
          continue;
        }
        long[] versions = new long[(int) seq.length()];
        int i = 0;
        for (long rid : seq) {
          long[] src = source.get(rid);
          if (src == null) {
            versions[i++] = newVersion;
            continue;
          }
          RowVersionSequence cs = created.computeIfAbsent(src[0], id -> createdAt(byId.get(id)));
          long v = 1;
          if (cs != null && src[1] < cs.length()) {
            v = cs.versionAt(src[1]);
          }
          versions[i++] = v;
        }
        out.add(f.toBuilder().createdAtVersions(Optional.of(encodeRuns(versions)))
            .lastUpdatedAtVersions(uniformVersions(f.physicalRows())).build());
      }
      return out;
    }

    private RowVersionSequence createdAt(Fragment f) {
      if (f == null || f.createdAtVersions().isEmpty()
          || !(f.createdAtVersions().get() instanceof StoredSequence.Inline in)) {
        return null;
      }
      try {
        return RowVersionSequence.decode(in.bytes().toByteArray(), "fragment " + f.id() + " created_at");
      } catch (FormatException e) {
        return null;
      }
    }

    /**
     * With stable row ids, a fragment holding only moved rows (every row has an id) joins the
     * coverage of an index over unmodified fields that covered all the rows' origins.
     */
    private void registerPureRewrites(List<Fragment> added, Update u, List<Fragment> existing) {
      List<Long> pure = new ArrayList<>();
      for (Fragment f : added) {
        RowIdSequence seq = inlineRowIds(f);
        if (seq != null && seq.length() == f.physicalRows()) {
          pure.add(f.id());
        }
      }
      if (pure.isEmpty()) {
        return;
      }
      List<Long> origins = new ArrayList<>(u.removedFragmentIds());
      u.updatedFragments().forEach(f -> origins.add(f.id()));
      Set<Long> overlaid = new HashSet<>();
      for (Fragment f : existing) {
        if (origins.contains(f.id()) && !f.overlays().isEmpty()) {
          overlaid.add(f.id());
        }
      }
      Set<Integer> valueFields = new HashSet<>(u.fieldsForPreservingFragBitmap());
      for (int i = 0; i < indices.size(); i++) {
        IndexSegment s = indices.get(i);
        if (s.fragmentBitmap().isEmpty() || s.fields().stream().anyMatch(valueFields::contains)) {
          continue;
        }
        // A moved row may carry an overlaid value the index never saw.
        if (!overlaid.isEmpty()) {
          continue;
        }
        RoaringBitmap bitmap = s.coveredFragments().orElseThrow().toRoaringBitmap();
        if (origins.stream().allMatch(id -> bitmap.contains((int) (long) id))) {
          pure.forEach(id -> bitmap.add((int) (long) id));
          indices.set(i, s.withFragmentBitmap(bitmap));
        }
      }
    }

    void project(Project p) {
      schema = new Schema(p.fields(), current.schema().metadata());
      Set<Integer> live = liveFieldIds(schema);
      List<Fragment> out = new ArrayList<>();
      for (Fragment f : fragments) {
        List<DataFile> kept = new ArrayList<>();
        for (DataFile file : f.files()) {
          if (file.fields().stream().anyMatch(live::contains)) {
            kept.add(file);
          }
        }
        out.add(kept.size() == f.files().size() ? f : f.toBuilder().files(kept).build());
      }
      fragments = out;
      indices = retainRelevant(indices, schema, fragments);
    }

    /** Delegates the map semantics and the reserved-key rules to the ConfigUpdate action. */
    void updateConfig(UpdateConfig u) {
      Map<Integer, Field> fields = current.schema().byId();
      List<ConfigUpdate.FieldMetadataUpdate> fieldUpdates = new ArrayList<>();
      List<Integer> ids = new ArrayList<>(u.fieldMetadataUpdates().keySet());
      ids.sort(null);
      for (int id : ids) {
        if (!fields.containsKey(id)) {
          throw invalid("field metadata update names field " + id + ", which does not exist at "
              + "version " + current.version() + "; name a field of the schema");
        }
        fieldUpdates.add(new ConfigUpdate.FieldMetadataUpdate(new Ref.Committed(id),
            u.fieldMetadataUpdates().get(id)));
      }
      ConfigUpdate action = new ConfigUpdate(u.configUpdates(), u.tableMetadataUpdates(),
          u.schemaMetadataUpdates(), fieldUpdates);
      Manifest result = viaActions(action).manifest();
      config = new LinkedHashMap<>(result.config());
      tableMetadata = new LinkedHashMap<>(result.tableMetadata());
      schema = result.schema();
    }

    /** Keeps the table's fragments (defect (b) fixed: upstream's old arm emptied them). */
    void updateMemWalState(UpdateMemWalState w) {
      if (!w.compactedSsTables().isEmpty()) {
        recordCompacted(new UpdateCompactedSsTables(w.compactedSsTables()));
      }
    }

    private int memWalIndex() {
      for (int i = 0; i < indices.size(); i++) {
        if (indices.get(i).name().equals(MEM_WAL_INDEX)) {
          return i;
        }
      }
      return -1;
    }

    /** Records SSTable progress through the action path, taking only the MemWAL segment. */
    private void recordCompacted(UpdateCompactedSsTables action) {
      Result r = viaActions(action);
      int at = memWalIndex();
      for (IndexSegment s : r.indices()) {
        if (s.name().equals(MEM_WAL_INDEX) && at >= 0) {
          indices.set(at, s);
        }
      }
    }

    /** Runs one action on a manifest with this build's schema, config and indices. */
    private Result viaActions(dev.lancet.core.action.Action action) {
      Manifest working = current.toBuilder().schema(schema).config(config).tableMetadata(tableMetadata)
          .fragments(List.of()).build();
      try {
        CompositeApply.Result r = CompositeApply.apply(working, indices,
            new dev.lancet.core.action.CompositeOperation(List.of(new UserStep(op, List.of(action)))),
            readVersion);
        return new Result(r.manifest(), r.indices());
      } catch (ApplyException e) {
        throw e.at(op);
      }
    }

    void updateBases(UpdateBases u) {
      for (BasePath nb : u.newBases()) {
        for (BasePath existing : bases) {
          // An unset name collides with nothing: two unnamed bases are fine, as in AddBase
          // (docs/decisions/0015-validate-before-publishing.md).
          boolean sameName = nb.name().isPresent() && existing.name().equals(nb.name());
          if (sameName || existing.path().equals(nb.path())) {
            throw invalid("base path with name " + nb.name().orElse("(none)") + " or path '"
                + nb.path() + "' already exists (id " + existing.id() + ", name "
                + existing.name().orElse("(none)") + ", path '" + existing.path() + "'); choose "
                + "a new name and path");
          }
        }
        BasePath add = nb;
        if (add.id() == 0) {
          int max = 0;
          for (BasePath b : bases) {
            max = Math.max(max, b.id());
          }
          add = add.withId(bases.isEmpty() ? 1 : max + 1);
        }
        final int id = add.id();
        bases.removeIf(b -> b.id() == id);
        bases.add(add);
      }
      bases.sort(Comparator.comparingInt(BasePath::id));
    }

    // ---- helpers --------------------------------------------------------------------------

    /**
     * Fragments with an id of 0 take the next ids; an id the writer set is kept. With
     * {@code mustBeNew}, a set id must not be that of a fragment the table has (a new fragment
     * under an existing id would shadow it: lance-core then scans only some of the rows).
     */
    private List<Fragment> withFreshIds(List<Fragment> in, boolean mustBeNew) {
      List<Fragment> out = new ArrayList<>(in.size());
      Set<Long> existing = null;
      for (int i = 0; i < in.size(); i++) {
        Fragment f = in.get(i);
        if (f.id() != 0 && mustBeNew) {
          if (existing == null) {
            existing = new HashSet<>();
            for (Fragment e : fragments) {
              existing.add(e.id());
            }
          }
          if (existing.contains(f.id())) {
            throw invalid("new fragment " + (i + 1) + " of " + in.size() + " has id "
                + Long.toUnsignedString(f.id()) + ", which fragment " + Long.toUnsignedString(f.id())
                + " of version " + current.version() + " already has; leave the id of a new "
                + "fragment 0 so that a fresh one is assigned");
          }
        }
        if (f.id() == 0) {
          if (nextFragmentId > 0xFFFF_FFFFL) {
            throw invalid("cannot assign fragment id " + nextFragmentId + ": it exceeds the "
                + "largest fragment id (4294967295)");
          }
          f = f.toBuilder().id(nextFragmentId++).build();
        }
        provenance.fragment(f.id(), op + " (new fragment " + (i + 1) + " of " + in.size() + ")");
        out.add(f);
      }
      return out;
    }

    /**
     * Fails when two fragments of an overwrite end up with one id: a writer-set id that the
     * numbering of the 0 ids also reaches (lance-core would publish both, and no reader accepts
     * a manifest listing one fragment id twice).
     */
    private void requireDistinctIds(List<Fragment> in) {
      Set<Long> seen = new HashSet<>();
      for (Fragment f : in) {
        if (!seen.add(f.id())) {
          throw invalid("two of its fragments would get fragment id " + f.id() + " (ids left 0 "
              + "are numbered 0, 1, 2, ... in order and set ids are kept); give every fragment a "
              + "distinct id or leave them all 0");
        }
      }
    }

    /** With stable row ids: fresh row ids and uniform row versions at this version. */
    private List<Fragment> withRowIdsAndVersions(List<Fragment> in) {
      if (!stableRowIds()) {
        return in;
      }
      List<Fragment> out = new ArrayList<>();
      for (Fragment f : assignRowIds(in)) {
        Optional<StoredSequence> v = uniformVersions(f.physicalRows());
        out.add(f.toBuilder().lastUpdatedAtVersions(v).createdAtVersions(v).build());
      }
      return out;
    }

    /** A missing sequence gets a fresh range; a short one is extended from the counter. */
    private List<Fragment> assignRowIds(List<Fragment> in) {
      List<Fragment> out = new ArrayList<>(in.size());
      for (Fragment f : in) {
        if (f.rowIds().isEmpty()) {
          out.add(f.toBuilder().rowIds(Optional.of(StoredSequence.inline(
              RowIdSequence.ofRange(nextRowId, f.physicalRows()).encode()))).build());
          nextRowId += f.physicalRows();
          continue;
        }
        RowIdSequence seq = inlineRowIds(f);
        long have = seq == null ? 0 : seq.length();
        if (seq == null || have == f.physicalRows()) {
          out.add(f);
          continue;
        }
        if (have > f.physicalRows()) {
          throw invalid("fragment " + f.id() + " carries " + have + " row ids for "
              + f.physicalRows() + " rows");
        }
        long missing = f.physicalRows() - have;
        out.add(f.toBuilder().rowIds(Optional.of(StoredSequence.inline(
            seq.concat(RowIdSequence.ofRange(nextRowId, missing)).encode()))).build());
        nextRowId += missing;
      }
      return out;
    }

    private RowIdSequence inlineRowIds(Fragment f) {
      if (f.rowIds().isEmpty() || !(f.rowIds().get() instanceof StoredSequence.Inline in)) {
        return null;
      }
      try {
        return RowIdSequence.decode(in.bytes().toByteArray(), "fragment " + f.id() + " row ids");
      } catch (FormatException e) {
        throw invalid("fragment " + f.id() + " carries an unreadable row-id sequence: " + e.getMessage());
      }
    }

    /** Lance writes no version sequence for an empty fragment. */
    private Optional<StoredSequence> uniformVersions(long rows) {
      if (rows <= 0) {
        return Optional.empty();
      }
      return Optional.of(StoredSequence.inline(RowVersionSequence.uniform(rows, newVersion).encode()));
    }

    private Map<Long, Integer> positions() {
      Map<Long, Integer> at = new HashMap<>();
      for (int i = 0; i < fragments.size(); i++) {
        at.putIfAbsent(fragments.get(i).id(), i);
      }
      return at;
    }

    /** Removes {@code fragmentIds} from the coverage of every index over one of {@code fields}. */
    private void pruneCoverage(Set<Long> fragmentIds, List<Integer> fields) {
      if (fields.isEmpty() || fragmentIds.isEmpty()) {
        return;
      }
      Set<Integer> modified = new HashSet<>(fields);
      for (int i = 0; i < indices.size(); i++) {
        IndexSegment s = indices.get(i);
        if (s.fragmentBitmap().isEmpty() || s.fields().stream().noneMatch(modified::contains)) {
          continue;
        }
        RoaringBitmap bitmap = s.coveredFragments().orElseThrow().toRoaringBitmap();
        fragmentIds.forEach(id -> bitmap.remove((int) (long) id));
        indices.set(i, s.withFragmentBitmap(bitmap));
      }
    }

    Result assemble() {
      fragments.sort(Comparator.comparingLong(Fragment::id));
      List<Fragment> cleaned = new ArrayList<>(fragments.size());
      for (Fragment f : fragments) {
        List<DataFile> kept = new ArrayList<>();
        for (DataFile file : f.files()) {
          // A file whose every slot is tombstoned goes; a file that lists no fields at all is
          // kept, so that the publish checks refuse it instead of silently losing its data.
          if (file.fields().isEmpty() || file.fields().stream().anyMatch(id -> id != DataFile.TOMBSTONED)) {
            kept.add(file);
          }
        }
        cleaned.add(kept.size() == f.files().size() ? f : f.toBuilder().files(kept).build());
      }
      OptionalLong max = current.maxFragmentId();
      for (Fragment f : cleaned) {
        if (max.isEmpty() || max.getAsLong() < f.id()) {
          max = OptionalLong.of(f.id());
        }
      }
      if (nextFragmentId - 1 >= 0 && (max.isEmpty() || max.getAsLong() < nextFragmentId - 1)) {
        // Ids handed out by this build are burnt even when their fragment is gone again.
        max = OptionalLong.of(nextFragmentId - 1);
      }
      if (reserveFragments > 0 || opIsReserve()) {
        long raised = max.orElse(0) + reserveFragments;
        if (raised > 0xFFFF_FFFFL) {
          throw invalid("reserving " + reserveFragments + " fragment ids would take the high-water "
              + "mark past the largest fragment id (4294967295)");
        }
        max = OptionalLong.of(raised);
      }
      Manifest m = unstamped(current.toBuilder())
          .version(newVersion)
          .schema(schema)
          .fragments(cleaned)
          .config(config)
          .tableMetadata(tableMetadata)
          .basePaths(bases)
          .maxFragmentId(max)
          .nextRowId(nextRowId)
          .readerFeatureFlags(current.readerFeatureFlags())
          .writerFeatureFlags(current.writerFeatureFlags())
          .build();
      return new Result(m, indices, provenance.build());
    }

    private boolean opIsReserve() {
      return op.equals("ReserveFragments");
    }
  }

  // ---- shared rules -------------------------------------------------------------------------

  /** Ids for a message: all of a few, or the first ones and a count. */
  static String describeIds(java.util.Collection<Long> ids) {
    List<Long> sorted = new ArrayList<>(ids);
    sorted.sort(Long::compareUnsigned);
    if (sorted.size() <= 10) {
      return sorted.toString();
    }
    return sorted.subList(0, 10) + " and " + (sorted.size() - 10) + " more";
  }

  private static Manifest.Builder unstamped(Manifest.Builder b) {
    return b.tag("").transactionFile("").indexSection(OptionalLong.empty())
        .transactionSection(OptionalLong.empty()).timestamp(Optional.empty());
  }

  private static boolean isLegacyV1(DataFile f) {
    return f.fileMajorVersion() == 0 && f.fileMinorVersion() < 3;
  }

  private static List<Integer> tombstone(List<Integer> fields, Set<Integer> dropped) {
    List<Integer> out = new ArrayList<>(fields.size());
    for (int f : fields) {
      out.add(dropped.contains(f) ? DataFile.TOMBSTONED : f);
    }
    return out;
  }

  private static List<DataOverlayFile> tombstoneOverlays(List<DataOverlayFile> overlays, Set<Integer> fields) {
    if (fields.isEmpty() || overlays.isEmpty()) {
      return overlays;
    }
    List<DataOverlayFile> out = new ArrayList<>();
    for (DataOverlayFile o : overlays) {
      out.add(new DataOverlayFile(o.dataFile().withFields(tombstone(o.dataFile().fields(), fields)),
          o.coverage(), o.committedVersion(), o.unknownFields()));
    }
    return out;
  }

  private static Set<Integer> liveFieldIds(Schema schema) {
    Set<Integer> ids = new HashSet<>();
    schema.fields().forEach(f -> ids.add(f.id()));
    return ids;
  }

  private static RoaringBitmap bitmapOf(ByteString bytes, String where) {
    try {
      RoaringBitmap b = new RoaringBitmap();
      b.deserialize(bytes.asReadOnlyByteBuffer());
      return b;
    } catch (java.io.IOException | RuntimeException e) {
      throw new FormatException(where, "not a valid portable Roaring bitmap", e);
    }
  }

  /** Per-row versions as runs of equal versions over row offsets. */
  private static StoredSequence encodeRuns(long[] versions) {
    List<RowVersionSequence.Run> runs = new ArrayList<>();
    int start = 0;
    for (int i = 1; i <= versions.length; i++) {
      if (i == versions.length || versions[i] != versions[start]) {
        runs.add(new RowVersionSequence.Run(new U64Segment.Range(start, i), versions[start]));
        start = i;
      }
    }
    return StoredSequence.inline(RowVersionSequence.of(runs).encode());
  }

  /**
   * Lance's rule for which index segments survive: segments over a field no longer in the
   * schema go (system indices stay); per name, segments covering no remaining fragment go,
   * except that a scalar index keeps its oldest segment when all are empty and a lone
   * non-vector segment is kept even when empty.
   */
  static List<IndexSegment> retainRelevant(List<IndexSegment> indices, Schema schema, List<Fragment> fragments) {
    Set<Integer> fieldIds = liveFieldIds(schema);
    Set<Long> present = new HashSet<>();
    fragments.forEach(f -> present.add(f.id()));
    List<IndexSegment> kept = new ArrayList<>();
    for (IndexSegment s : indices) {
      if (s.name().startsWith("__lance_") || fieldIds.containsAll(s.fields())) {
        kept.add(s);
      }
    }
    Map<String, List<IndexSegment>> byName = new HashMap<>();
    for (IndexSegment s : kept) {
      if (!s.name().equals(FRAGMENT_REUSE_INDEX)) {
        byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
      }
    }
    Set<UUID> keep = new HashSet<>();
    for (List<IndexSegment> group : byName.values()) {
      List<IndexSegment> nonEmpty = new ArrayList<>();
      List<IndexSegment> empty = new ArrayList<>();
      for (IndexSegment s : group) {
        (coversNothing(s, present) ? empty : nonEmpty).add(s);
      }
      if (group.size() > 1) {
        if (nonEmpty.isEmpty()) {
          IndexSegment oldest = empty.stream()
              .min(Comparator.comparingLong(IndexSegment::datasetVersion)).orElseThrow();
          if (!isVector(oldest)) {
            keep.add(oldest.uuid());
          }
        } else {
          nonEmpty.forEach(s -> keep.add(s.uuid()));
        }
      } else {
        IndexSegment s = group.get(0);
        if (!coversNothing(s, present) || !isVector(s)) {
          keep.add(s.uuid());
        }
      }
    }
    List<IndexSegment> out = new ArrayList<>();
    for (IndexSegment s : kept) {
      if (s.name().equals(FRAGMENT_REUSE_INDEX) || keep.contains(s.uuid())) {
        out.add(s);
      }
    }
    return out;
  }

  private static boolean isVector(IndexSegment s) {
    return s.detailsTypeUrl().endsWith("VectorIndexDetails");
  }

  /** Effective coverage (recorded coverage among present fragments) is unknown or empty. */
  private static boolean coversNothing(IndexSegment s, Set<Long> present) {
    if (s.fragmentBitmap().isEmpty()) {
      return true;
    }
    for (int id : s.coveredFragments().orElseThrow()) {
      if (present.contains(Integer.toUnsignedLong(id))) {
        return false;
      }
    }
    return true;
  }
}
