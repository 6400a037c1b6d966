package dev.lancet.core.action;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.codec.IndexCodec;
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
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.format.rowids.U64Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.LongStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Manifests, index segments and helpers for the apply tests of the index, overlay, row-version
 * and row-id actions (v2-semantics §7.15–7.22). Mirrors upstream's test support:
 * {@code sample_manifest}, {@code backed_manifest}, {@code make_stable_row_id_manifest},
 * {@code sample_index_metadata}, {@code apply} and {@code apply_with_indices}.
 */
public final class IndexApplyFixtures {
  private IndexApplyFixtures() {}

  /** The version every fixture manifest is at; the commit produces {@code VERSION + 1}. */
  public static final long VERSION = 5;
  /** The description of the single step {@link #op} builds. */
  public static final String STEP = "step";
  /** The counter of {@link #stableManifest()}. */
  public static final long NEXT_ROW_ID = 1000;
  /** The type URL of the MemWAL index details. */
  public static final String MEM_WAL_TYPE_URL = "/lance.table.MemWalIndexDetails";
  public static final String MEM_WAL = "__lance_mem_wal";

  // ---- manifests ----------------------------------------------------------------------------

  public static Field field(int id, String name) {
    return Field.builder(id, name, "int64").build();
  }

  public static DataFile dataFile(String path, Integer... fields) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      columns.add(i);
    }
    return new DataFile(path, List.of(fields), columns, 2, 1, 100);
  }

  /** Schema {@code id} (field 0) and fragment 0 with nothing in it. */
  public static Manifest sampleManifest() {
    return Manifest.builder()
        .schema(new Schema(List.of(field(0, "id")), Map.of()))
        .fragments(List.of(Fragment.builder(0).build()))
        .version(VERSION)
        .maxFragmentId(OptionalLong.of(0))
        .build();
  }

  /** {@link #sampleManifest()} with fragment 0 holding 10 rows in {@code data/0.lance} (field 0). */
  public static Manifest backedManifest() {
    return sampleManifest().toBuilder()
        .fragments(List.of(Fragment.of(0, 10, List.of(dataFile("data/0.lance", 0)))))
        .build();
  }

  /**
   * Fields {@code a} (0) and {@code b} (1); fragments 0 and 1, each with one file backing both
   * fields, 10 rows each.
   */
  public static Manifest twoColumnManifest() {
    return Manifest.builder()
        .schema(new Schema(List.of(field(0, "a"), field(1, "b")), Map.of()))
        .fragments(List.of(
            Fragment.of(0, 10, List.of(dataFile("data/0.lance", 0, 1))),
            Fragment.of(1, 10, List.of(dataFile("data/1.lance", 0, 1)))))
        .version(VERSION)
        .maxFragmentId(OptionalLong.of(1))
        .build();
  }

  /**
   * A stable-row-id table (upstream's {@code make_stable_row_id_manifest}): field 0, fragment 1
   * with 10 rows holding row ids 0..10, created at version 2 and last updated partly at 2
   * (rows 0..4) and partly at 3 (rows 4..10); the row-id counter at {@value #NEXT_ROW_ID}.
   */
  public static Manifest stableManifest() {
    Fragment f = Fragment.builder(1)
        .physicalRows(10)
        .files(List.of(dataFile("data/1.lance", 0)))
        .rowIds(Optional.of(rowIds(0, 10)))
        .createdAtVersions(Optional.of(versions(RowVersionSequence.uniform(10, 2))))
        .lastUpdatedAtVersions(Optional.of(versions(RowVersionSequence.of(List.of(
            new RowVersionSequence.Run(new U64Segment.Range(0, 4), 2),
            new RowVersionSequence.Run(new U64Segment.Range(4, 10), 3))))))
        .build();
    return Manifest.builder()
        .schema(new Schema(List.of(field(0, "id")), Map.of()))
        .fragments(List.of(f))
        .version(VERSION)
        .readerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .writerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .maxFragmentId(OptionalLong.of(1))
        .nextRowId(NEXT_ROW_ID)
        .build();
  }

  public static Manifest withBase(Manifest m) {
    return m.toBuilder()
        .basePaths(List.of(new BasePath(1, Optional.of("archive"), false, "/mnt/archive/t")))
        .build();
  }

  public static Fragment fragment(Manifest m, long id) {
    return m.fragment(id).orElseThrow(() -> new AssertionError("no fragment " + id + " in " + m.fragments()));
  }

  public static List<Long> fragmentIds(Manifest m) {
    return m.fragments().stream().map(Fragment::id).toList();
  }

  // ---- operations ---------------------------------------------------------------------------

  public static CompositeOperation op(Action... actions) {
    return new CompositeOperation(List.of(new UserStep(STEP, List.of(actions))));
  }

  public static CompositeOperation steps(UserStep... steps) {
    return new CompositeOperation(List.of(steps));
  }

  /** Applies {@code actions} as one step, for a transaction that read {@code m}. */
  public static Manifest apply(Manifest m, Action... actions) {
    return CompositeApply.apply(m, List.of(), op(actions), m.version()).manifest();
  }

  public static CompositeApply.Result applyWithIndices(Manifest m, List<IndexSegment> indices,
      Action... actions) {
    return CompositeApply.apply(m, indices, op(actions), m.version());
  }

  /** Applies to {@code current} a transaction that read {@code readVersion} (a rebase). */
  public static CompositeApply.Result applyAt(Manifest current, long readVersion,
      List<IndexSegment> indices, Action... actions) {
    return CompositeApply.apply(current, indices, op(actions), readVersion);
  }

  /** The ApplyException {@code call} throws; fails if it throws nothing or something else. */
  public static ApplyException applyError(ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(ApplyException.class);
    return (ApplyException) t;
  }

  public static ApplyException applyError(Manifest m, List<IndexSegment> indices, Action... actions) {
    return applyError(() -> applyWithIndices(m, indices, actions));
  }

  /** The location an error at action {@code action} (1-based) of the single step names. */
  public static String where(int action, String actionName) {
    return where(1, STEP, action, actionName);
  }

  public static String where(int step, String description, int action, String actionName) {
    return "step " + step + " ('" + description + "'), action " + action + " (" + actionName + ")";
  }

  // ---- sequences ----------------------------------------------------------------------------

  public static StoredSequence rowIds(long start, long end) {
    return StoredSequence.inline(RowIdSequence.ofRange(start, end - start).encode());
  }

  public static StoredSequence versions(RowVersionSequence seq) {
    return StoredSequence.inline(seq.encode());
  }

  /** The fragment's row ids, decoded. */
  public static long[] rowIdsOf(Fragment f) {
    StoredSequence s = f.rowIds().orElseThrow(() -> new AssertionError("fragment " + f.id() + " has no row ids"));
    return RowIdSequence.decode(((StoredSequence.Inline) s).bytes().toByteArray(), "row ids").toArray();
  }

  public static long[] range(long start, long end) {
    return LongStream.range(start, end).toArray();
  }

  public static long[] concat(long[] a, long[] b) {
    long[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  public static RowVersionSequence decodeVersions(Optional<StoredSequence> s) {
    StoredSequence seq = s.orElseThrow(() -> new AssertionError("no row-version sequence"));
    return RowVersionSequence.decode(((StoredSequence.Inline) seq).bytes().toByteArray(), "versions");
  }

  /** The version of every row of a row-version sequence, in row order. */
  public static long[] versionsPerRow(Optional<StoredSequence> s) {
    RowVersionSequence seq = decodeVersions(s);
    long[] out = new long[(int) seq.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = seq.versionAt(i);
    }
    return out;
  }

  public static long[] repeat(long value, int times) {
    long[] out = new long[times];
    Arrays.fill(out, value);
    return out;
  }

  // ---- overlays -----------------------------------------------------------------------------

  /** An overlay of {@code fields} over rows 1 and 2, as a writer hands it in. */
  public static DataOverlayFile overlay(String path, long committedVersion, Integer... fields) {
    return new DataOverlayFile(dataFile(path, fields),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L, 2L))),
        committedVersion, UnknownFieldSet.getDefaultInstance());
  }

  // ---- index segments -----------------------------------------------------------------------

  public static UUID uuid(int n) {
    return new UUID(0x1DE7L, n);
  }

  /** A BTree segment named {@code name} over {@code fields}, covering {@code fragments}. */
  public static IndexSegment segment(UUID uuid, String name, List<Integer> fields, Long... fragments) {
    return new IndexSegment(uuid, fields, name, 3, IndexSegment.fragmentBitmapOf(List.of(fragments)),
        Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build()),
        OptionalInt.of(0), OptionalLong.of(1_700_000_000_000L), OptionalInt.empty(),
        List.of(new IndexSegment.IndexFile("index.idx", 4096, UnknownFieldSet.getDefaultInstance())), List.of(),
        UnknownFieldSet.getDefaultInstance());
  }

  /** Upstream's {@code sample_index_metadata}: over field 0, covering fragment 0. */
  public static IndexSegment sampleIndex(UUID uuid, String name) {
    return segment(uuid, name, List.of(0), 0L);
  }

  /** A segment that does not record its coverage (empty bitmap bytes). */
  public static IndexSegment unknownCoverage(UUID uuid, String name, List<Integer> fields) {
    IndexSegment s = segment(uuid, name, fields);
    return new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(), ByteString.EMPTY,
        s.indexDetails(), s.indexVersion(), s.createdAt(), s.baseId(), s.files(), s.coveringFields(), s.unknownFields());
  }

  public static IndexSegment vectorSegment(UUID uuid, String name, List<Integer> fields, Long... fragments) {
    IndexSegment s = segment(uuid, name, fields, fragments);
    return new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(), s.fragmentBitmap(),
        Optional.of(Any.newBuilder().setTypeUrl("/lance.table.VectorIndexDetails").build()),
        s.indexVersion(), s.createdAt(), s.baseId(), s.files(), s.coveringFields(), s.unknownFields());
  }

  /** The covered fragment ids, or empty for unknown coverage. */
  public static Optional<List<Long>> coverage(IndexSegment s) {
    return s.coveredFragments().map(IndexApplyFixtures::ids);
  }

  private static List<Long> ids(ImmutableRoaringBitmap b) {
    List<Long> out = new ArrayList<>();
    b.forEach((int i) -> out.add(Integer.toUnsignedLong(i)));
    return out;
  }

  public static IndexSegment byUuid(List<IndexSegment> indices, UUID uuid) {
    return indices.stream().filter(s -> s.uuid().equals(uuid)).findFirst()
        .orElseThrow(() -> new AssertionError("no segment " + uuid + " in " + indices));
  }

  public static List<UUID> uuids(List<IndexSegment> indices) {
    return indices.stream().map(IndexSegment::uuid).toList();
  }

  /** An AddIndexSegment as upstream's test helper builds it, with every optional part unset. */
  public static SegmentAction addSegment(UUID uuid, String name, Ref... fields) {
    return new SegmentAction(uuid, name, List.of(fields));
  }

  /** A builder for {@link AddIndexSegment} in tests. */
  public static final class SegmentAction {
    private final UUID uuid;
    private final String name;
    private final List<Ref> fields;
    private Optional<Any> details = Optional.empty();
    private OptionalInt indexVersion = OptionalInt.of(1);
    private Optional<List<Ref>> covered = Optional.of(List.of(Ref.committed(0)));
    private List<IndexSegment.IndexFile> files = List.of();
    private Optional<Ref> base = Optional.empty();
    private OptionalLong createdAt = OptionalLong.empty();
    private OptionalLong datasetVersion = OptionalLong.empty();
    private List<Ref> carried = List.of();

    SegmentAction(UUID uuid, String name, List<Ref> fields) {
      this.uuid = uuid;
      this.name = name;
      this.fields = fields;
    }

    public SegmentAction covering(Ref... fragments) {
      covered = Optional.of(List.of(fragments));
      return this;
    }

    /** The columns the segment carries values for (AddIndexSegment.covering_fields). */
    public SegmentAction carrying(Ref... fields) {
      carried = List.of(fields);
      return this;
    }

    public SegmentAction unknownCoverage() {
      covered = Optional.empty();
      return this;
    }

    public SegmentAction details(Any v) {
      details = Optional.of(v);
      return this;
    }

    public SegmentAction indexVersion(OptionalInt v) {
      indexVersion = v;
      return this;
    }

    public SegmentAction files(IndexSegment.IndexFile... v) {
      files = List.of(v);
      return this;
    }

    public SegmentAction base(Ref v) {
      base = Optional.of(v);
      return this;
    }

    public SegmentAction createdAt(long v) {
      createdAt = OptionalLong.of(v);
      return this;
    }

    public SegmentAction datasetVersion(long v) {
      datasetVersion = OptionalLong.of(v);
      return this;
    }

    public AddIndexSegment build() {
      return new AddIndexSegment(uuid, name, fields, details, indexVersion, covered, files, false,
          base, createdAt, datasetVersion, carried);
    }
  }

  // ---- the MemWAL index ---------------------------------------------------------------------

  /**
   * The MemWAL system index recording {@code progress} (shard → generation) in field 9 of its
   * details, after {@code other} (fields the transaction layer must leave alone).
   */
  public static IndexSegment memWalIndex(UUID uuid, Map<UUID, Long> progress, UnknownFieldSet other) {
    UnknownFieldSet.Field.Builder field9 = UnknownFieldSet.Field.newBuilder();
    progress.forEach((shard, generation) -> field9.addLengthDelimited(TableProtos.CompactedSsTable
        .newBuilder().setShardId(IndexCodec.uuidToProto(shard)).setGeneration(generation).build()
        .toByteString()));
    UnknownFieldSet details = UnknownFieldSet.newBuilder(other).addField(9, field9.build()).build();
    return new IndexSegment(uuid, List.of(), MEM_WAL, 1, ByteString.EMPTY,
        Optional.of(Any.newBuilder().setTypeUrl(MEM_WAL_TYPE_URL).setValue(details.toByteString()).build()),
        OptionalInt.of(0), OptionalLong.empty(), OptionalInt.empty(), List.of(), List.of(),
        UnknownFieldSet.getDefaultInstance());
  }

  public static IndexSegment memWalIndex(UUID uuid, Map<UUID, Long> progress) {
    return memWalIndex(uuid, progress, UnknownFieldSet.getDefaultInstance());
  }

  public static UnknownFieldSet memWalDetails(List<IndexSegment> indices) {
    IndexSegment memWal = indices.stream().filter(s -> s.name().equals(MEM_WAL)).findFirst()
        .orElseThrow(() -> new AssertionError("no MemWAL index in " + indices));
    try {
      return UnknownFieldSet.parseFrom(memWal.indexDetails().orElseThrow().getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  /** The compaction progress the MemWAL index records, shard → generation, in stored order. */
  public static Map<UUID, Long> progress(List<IndexSegment> indices) {
    Map<UUID, Long> out = new LinkedHashMap<>();
    for (ByteString entry : memWalDetails(indices).getField(9).getLengthDelimitedList()) {
      try {
        TableProtos.CompactedSsTable t = TableProtos.CompactedSsTable.parseFrom(entry);
        UUID shard = IndexCodec.uuidFromProto(t.getShardId(), "test");
        assertThat(out).as("shard %s recorded once", shard).doesNotContainKey(shard);
        out.put(shard, t.getGeneration());
      } catch (InvalidProtocolBufferException e) {
        throw new AssertionError(e);
      }
    }
    return out;
  }

  public static UUID shard(int n) {
    return new UUID(0x5AADL, n);
  }

  public static UpdateCompactedSsTables compacted(Object... shardGenerationPairs) {
    List<CompactedSsTable> tables = new ArrayList<>();
    for (int i = 0; i < shardGenerationPairs.length; i += 2) {
      tables.add(new CompactedSsTable(shard((Integer) shardGenerationPairs[i]),
          ((Number) shardGenerationPairs[i + 1]).longValue()));
    }
    return new UpdateCompactedSsTables(tables);
  }
}
