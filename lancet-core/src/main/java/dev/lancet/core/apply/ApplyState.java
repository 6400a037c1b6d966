package dev.lancet.core.apply;

import com.google.protobuf.ByteString;
import dev.lancet.core.action.CompactedSsTable;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.pb.RowIdProtos;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * The working state of one manifest build: a copy of the read manifest that actions edit,
 * the id counters and token bindings, and the bookkeeping assembly needs. Every action applies
 * itself through this API; {@link CompositeApply} drives it and assembles the result.
 */
public final class ApplyState {
  /** Name of the MemWAL system index. */
  public static final String MEM_WAL_INDEX = "__lance_mem_wal";
  public static final String PK_FLAG = "lance-schema:unenforced-primary-key";
  public static final String PK_POSITION = "lance-schema:unenforced-primary-key:position";
  public static final String CLUSTERING_POSITION = "lance-schema:unenforced-clustering-key:position";
  private static final long MAX_FRAGMENT_ID = 0xFFFF_FFFFL;

  private final Manifest read;
  private final long readVersion;
  private final long newVersion;

  final List<Field> fields;
  final Map<String, ByteString> schemaMetadata;
  final LinkedHashMap<Long, Fragment> fragments;
  final List<IndexSegment> indices;
  final Map<String, String> config;
  final Map<String, String> tableMetadata;
  final LinkedHashMap<Integer, BasePath> existingBases = new LinkedHashMap<>();
  final LinkedHashMap<Integer, BasePath> newBases = new LinkedHashMap<>();

  private final long readFragmentHighWater;
  long nextFragmentId;
  private int nextFieldId;
  private int nextBaseId;
  private final Tokens fragmentTokens = new Tokens("fragment");
  private final Tokens fieldTokens = new Tokens("field");
  private final Tokens baseTokens = new Tokens("base");

  /** The Local tokens of one id space, bound to the ids minted for them. */
  private final class Tokens {
    private final String space;
    private final Map<Integer, Long> bound = new HashMap<>();

    Tokens(String space) {
      this.space = space;
    }

    /** Fails unless {@code token} is still free in this space. */
    void requireFree(int token) {
      if (bound.containsKey(token)) {
        throw invalid("local " + space + " token " + token + " is minted more than once in this "
            + "operation; tokens must be distinct within an operation");
      }
    }

    void bind(int token, long id) {
      bound.put(token, id);
    }

    long resolve(int token) {
      Long id = bound.get(token);
      if (id == null) {
        throw invalid("an action references local " + space + " token " + token
            + ", which no earlier action in this operation minted");
      }
      return id;
    }
  }
  /** Fragments minted by this operation, in mint order. */
  final LinkedHashSet<Long> minted = new LinkedHashSet<>();
  /** Fragments minted for a Local token, with the token: their ids are known only here. */
  private final Map<Long, Integer> mintedFromToken = new HashMap<>();
  /** For each fragment AddFragment added, where (step and action) it was added: assembly errors about it name that action. */
  final Map<Long, String> addedAt = new HashMap<>();
  /** Which action produced each part of the manifest, for errors found before publishing. */
  final Provenance.Builder provenance = new Provenance.Builder("");
  long reservedHighWater = -1;
  final Map<Long, Set<Integer>> rebound = new HashMap<>();
  long reservedRowIds;

  private String where = "";

  ApplyState(Manifest read, List<IndexSegment> indices, long readVersion) {
    this.read = read;
    this.readVersion = readVersion;
    this.newVersion = read.version() + 1;
    this.fields = new ArrayList<>(read.schema().fields());
    this.schemaMetadata = new LinkedHashMap<>(read.schema().metadata());
    this.fragments = new LinkedHashMap<>();
    for (Fragment f : read.fragments()) {
      fragments.put(f.id(), f);
    }
    this.indices = new ArrayList<>(indices);
    this.config = new LinkedHashMap<>(read.config());
    this.tableMetadata = new LinkedHashMap<>(read.tableMetadata());
    int maxBase = 0;
    for (BasePath b : read.basePaths()) {
      existingBases.put(b.id(), b);
      maxBase = Math.max(maxBase, b.id());
    }
    this.nextBaseId = maxBase + 1;
    this.readFragmentHighWater = read.effectiveMaxFragmentId().orElse(-1);
    this.nextFragmentId = readFragmentHighWater + 1;
    this.nextFieldId = maxFieldId(read) + 1;
  }

