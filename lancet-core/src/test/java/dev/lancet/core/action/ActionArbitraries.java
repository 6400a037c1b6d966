package dev.lancet.core.action;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.StoredSequence;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random actions of every kind, for wire round-trip properties. */
final class ActionArbitraries {
  private ActionArbitraries() {}

  static Arbitrary<Ref> refs() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 1L << 40).map(Ref::committed),
        Arbitraries.integers().between(0, 50).map(Ref::local));
  }

  static Arbitrary<UpdateMap> updateMaps() {
    Arbitrary<UpdateMap.Entry> entries = Combinators.combine(
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6),
        Arbitraries.strings().ofMaxLength(6).optional())
        .as(UpdateMap.Entry::new);
    return Combinators.combine(entries.list().ofMaxSize(4), Arbitraries.of(true, false)).as(UpdateMap::new);
  }

  static Arbitrary<DataFile> dataFiles() {
    return Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8),
        Arbitraries.integers().between(-2, 40).list().ofMaxSize(4), Arbitraries.longs().between(0, 1 << 20))
        .as((p, f, size) -> new DataFile(p + ".lance", f, List.of(), 2, 1, size));
  }

  static Arbitrary<UUID> uuids() {
    return Arbitraries.longs().tuple2().map(t -> new UUID(t.get1(), t.get2()));
  }

  static Arbitrary<Action> actions() {
    Arbitrary<Boolean> dc = Arbitraries.of(true, false);
    Arbitrary<Optional<StoredSequence>> seq = Arbitraries.bytes().list().ofMaxSize(6)
        .map(l -> {
          byte[] b = new byte[l.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = l.get(i);
          }
          return StoredSequence.inline(b);
        }).optional();
    return Arbitraries.oneOf(
        Combinators.combine(refs(), Arbitraries.longs().between(0, 1 << 30), seq, seq, seq, dc)
            .as(AddFragment::new),
        Combinators.combine(refs(), dataFiles(), refs().list().ofMaxSize(4), dc).as(AddDataFile::new),
        Combinators.combine(Arbitraries.integers().between(0, 9), refs().optional(),
            Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6))
            .as((t, p, n) -> new AddField(t, p, Field.builder(0, n, "int64").build())),
        Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.strings().alpha().ofMaxLength(5).optional(),
            Arbitraries.of(true, false))
            .as((t, n, root) -> new AddBase(t, new BasePath(0, n, root, "/mnt/" + t))),
        Combinators.combine(refs(), refs().list().ofMaxSize(3), dc).as(TombstoneFieldData::new),
        Combinators.combine(refs(), dc).as(RemoveFragment::new),
        Combinators.combine(Arbitraries.longs().between(0, 100),
            Combinators.combine(Arbitraries.of(DeletionFile.Kind.values()), Arbitraries.longs().between(0, 9),
                Arbitraries.longs(), Arbitraries.longs().between(1, 100)).as(DeletionFile::new).optional(), dc)
            .as(SetDeletionFile::new),
        Combinators.combine(updateMaps().optional(), updateMaps().optional(), updateMaps().optional(),
            Combinators.combine(refs(), updateMaps()).as(ConfigUpdate.FieldMetadataUpdate::new).list().ofMaxSize(2))
            .as(ConfigUpdate::new),
        Combinators.combine(refs(), dataFiles().map(f -> new DataOverlayFile(f,
            new DataOverlayFile.SharedCoverage(ByteString.copyFromUtf8("x")), 0,
            UnknownFieldSet.getDefaultInstance())).list().ofMaxSize(2), dc).as(AddOverlays::new),
        Arbitraries.longs().between(0, 99).list().ofMaxSize(3).map(RefreshRowVersionMetadata::new),
        Combinators.combine(uuids(), Arbitraries.longs().between(0, 99)).as(CompactedSsTable::new)
            .list().ofMaxSize(3).map(UpdateCompactedSsTables::new),
        refs().map(DropField::new),
        Combinators.combine(refs(), Arbitraries.strings().alpha().ofMaxLength(5).optional(),
            Arbitraries.of("int32", "string").optional(), Arbitraries.of(true, false).optional())
            .as(AlterField::new),
        Combinators.combine(uuids(), Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5),
            refs().list().ofMaxSize(2), refs().list().ofMaxSize(3).optional(), dc,
            refs().optional(), Arbitraries.longs().between(0, 1L << 45).optional(),
            Arbitraries.longs().between(0, 99).optional())
            .as((u, n, f, cov, d, base, created, dv) -> new AddIndexSegment(u, n, f,
                Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build()),
                OptionalInt.of(1), cov,
                List.of(new IndexSegment.IndexFile("index.idx", 10, UnknownFieldSet.getDefaultInstance())),
                d, base, created.map(OptionalLong::of).orElse(OptionalLong.empty()),
                dv.map(OptionalLong::of).orElse(OptionalLong.empty()), List.of()))
            .flatMap(a -> refs().list().ofMaxSize(2).map(carried -> new AddIndexSegment(a.uuid(), a.name(),
                a.fields(), a.indexDetails(), a.indexVersion(), a.coveredFragments(), a.files(), a.dataChange(),
                a.base(), a.createdAt(), a.datasetVersion(), carried))),
        Combinators.combine(uuids(), Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5), dc)
            .as(RemoveIndexSegment::new),
        Combinators.combine(uuids(), Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5),
            refs().list().ofMaxSize(3), Arbitraries.longs().between(0, 99).list().ofMaxSize(3))
            .as(AdjustIndexCoverage::new),
        Arbitraries.just(new ResetTable()),
        Arbitraries.longs().between(0, 0xFFFF_FFFFL).map(ReserveFragmentIds::new),
        Combinators.combine(refs().list().ofMinSize(1).ofMaxSize(2),
            Arbitraries.longs().list().ofMaxSize(4).map(KeyExistenceFilter.Exact::new))
            .as(AssertUniqueKeys::new),
        Arbitraries.longs().between(0, Long.MAX_VALUE).map(ReserveRowIds::new),
        Combinators.combine(Arbitraries.longs().between(0, 99),
            Arbitraries.integers().between(0, 100_000).set().ofMinSize(1).ofMaxSize(20))
            .as((f, rows) -> new RelocateRows(f,
                org.roaringbitmap.RoaringBitmap.bitmapOf(rows.stream().mapToInt(Integer::intValue).toArray()))),
        Combinators.combine(refs(), refs().list().ofMaxSize(3),
            Arbitraries.integers().between(0, 100_000).set().ofMinSize(1).ofMaxSize(20))
            .as((f, fields, rows) -> new AssertCellsUnchanged(f, fields,
                org.roaringbitmap.RoaringBitmap.bitmapOf(rows.stream().mapToInt(Integer::intValue).toArray()))));
  }

  static Arbitrary<CompositeOperation> operations() {
    Arbitrary<UserStep> steps = Combinators.combine(Arbitraries.strings().ofMaxLength(10),
        actions().list().ofMaxSize(5)).as(UserStep::new);
    return steps.list().ofMaxSize(4).map(CompositeOperation::new);
  }
}
