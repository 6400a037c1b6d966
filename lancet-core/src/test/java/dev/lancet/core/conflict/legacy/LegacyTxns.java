package dev.lancet.core.conflict.legacy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.FileProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.roaringbitmap.RoaringBitmap;

/** Concrete transactions, one builder per matrix abbreviation, over a table of fragments 0..3. */
final class LegacyTxns {
  private static final AtomicInteger SEQ = new AtomicInteger();

  private LegacyTxns() {}

  static Transaction.Builder envelope() {
    return Transaction.newBuilder().setReadVersion(1).setUuid("txn-" + SEQ.incrementAndGet());
  }

  static TableProtos.DataFile file(int... fields) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder().setPath("data/f" + SEQ.incrementAndGet() + ".lance")
        .setFileMajorVersion(2);
    for (int i = 0; i < fields.length; i++) {
      b.addFields(fields[i]).addColumnIndices(i);
    }
    return b.build();
  }

  static TableProtos.DataFragment fragment(long id) {
    return TableProtos.DataFragment.newBuilder().setId(id).addFiles(TableProtos.DataFile.newBuilder()
        .setPath("data/base-" + id + ".lance").addFields(0).addFields(1).addColumnIndices(0).addColumnIndices(1)
        .setFileMajorVersion(2)).setPhysicalRows(100).build();
  }

  static TableProtos.DataFragment withDeletions(long id, long readVersion, long fileId) {
    return fragment(id).toBuilder().setDeletionFile(TableProtos.DeletionFile.newBuilder()
        .setFileType(TableProtos.DeletionFile.DeletionFileType.BITMAP).setReadVersion(readVersion).setId(fileId)
        .setNumDeletedRows(1)).build();
  }

  static byte[] bitmap(int... offsets) {
    RoaringBitmap r = RoaringBitmap.bitmapOf(offsets);
    r.runOptimize();
    r.removeRunCompression();
    ByteBuffer buf = ByteBuffer.allocate(r.serializedSizeInBytes());
    r.serialize(buf);
    return buf.array();
  }

  static TableProtos.UUID uuid(UUID u) {
    ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
    return TableProtos.UUID.newBuilder().setUuid(ByteString.copyFrom(b.array())).build();
  }

  static final UUID SHARD_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
  static final UUID SHARD_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

  static TableProtos.CompactedSsTable sst(UUID shard, long generation) {
    return TableProtos.CompactedSsTable.newBuilder().setShardId(uuid(shard)).setGeneration(generation).build();
  }

  // ---- one builder per abbreviation -------------------------------------------------------

  static Transaction ap() {
    return envelope().setAppend(Transaction.Append.newBuilder().addFragments(
        TableProtos.DataFragment.newBuilder().setPhysicalRows(10).addFiles(file(0, 1)))).build();
  }

  static Transaction dl(long... updated) {
    Transaction.Delete.Builder d = Transaction.Delete.newBuilder().setPredicate("x > 1");
    for (long f : updated) {
      d.addUpdatedFragments(withDeletions(f, 1, 700 + f));
    }
    return envelope().setDelete(d).build();
  }

  static Transaction dlRemoving(long... removed) {
    Transaction.Delete.Builder d = Transaction.Delete.newBuilder().setPredicate("x > 1");
    for (long f : removed) {
      d.addDeletedFragmentIds(f);
    }
    return envelope().setDelete(d).build();
  }

  static Transaction ow(String... configKeys) {
    Transaction.Overwrite.Builder o = Transaction.Overwrite.newBuilder()
        .addFragments(TableProtos.DataFragment.newBuilder().setPhysicalRows(5).addFiles(file(0)))
        .addSchema(FileProtos.Field.newBuilder().setName("a").setId(0).setLogicalType("int64"));
    for (String k : configKeys) {
      o.putConfigUpsertValues(k, "v");
    }
    return envelope().setOverwrite(o).build();
  }

  static TableProtos.IndexMetadata index(String name, UUID uuid, List<Integer> fields, int... fragments) {
    TableProtos.IndexMetadata.Builder b = TableProtos.IndexMetadata.newBuilder().setName(name).setUuid(uuid(uuid))
        .addAllFields(fields).setDatasetVersion(1);
    if (fragments.length > 0) {
      b.setFragmentBitmap(ByteString.copyFrom(bitmap(fragments)));
    }
    return b.build();
  }

  static Transaction ci(TableProtos.IndexMetadata... added) {
    return ci(List.of(added), List.of());
  }

  static Transaction ci(List<TableProtos.IndexMetadata> added, List<TableProtos.IndexMetadata> removed) {
    return envelope().setCreateIndex(Transaction.CreateIndex.newBuilder().addAllNewIndices(added)
        .addAllRemovedIndices(removed)).build();
  }

  static final UUID IDX_1 = UUID.fromString("11111111-1111-1111-1111-111111111111");
  static final UUID IDX_2 = UUID.fromString("22222222-2222-2222-2222-222222222222");

  static Transaction ciDefault() {
    return ci(index("idx", IDX_1, List.of(0), 0));
  }

  static Transaction memWalIndex(TableProtos.CompactedSsTable... progress) {
    UnknownFieldSet.Field.Builder f9 = UnknownFieldSet.Field.newBuilder();
    for (TableProtos.CompactedSsTable t : progress) {
      f9.addLengthDelimited(t.toByteString());
    }
    ByteString details = UnknownFieldSet.newBuilder().addField(9, f9.build()).build().toByteString();
    TableProtos.IndexMetadata idx = index(LegacyOps.MEM_WAL_INDEX, IDX_2, List.of()).toBuilder()
        .setIndexDetails(Any.newBuilder().setTypeUrl("/lance.table.MemWalIndexDetails").setValue(details)).build();
    return ci(idx);
  }

  static Transaction rw(long... old) {
    Transaction.Rewrite.RewriteGroup.Builder g = Transaction.Rewrite.RewriteGroup.newBuilder();
    for (long f : old) {
      g.addOldFragments(fragment(f));
    }
    g.addNewFragments(fragment(10).toBuilder().setId(10));
    return envelope().setRewrite(Transaction.Rewrite.newBuilder().addGroups(g)).build();
  }

  static Transaction dr(long fragment, int... fields) {
    return envelope().setDataReplacement(Transaction.DataReplacement.newBuilder().addReplacements(
        Transaction.DataReplacementGroup.newBuilder().setFragmentId(fragment).setNewFile(file(fields)))).build();
  }

  static Transaction overlay(long fragment, int field, int... coverage) {
    TableProtos.DataOverlayFile o = TableProtos.DataOverlayFile.newBuilder().setDataFile(file(field))
        .setSharedOffsetBitmap(ByteString.copyFrom(bitmap(coverage))).build();
    return envelope().setDataOverlay(Transaction.DataOverlay.newBuilder().addGroups(
        Transaction.DataOverlayGroup.newBuilder().setFragmentId(fragment).addOverlays(o))).build();
  }

  static Transaction mg(boolean preservesNullability) {
    Transaction.Merge.Builder m = Transaction.Merge.newBuilder().setPreservesNullability(preservesNullability)
        .addSchema(FileProtos.Field.newBuilder().setName("a").setId(0).setLogicalType("int64"))
        .addSchema(FileProtos.Field.newBuilder().setName("b").setId(1).setLogicalType("int64"))
        .addSchema(FileProtos.Field.newBuilder().setName("c").setId(2).setLogicalType("int64").setNullable(true));
    for (long f = 0; f < 4; f++) {
      m.addFragments(fragment(f).toBuilder().addFiles(file(2)));
    }
    return envelope().setMerge(m).build();
  }

  static Transaction rs() {
    return envelope().setRestore(Transaction.Restore.newBuilder().setVersion(1)).build();
  }

  static Transaction rf() {
    return envelope().setReserveFragments(Transaction.ReserveFragments.newBuilder().setNumFragments(2)).build();
  }

  /** A row-moving Update of fragment {@code updated} (rows moved into one new fragment). */
  static Transaction.Update.Builder upBuilder(long... updated) {
    Transaction.Update.Builder u = Transaction.Update.newBuilder()
        .setUpdateMode(Transaction.UpdateMode.REWRITE_ROWS).addFieldsModified(1)
        .addNewFragments(TableProtos.DataFragment.newBuilder().setPhysicalRows(3).addFiles(file(0, 1)));
    for (long f : updated) {
      u.addUpdatedFragments(withDeletions(f, 1, 800 + f));
    }
    return u;
  }

  static Transaction up(Transaction.Update.Builder u) {
    return envelope().setUpdate(u).build();
  }

  static Transaction up(long... updated) {
    return up(upBuilder(updated));
  }

  static Transaction upColumns(long fragment, int field) {
    Transaction.Update.Builder u = Transaction.Update.newBuilder()
        .setUpdateMode(Transaction.UpdateMode.REWRITE_COLUMNS).addFieldsModified(field)
        .addUpdatedFragments(fragment(fragment).toBuilder().addFiles(file(field)));
    return envelope().setUpdate(u).build();
  }

  static CommonProtos.KeyExistenceFilter keys(long... hashes) {
    CommonProtos.ExactKeySetFilter.Builder e = CommonProtos.ExactKeySetFilter.newBuilder();
    for (long h : hashes) {
      e.addKeyHashes(h);
    }
    return CommonProtos.KeyExistenceFilter.newBuilder().addFieldIds(0).setExact(e).build();
  }

  static Transaction pj(boolean preservesNullability, int... keptFields) {
    Transaction.Project.Builder p = Transaction.Project.newBuilder().setPreservesNullability(preservesNullability);
    for (int f : keptFields) {
      p.addSchema(FileProtos.Field.newBuilder().setName("f" + f).setId(f).setLogicalType("int64"));
    }
    return envelope().setProject(p).build();
  }

  static Transaction pj() {
    return pj(true, 0, 1);
  }

  static Transaction uc(String configKey) {
    return envelope().setUpdateConfig(Transaction.UpdateConfig.newBuilder().setConfigUpdates(
        CommonProtos.UpdateMap.newBuilder().addUpdateEntries(
            CommonProtos.UpdateMapEntry.newBuilder().setKey(configKey).setValue("1")))).build();
  }

  static Transaction ucSchemaMetadata(String key) {
    return envelope().setUpdateConfig(Transaction.UpdateConfig.newBuilder().setSchemaMetadataUpdates(
        CommonProtos.UpdateMap.newBuilder().addUpdateEntries(
            CommonProtos.UpdateMapEntry.newBuilder().setKey(key).setValue("1")))).build();
  }

  static Transaction ucTableMetadata(String key) {
    return envelope().setUpdateConfig(Transaction.UpdateConfig.newBuilder().setTableMetadataUpdates(
        CommonProtos.UpdateMap.newBuilder().addUpdateEntries(
            CommonProtos.UpdateMapEntry.newBuilder().setKey(key).setValue("1")))).build();
  }

  static Transaction mw(TableProtos.CompactedSsTable... tables) {
    return envelope().setUpdateMemWalState(Transaction.UpdateMemWalState.newBuilder()
        .addAllCompactedSstables(List.of(tables))).build();
  }

  static Transaction cl() {
    return envelope().setClone(Transaction.Clone.newBuilder().setIsShallow(true).setRefVersion(1)
        .setRefPath("/source")).build();
  }

  static Transaction ub(int id, String name, String path) {
    TableProtos.BasePath.Builder b = TableProtos.BasePath.newBuilder().setId(id).setPath(path);
    if (name != null) {
      b.setName(name);
    }
    return envelope().setUpdateBases(Transaction.UpdateBases.newBuilder().addNewBases(b)).build();
  }

  static Transaction co(Action... actions) {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("step", List.of(actions))));
    return envelope().setCompositeOperation(ActionCodec.encode(op)).build();
  }

  /** A composite that only mints a fragment: collides with nothing that has a footprint. */
  static Transaction coAppend() {
    return co(AddFragment.local(0, 10));
  }

  /** A composite that replaces the whole table: collides with every footprint. */
  static Transaction coReset() {
    return co(new ResetTable());
  }

  static Transaction coAddBase(String name, String path) {
    return co(new AddBase(0, new BasePath(0, Optional.ofNullable(name), false, path,
        UnknownFieldSet.getDefaultInstance())));
  }

  static Transaction coOverlay(long fragment, int field) {
    DataFile file = new DataFile("data/o.lance", List.of(field), List.of(0), 2, 0, 0, OptionalInt.empty(),
        UnknownFieldSet.getDefaultInstance());
    DataOverlayFile o = new DataOverlayFile(file, new DataOverlayFile.SharedCoverage(ByteString.copyFrom(bitmap(1))),
        0, UnknownFieldSet.getDefaultInstance());
    return co(new AddOverlays(Ref.committed(fragment), List.of(o), true));
  }

  static Transaction coRemove(long fragment) {
    return co(new RemoveFragment(Ref.committed(fragment), true));
  }

  /** A composite that clears a fragment's deletions (no deletion file). */
  static Transaction coSetDeletionFile(long fragment) {
    return co(new SetDeletionFile(fragment, Optional.empty(), true));
  }

  /** A composite that gives a fragment a new deletion file: a row-level delete. */
  static Transaction coDeleteRows(long fragment) {
    return co(new SetDeletionFile(fragment, Optional.of(new dev.lancet.format.model.DeletionFile(
        dev.lancet.format.model.DeletionFile.Kind.BITMAP, 1, 900 + fragment, 1)), true));
  }

  /** A composite update that moves {@code rows} of {@code fragment} into a new fragment. */
  static Transaction coMove(long fragment, int... rows) {
    return co(new SetDeletionFile(fragment, Optional.of(new dev.lancet.format.model.DeletionFile(
            dev.lancet.format.model.DeletionFile.Kind.BITMAP, 1, 910 + fragment, rows.length)), true),
        new dev.lancet.core.action.RelocateRows(fragment, RoaringBitmap.bitmapOf(rows)),
        AddFragment.local(0, rows.length));
  }

  /** A composite that read and copied {@code rows} of {@code field} in {@code fragment}. */
  static Transaction coReadCells(long fragment, int field, int... rows) {
    return co(new dev.lancet.core.action.AssertCellsUnchanged(Ref.committed(fragment), List.of(Ref.committed(field)),
        RoaringBitmap.bitmapOf(rows)));
  }

  /** The default transaction of each kind (the unconditional cells hold for these). */
  static Transaction defaults(LegacyKind k) {
    switch (k) {
      case APPEND: return ap();
      case DELETE: return dl(0);
      case OVERWRITE: return ow();
      case CREATE_INDEX: return ciDefault();
      case REWRITE: return rw(1);
      case DATA_REPLACEMENT: return dr(2, 1);
      case DATA_OVERLAY: return overlay(3, 1, 0, 1);
      case MERGE: return mg(true);
      case RESTORE: return rs();
      case RESERVE_FRAGMENTS: return rf();
      case UPDATE: return up(0);
      case PROJECT: return pj();
      case UPDATE_CONFIG: return uc("a");
      case UPDATE_MEM_WAL_STATE: return mw(sst(SHARD_A, 5));
      case CLONE: return cl();
      case UPDATE_BASES: return ub(0, "b1", "/b1");
      case COMPOSITE: return coAppend();
      default: throw new IllegalArgumentException(k.toString());
    }
  }
}