  /**
   * The field-id watermark: the largest id in the schema or still named by a data file (a
   * dropped field's id can linger in files as data, and must never be reused).
   */
  static int maxFieldId(Manifest m) {
    int max = m.schema().maxFieldId();
    for (Fragment f : m.fragments()) {
      for (DataFile file : f.files()) {
        for (int id : file.fields()) {
          max = Math.max(max, id);
        }
      }
    }
    return max;
  }

  /** Fragments whose rows this operation deletes (a deletion file set, or the fragment removed). */
  final Set<Long> rowsLeave = new HashSet<>();
  /** Fragments with a RelocateRows declaration, and where it was made. */
  final Map<Long, String> relocationsDeclared = new LinkedHashMap<>();

  /** Notes that rows leave {@code fragment} in this operation (a relocation needs that). */
  public void rowsLeave(long fragment) {
    rowsLeave.add(fragment);
  }

  /** Notes a RelocateRows declaration; assembly checks its rows really leave the fragment. */
  public void declareRelocation(long fragment) {
    relocationsDeclared.putIfAbsent(fragment, where);
  }

  void at(String where) {
    this.where = where;
  }

  /** An invalid-input error located at the action being applied. */
  public ApplyException invalid(String problem) {
    return new ApplyException(where, problem);
  }

  /** Invalid input naming a fragment this manifest does not have (see {@link ApplyException#missingFragment}). */
  public ApplyException missingFragment(long id, String problem) {
    return new ApplyException(where, problem, java.util.OptionalLong.of(id));
  }

  public Manifest readManifest() {
    return read;
  }

  /** The version the transaction was planned against (not the one it is applied to). */
  public long readVersion() {
    return readVersion;
  }

  /** The version this build produces; everything the commit stamps uses it. */
  public long newVersion() {
    return newVersion;
  }

  public boolean usesStableRowIds() {
    return read.usesStableRowIds();
  }

  // ---- refs and counters ------------------------------------------------------------------

  /** Mints a fragment id for a Local token, or claims a reserved Committed id. */
  public long addFragmentId(Ref ref) {
    if (ref instanceof Ref.Local l) {
      fragmentTokens.requireFree(l.token());
      if (nextFragmentId > MAX_FRAGMENT_ID) {
        throw invalid("AddFragment cannot mint fragment id " + nextFragmentId + ": it exceeds "
            + "the maximum fragment id (4294967295)");
      }
      long id = nextFragmentId++;
      fragmentTokens.bind(l.token(), id);
      minted.add(id);
      mintedFromToken.put(id, l.token());
      return id;
    }
    long id = ((Ref.Committed) ref).id();
    if (id < 0 || id > readFragmentHighWater) {
      throw invalid("AddFragment claims fragment id " + Long.toUnsignedString(id) + ", but no commit "
          + "has reserved it (the reserved ids end at " + readFragmentHighWater + "); reserve "
          + "ids with ReserveFragmentIds in an earlier commit");
    }
    if (fragments.containsKey(id) || read.fragment(id).isPresent()) {
      throw invalid("AddFragment claims fragment id " + id + ", which already exists");
    }
    minted.add(id);
    return id;
  }

  /**
   * Fails when {@code fragment}, named by a bare committed id, is a fragment this operation
   * minted for a Local token: its id is assigned here and moves on a rebase, so an action that
   * names it by id (SetDeletionFile, RelocateRows, whose files embed the id) only guessed it, and
   * would land on another writer's fragment after a rebase. The seed's answer (wire-format
   * caveats): reserve fragment ids in an earlier commit and add the fragment as Committed(id).
   */
  public void requireNotMintedFromToken(long fragment, String actionName) {
    Integer token = mintedFromToken.get(fragment);
    if (token != null) {
      throw invalid(actionName + " names fragment " + Long.toUnsignedString(fragment) + " by id, but this "
          + "operation minted that fragment for Local(" + Integer.toUnsignedString(token) + "): its id is "
          + "assigned when the operation applies and changes when it is rebased, so it cannot be named "
          + "in advance; reserve fragment ids with ReserveFragmentIds in an earlier commit and add the "
          + "fragment as Committed(reserved id)");
    }
  }

  public long resolveFragment(Ref ref) {
    if (ref instanceof Ref.Local l) {
      return fragmentTokens.resolve(l.token());
    }
    return ((Ref.Committed) ref).id();
  }

  public int mintField(int token) {
    fieldTokens.requireFree(token);
    int id = nextFieldId++;
    fieldTokens.bind(token, id);
    return id;
  }

  public int resolveField(Ref ref) {
    if (ref instanceof Ref.Local l) {
      return (int) fieldTokens.resolve(l.token());
    }
    long id = ((Ref.Committed) ref).id();
    if (id < 0 || id > Integer.MAX_VALUE) {
      throw invalid("field id " + Long.toUnsignedString(id) + " in an action is out of range");
    }
    return (int) id;
  }

  public int mintBase(int token) {
    baseTokens.requireFree(token);
    int id = nextBaseId++;
    baseTokens.bind(token, id);
    return id;
  }

  public int resolveBase(Ref ref) {
    if (ref instanceof Ref.Local l) {
      return (int) baseTokens.resolve(l.token());
    }
    long id = ((Ref.Committed) ref).id();
    if (id < 0 || id > 0xFFFF_FFFFL) {
      throw invalid("base id " + Long.toUnsignedString(id) + " in an action is out of range");
    }
    if (!existingBases.containsKey((int) id) && !newBases.containsKey((int) id)) {
      throw invalid("base id " + id + " does not exist");
    }
    return (int) id;
  }

  public void reserveFragmentIds(long count) {
    if (count == 0) {
      return;
    }
    if (nextFragmentId - 1 + count > MAX_FRAGMENT_ID) {
      throw invalid("reserving fragment ids up to " + (nextFragmentId - 1 + count) + " exceeds "
          + "the maximum fragment id (4294967295)");
    }
    nextFragmentId += count;
    reservedHighWater = Math.max(reservedHighWater, nextFragmentId - 1);
  }

  public void reserveRowIds(long count) {
    long total = reservedRowIds + count;
    if (count < 0 || total < 0 || read.nextRowId() + total < 0) {
      throw invalid("reserving " + Long.toUnsignedString(count) + " more row ids (after "
          + reservedRowIds + " already reserved in this operation) would take the row-id counter, "
          + "now at " + read.nextRowId() + ", past the largest row id (" + Long.MAX_VALUE + ")");
    }
    reservedRowIds = total;
  }

  // ---- fragments --------------------------------------------------------------------------

  /** The fragment as edited so far; a missing one is an error naming the action. */
  public Fragment fragment(long id, String actionName) {
    Fragment f = fragments.get(id);
    if (f == null) {
      throw missingFragment(id, actionName + " targets fragment " + Long.toUnsignedString(id)
          + ", which does not exist");
    }
    return f;
  }

  public void addFragment(Fragment f) {
    fragments.put(f.id(), f);
    addedAt.put(f.id(), where);
    provenance.fragment(f.id(), where);
  }

  public void putFragment(Fragment f) {
    fragments.put(f.id(), f);
    provenance.fragment(f.id(), where);
  }

  /** Notes a data file this action added to {@code fragment}, for errors about it. */
  public void noteAddedFile(long fragment, DataFile file) {
    provenance.file(fragment, file.path(), where);
  }

  /** Notes an overlay file this action added to {@code fragment}. */
  public void noteAddedOverlay(long fragment, DataFile file) {
    provenance.file(fragment, file.path(), where);
  }

  public boolean removeFragment(long id) {
    if (fragments.remove(id) == null) {
      return false;
    }
    minted.remove(id);
    mintedFromToken.remove(id);
    rebound.remove(id);
    return true;
  }

  public Collection<Fragment> fragments() {
    return fragments.values();
  }

  /** The fields whose data changed in a fragment: index coverage of it is pruned. */
  public void rebind(long fragment, Collection<Integer> fieldIds) {
    rebound.computeIfAbsent(fragment, k -> new HashSet<>()).addAll(fieldIds);
  }

  /**
   * Fails unless {@code rows} (physical offsets) names at least one row and none past
   * {@code target}'s physical rows; {@code what} starts the error ("RelocateRows on fragment 3").
   */
  public void requireRowsWithin(Fragment target, org.roaringbitmap.RoaringBitmap rows, String what, String ifEmpty) {
    if (rows.isEmpty()) {
      throw invalid(what + " names no rows; " + ifEmpty);
    }
    long last = Integer.toUnsignedLong(rows.last());
    if (last >= target.physicalRows()) {
      throw invalid(what + " names row offset " + last + ", but the fragment has only "
          + target.physicalRows() + " physical rows");
    }
  }

  /** A fragment id as an index bitmap can hold it (u32). */
  public int indexableFragmentId(long id, String actionName) {
    if (id < 0 || id > MAX_FRAGMENT_ID) {
      throw invalid(actionName + " covers fragment " + Long.toUnsignedString(id) + ", which is "
          + "beyond the largest fragment id an index can record (4294967295)");
    }
    return (int) id;
  }

  /** A uniform row-version sequence: every one of {@code rows} rows at the new version. */
  public StoredSequence uniformVersions(long rows) {
    RowIdProtos.RowDatasetVersionSequence seq = RowIdProtos.RowDatasetVersionSequence.newBuilder()
        .addRuns(RowIdProtos.RowDatasetVersionRun.newBuilder()
            .setSpan(RowIdProtos.U64Segment.newBuilder()
                .setRange(RowIdProtos.U64Segment.Range.newBuilder().setStart(0).setEnd(rows)))
            .setVersion(newVersion))
        .build();
    return new StoredSequence.Inline(seq.toByteString());
  }

  /** {@code fields} with every id in {@code dropped} replaced by the tombstone. */
  public static List<Integer> tombstone(List<Integer> fields, Set<Integer> dropped) {
    List<Integer> out = new ArrayList<>(fields.size());
    for (int f : fields) {
      out.add(dropped.contains(f) ? DataFile.TOMBSTONED : f);
    }
    return out;
  }

  /** Tombstones {@code dropped} in the fragment's overlays, so stale overlays cannot shadow. */
  public static Fragment tombstoneOverlays(Fragment f, Set<Integer> dropped) {
    if (f.overlays().isEmpty()) {
      return f;
    }
    List<DataOverlayFile> out = new ArrayList<>(f.overlays().size());
    for (DataOverlayFile o : f.overlays()) {
      out.add(new DataOverlayFile(o.dataFile().withFields(tombstone(o.dataFile().fields(), dropped)),
          o.coverage(), o.committedVersion(), o.unknownFields()));
    }
    return f.toBuilder().overlays(out).build();
  }

  // ---- schema -----------------------------------------------------------------------------

  public Optional<Field> field(int id) {
    for (Field f : fields) {
      if (f.id() == id) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** Adds a field: top-level fields go last, children after their parent's last descendant. */
  public void addField(Field field) {
    provenance.field(field.id(), where);
    if (field.isTopLevel()) {
      fields.add(field);
      return;
    }
    int parentIndex = -1;
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).id() == field.parentId()) {
        parentIndex = i;
      }
    }
    Set<Integer> subtree = new HashSet<>();
    subtree.add(field.parentId());
    int insertAt = parentIndex + 1;
    while (insertAt < fields.size() && subtree.contains(fields.get(insertAt).parentId())) {
      subtree.add(fields.get(insertAt).id());
      insertAt++;
    }
    fields.add(insertAt, field);
  }

  public void replaceField(Field field) {
    provenance.field(field.id(), where);
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).id() == field.id()) {
        fields.set(i, field);
        return;
      }
    }
    throw invalid("field " + field.id() + " does not exist");
  }

  /**
   * Removes a field and its descendants, and prunes every data file of every fragment present
   * that no longer holds a field of the schema.
   */
  public void dropField(int id) {
    provenance.schema(where);
    removeSubtree(id, Optional.empty());
  }

  /**
   * Replaces field {@code id} by {@code replacement} (a new id) at the same schema position,
   * removing the old field's descendants, and prunes, as {@link #dropField} does, every data file
   * left holding no field of the schema (a cast).
   */
  public void replaceFieldIdentity(int id, Field replacement) {
    provenance.schema(where);
    removeSubtree(id, Optional.of(replacement));
  }

  private void removeSubtree(int id, Optional<Field> replacement) {
    Set<Integer> doomed = new HashSet<>();
    doomed.add(id);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Field f : fields) {
        if (!f.isTopLevel() && doomed.contains(f.parentId()) && doomed.add(f.id())) {
          grew = true;
        }
      }
    }
    if (replacement.isPresent()) {
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).id() == id) {
          fields.set(i, replacement.get());
        }
      }
    }
    fields.removeIf(f -> doomed.contains(f.id()));
    // As legacy Project (decision record section 1): a file keeps its slots, dropped ids and
    // all -- a dropped id left in a surviving file is the field-id watermark that keeps the id
    // from ever being reused -- and a file holding no field of the schema any more goes.
    // Overlays are left alone.
    Set<Integer> live = new HashSet<>();
    for (Field f : fields) {
      live.add(f.id());
    }
    for (Map.Entry<Long, Fragment> e : fragments.entrySet()) {
      Fragment f = e.getValue();
      List<DataFile> kept = new ArrayList<>(f.files().size());
      for (DataFile file : f.files()) {
        if (file.fields().stream().anyMatch(live::contains)) {
          kept.add(file);
        }
      }
      if (kept.size() != f.files().size()) {
        e.setValue(f.toBuilder().files(kept).build());
      }
    }
  }

  public Map<String, ByteString> schemaMetadata() {
    return schemaMetadata;
  }

  public Map<String, String> config() {
    return config;
  }

  public Map<String, String> tableMetadata() {
    return tableMetadata;
  }

  /**
   * Applies field metadata updates. The primary and clustering keys are reserved: once a table
   * has one, no update may write their keys or change which fields form them; when it has none,
   * writing their keys must yield a valid key. A field's cached key markers (what Lance reads
   * from the manifest) are recomputed from its metadata whenever an update writes its reserved
   * keys.
   */
  public void updateFieldMetadata(List<ConfigUpdate.FieldMetadataUpdate> updates) {
    List<Integer> pkBefore = keyFields(true);
    List<Integer> ckBefore = keyFields(false);
    boolean pkWritten = false;
    boolean ckWritten = false;
    for (ConfigUpdate.FieldMetadataUpdate u : updates) {
      int id = resolveField(u.field());
      Field f = field(id).orElseThrow(() ->
          invalid("ConfigUpdate names field " + id + ", which does not exist"));
      Map<String, ByteString> md = new LinkedHashMap<>(f.metadata());
      u.updates().applyTo(md, v -> ByteString.copyFrom(v, StandardCharsets.UTF_8));
      boolean pkHere = false;
      boolean ckHere = false;
      for (String key : u.updates().keys()) {
        pkHere |= key.equals(PK_FLAG) || key.equals(PK_POSITION);
        ckHere |= key.equals(CLUSTERING_POSITION);
      }
      if (u.updates().replace()) {
        pkHere |= f.metadata().containsKey(PK_FLAG) || f.metadata().containsKey(PK_POSITION);
        ckHere |= f.metadata().containsKey(CLUSTERING_POSITION);
      }
      Field.Builder b = f.toBuilder().metadata(md);
      if (pkHere) {
        OptionalLong pos = parseU32(md.get(PK_POSITION));
        if (pos.isEmpty() && isMarker(md.get(PK_FLAG))) {
          pos = OptionalLong.of(0);
        }
        b.unenforcedPrimaryKey(pos.isPresent()).unenforcedPrimaryKeyPosition((int) pos.orElse(0));
      }
      if (ckHere) {
        OptionalLong pos = parseU32(md.get(CLUSTERING_POSITION));
        b.unenforcedClusteringKey(pos.isPresent())
            .unenforcedClusteringKeyPosition((int) pos.orElse(0));
      }
      pkWritten |= pkHere;
      ckWritten |= ckHere;
      replaceField(b.build());
    }
    checkReservedKey("the unenforced primary key", pkBefore, keyFields(true), pkWritten);
    checkReservedKey("the unenforced clustering key", ckBefore, keyFields(false), ckWritten);
  }

  private void checkReservedKey(String what, List<Integer> before, List<Integer> after,
      boolean written) {
    if (!before.isEmpty()) {
      if (written || !after.equals(before)) {
        throw invalid(what + " is a reserved key and cannot be changed once set (it is fields "
            + before + ")");
      }
    } else if (written && after.isEmpty()) {
      throw invalid(what + " is a reserved key and cannot be set to an invalid value: no field's "
          + "metadata gives it a valid position (an unsigned 32-bit number) or flag (true/1/yes)");
    }
  }

  /** A reserved-key position as Lance parses it: an unsigned 32-bit decimal, or nothing. */
  private static OptionalLong parseU32(ByteString value) {
    if (value == null) {
      return OptionalLong.empty();
    }
    String s = value.toStringUtf8();
    String digits = s.startsWith("+") ? s.substring(1) : s;
    if (digits.isEmpty() || digits.length() > 10 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return OptionalLong.empty();
    }
    long v = Long.parseLong(digits);
    return v <= 0xFFFF_FFFFL ? OptionalLong.of(v) : OptionalLong.empty();
  }

  private static boolean isMarker(ByteString flag) {
    if (flag == null) {
      return false;
    }
    String v = flag.toStringUtf8().toLowerCase(java.util.Locale.ROOT);
    return v.equals("true") || v.equals("1") || v.equals("yes");
  }

  /**
   * The fields forming the primary ({@code primary}) or clustering key, in key order, from the
   * fields' cached markers. Primary: explicit positions (from 1) first, ascending, then fields
   * marked without a position (0), by id. Clustering: by position, ties in schema order.
   */
  List<Integer> keyFields(boolean primary) {
    List<Field> members = new ArrayList<>();
    for (Field f : fields) {
      if (primary ? f.unenforcedPrimaryKey() : f.unenforcedClusteringKey()) {
        members.add(f);
      }
    }
    java.util.Comparator<Field> order;
    if (primary) {
      order = java.util.Comparator
          .comparing((Field f) -> f.unenforcedPrimaryKeyPosition() == 0)
          .thenComparing(f -> Integer.toUnsignedLong(f.unenforcedPrimaryKeyPosition()))
          .thenComparingInt(Field::id);
    } else {
      order = java.util.Comparator.comparingLong(
          f -> Integer.toUnsignedLong(f.unenforcedClusteringKeyPosition()));
    }
    members.sort(order);
    List<Integer> out = new ArrayList<>(members.size());
    for (Field f : members) {
      out.add(f.id());
    }
    return out;
  }

  // ---- bases ------------------------------------------------------------------------------

  public List<BasePath> bases() {
    List<BasePath> all = new ArrayList<>(existingBases.values());
    all.addAll(newBases.values());
    return all;
  }

  public void addBase(BasePath base) {
    newBases.put(base.id(), base);
    provenance.base(base.id(), where);
  }

  // ---- indices ----------------------------------------------------------------------------

  public List<IndexSegment> indices() {
    return indices;
  }

  public void addIndex(IndexSegment segment) {
    for (IndexSegment s : indices) {
      if (s.uuid().equals(segment.uuid())) {
        throw invalid("index segment " + segment.uuid() + " is already part of the table; a "
            + "segment is added once");
      }
    }
    indices.add(segment);
    provenance.index(segment.uuid().toString(), where);
  }

  private int findIndex(UUID uuid, String name, String verb) {
    for (int i = 0; i < indices.size(); i++) {
      IndexSegment s = indices.get(i);
      if (s.uuid().equals(uuid)) {
        if (!s.name().equals(name)) {
          throw invalid("index segment " + uuid + " belongs to index '" + s.name() + "', but the "
              + "action names it as part of index '" + name + "'");
        }
        return i;
      }
    }
    throw invalid("index segment " + uuid + " is not part of the table, so it cannot be " + verb);
  }

  public void removeIndex(UUID uuid, String name, String verb) {
    indices.remove(findIndex(uuid, name, verb));
  }

  public void adjustIndexCoverage(UUID uuid, String name, List<Long> add, List<Long> remove) {
    int i = findIndex(uuid, name, "adjusted");
    IndexSegment s = indices.get(i);
    if (s.fragmentBitmap().isEmpty()) {
      throw invalid("index segment " + uuid + " records no fragment coverage, so there is "
          + "nothing to adjust");
    }
    RoaringBitmap bitmap = s.coveredFragments().map(b -> b.toRoaringBitmap()).orElseGet(RoaringBitmap::new);
    for (long id : add) {
      bitmap.add(indexableFragmentId(id, "AdjustIndexCoverage"));
    }
    for (long id : remove) {
      bitmap.remove(indexableFragmentId(id, "AdjustIndexCoverage"));
    }
    indices.set(i, s.withFragmentBitmap(bitmap));
  }

  /**
   * Records compaction progress in the MemWAL index's details (field 9, compacted_sstables):
   * per shard the generation only moves forward.
   */
  public void recordCompactedSsTables(List<CompactedSsTable> tables) {
    int at = -1;
    for (int i = 0; i < indices.size(); i++) {
      if (indices.get(i).name().equals(MEM_WAL_INDEX)) {
        at = i;
      }
    }
    if (at < 0) {
      throw invalid("UpdateCompactedSsTables records MemWAL progress, but the MemWAL index ("
          + MEM_WAL_INDEX + ") does not exist on this table");
    }
    IndexSegment s = indices.get(at);
    Map<UUID, Long> progress;
    try {
      progress = MemWalProgress.of(s);
    } catch (dev.lancet.format.FormatException e) {
      throw invalid(e.getMessage());
    }
    for (CompactedSsTable t : tables) {
      Long prior = progress.get(t.shardId());
      if (prior != null && Long.compareUnsigned(t.generation(), prior) < 0) {
        throw invalid("Stale SSTable compaction: shard " + t.shardId() + " is already at generation "
            + Long.toUnsignedString(prior) + ", so generation " + Long.toUnsignedString(t.generation())
            + " cannot be recorded");
      }
      progress.put(t.shardId(), t.generation());
    }
    indices.set(at, MemWalProgress.with(s, progress, newVersion));
  }

  // ---- reset ------------------------------------------------------------------------------

  /** Drops schema, schema metadata, fragments and indices; counters and tokens stay. */
  public void reset() {
    provenance.schema(where);
    fields.clear();
    schemaMetadata.clear();
    fragments.clear();
    indices.clear();
    minted.clear();
    mintedFromToken.clear();
    rebound.clear();
  }
}
