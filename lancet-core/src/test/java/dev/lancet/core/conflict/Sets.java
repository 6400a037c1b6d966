package dev.lancet.core.conflict;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddIndexSegment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.AdjustIndexCoverage;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.CompactedSsTable;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RefreshRowVersionMetadata;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.RemoveIndexSegment;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateCompactedSsTables;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.IndexSegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/** Builds transactions from the real action records for the footprint tests. */
final class Sets {
  private Sets() {}

  static final String BY_A = "by_a";
  static final String BY_B = "by_b";
  static final String MEM_WAL = "__lance_mem_wal";
  static final Any BTREE = Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build();
  static final Any INVERTED = Any.newBuilder().setTypeUrl("/lance.table.InvertedIndexDetails").build();

  static Ref c(long id) {
    return Ref.committed(id);
  }

  static Ref l(int token) {
    return Ref.local(token);
  }

  static UUID uuid(int n) {
    return new UUID(0xF007L, n);
  }

  /** The footprint of one operation made of {@code parts} (actions or arrays of actions). */
  static Footprint fp(Object... parts) {
    List<Action> actions = new ArrayList<>();
    for (Object p : parts) {
      if (p instanceof Action a) {
        actions.add(a);
      } else {
        actions.addAll(Arrays.asList((Action[]) p));
      }
    }
    return Footprint.of(new CompositeOperation(List.of(new UserStep("step", actions))));
  }

  static DataFile file(List<Integer> fields) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      columns.add(i);
    }
    return new DataFile("data.lance", fields, columns, 2, 1, 100);
  }

  static List<Ref> committed(long... ids) {
    List<Ref> out = new ArrayList<>();
    for (long id : ids) {
      out.add(c(id));
    }
    return out;
  }

  // ---- fragments and data -------------------------------------------------------------------

  static AddFragment newFragment(int token) {
    return new AddFragment(l(token), 10, Optional.empty(), Optional.empty(), Optional.empty(), true);
  }

  static AddFragment compactedFragment(int token) {
    return new AddFragment(l(token), 10, Optional.empty(), Optional.empty(), Optional.empty(), false);
  }

  static AddFragment reservedFragment(long id) {
    return new AddFragment(c(id), 10, Optional.empty(), Optional.empty(), Optional.empty(), true);
  }

  static AddDataFile addDataFile(Ref fragment, List<Ref> fields) {
    return new AddDataFile(fragment, file(List.of()), fields, true);
  }

  /** A rewrite of committed {@code fields} in committed fragment {@code fragment}. */
  static AddDataFile rewrite(long fragment, long... fields) {
    return addDataFile(c(fragment), committed(fields));
  }

  /** A new fragment holding data for the committed {@code fields}. */
  static Action[] append(long... fields) {
    return new Action[] {newFragment(0), addDataFile(l(0), committed(fields))};
  }

  static TombstoneFieldData tombstone(long fragment, long... fields) {
    return new TombstoneFieldData(c(fragment), committed(fields), true);
  }

  /** A SetDeletionFile that clears the fragment's deletions (no file). */
  static SetDeletionFile deletion(long fragment) {
    return new SetDeletionFile(fragment, Optional.empty(), true);
  }

  /** A SetDeletionFile with a new deletion file: a row-level delete. */
  static SetDeletionFile deleteRows(long fragment) {
    return new SetDeletionFile(fragment, Optional.of(new dev.lancet.format.model.DeletionFile(
        dev.lancet.format.model.DeletionFile.Kind.BITMAP, 1, 7, 2)), true);
  }

  /** A data-changing rewrite of committed {@code field} in committed {@code fragment}. */
  static Action[] columnRewrite(long fragment, long field) {
    return new Action[] {tombstone(fragment, field), rewrite(fragment, field)};
  }

  /** A re-encode of committed {@code field} in committed {@code fragment} (values unchanged). */
  static Action[] reencode(long fragment, long field) {
    return new Action[] {new TombstoneFieldData(c(fragment), committed(field), false),
        new AddDataFile(c(fragment), file(List.of()), committed(field), false)};
  }

  /** An overlay of committed {@code field} on {@code rows} of committed {@code fragment}. */
  static AddOverlays overlayRows(long fragment, int field, int... rows) {
    DataOverlayFile o = new DataOverlayFile(file(List.of(field)),
        new DataOverlayFile.SharedCoverage(ByteString.copyFrom(dev.lancet.format.deletion.PortableRoaring.write(
            org.roaringbitmap.RoaringBitmap.bitmapOf(rows)))), 0, UnknownFieldSet.getDefaultInstance());
    return new AddOverlays(c(fragment), List.of(o), true);
  }

  static RemoveFragment remove(long fragment) {
    return new RemoveFragment(c(fragment), true);
  }

  static RefreshRowVersionMetadata refresh(Long... fragments) {
    return new RefreshRowVersionMetadata(List.of(fragments));
  }

  static AddOverlays overlay(long fragment, Integer... fields) {
    DataOverlayFile o = new DataOverlayFile(file(List.of(fields)),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L, 2L))), 0,
        UnknownFieldSet.getDefaultInstance());
    return new AddOverlays(c(fragment), List.of(o), true);
  }

  // ---- schema -------------------------------------------------------------------------------

  static AddField addField(int token, String name) {
    return AddField.topLevel(token, Field.builder(0, name, "int64").build());
  }

  static AddField addChild(int token, String name, long parent) {
    return new AddField(token, Optional.of(c(parent)), Field.builder(0, name, "int64").build());
  }

  static AlterField rename(long field, String name) {
    return AlterField.rename(c(field), name);
  }

  static AlterField nullable(long field) {
    return new AlterField(c(field), Optional.empty(), Optional.empty(), Optional.of(true));
  }

  static AlterField cast(long field) {
    return new AlterField(c(field), Optional.empty(), Optional.of("float64"), Optional.empty());
  }

  static DropField drop(long field) {
    return new DropField(c(field));
  }

  static AddBase base(String name, String path) {
    return new AddBase(0, new BasePath(0, Optional.ofNullable(name), false, path));
  }

  // ---- config -------------------------------------------------------------------------------

  static ConfigUpdate setConfig(String key) {
    return ConfigUpdate.ofConfig(UpdateMap.set(key, "v"));
  }

  static ConfigUpdate replaceConfig(String key) {
    return ConfigUpdate.ofConfig(new UpdateMap(
        List.of(new UpdateMap.Entry(key, Optional.of("v"))), true));
  }

  static ConfigUpdate setTableMetadata(String key) {
    return new ConfigUpdate(Optional.empty(), Optional.of(UpdateMap.set(key, "v")),
        Optional.empty(), List.of());
  }

  static ConfigUpdate fieldMetadata(Ref field, String key, String value) {
    return new ConfigUpdate(Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(new ConfigUpdate.FieldMetadataUpdate(field, UpdateMap.set(key, value))));
  }

  static ResetTable reset() {
    return new ResetTable();
  }

  // ---- indices ------------------------------------------------------------------------------

  static AddIndexSegment build(UUID uuid, String name, List<Ref> fields, Optional<Any> details,
      int indexVersion, Optional<List<Ref>> coverage) {
    return new AddIndexSegment(uuid, name, fields, details, OptionalInt.of(indexVersion), coverage,
        List.of(), true, Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), List.of());
  }

  /** A BTree segment of {@code name} over {@code fields} covering the committed {@code fragments}. */
  static AddIndexSegment build(int uuid, String name, List<Ref> fields, long... fragments) {
    return build(uuid(uuid), name, fields, Optional.of(BTREE), 0, Optional.of(committed(fragments)));
  }

  /** A BTree segment keyed on {@code keys} that carries {@code carried}, covering {@code fragments}. */
  static AddIndexSegment buildCarrying(int uuid, String name, List<Ref> keys, List<Ref> carried, long... fragments) {
    return new AddIndexSegment(uuid(uuid), name, keys, Optional.of(BTREE), OptionalInt.of(0),
        Optional.of(committed(fragments)), List.of(), true, Optional.empty(), OptionalLong.empty(),
        OptionalLong.empty(), carried);
  }

  /** The same, with coverage unstated. */
  static AddIndexSegment buildUnstated(int uuid, String name, List<Ref> fields) {
    return build(uuid(uuid), name, fields, Optional.of(BTREE), 0, Optional.empty());
  }

  static RemoveIndexSegment removeSegment(int uuid, String name) {
    return new RemoveIndexSegment(uuid(uuid), name, true);
  }

  static AdjustIndexCoverage adjust(int uuid, String name, List<Ref> add, List<Long> remove) {
    return new AdjustIndexCoverage(uuid(uuid), name, add, remove);
  }

  static UpdateCompactedSsTables compactedSsTables(int shard, long generation) {
    return new UpdateCompactedSsTables(List.of(new CompactedSsTable(uuid(100 + shard), generation)));
  }

  // ---- keys ---------------------------------------------------------------------------------

  static KeyExistenceFilter exact(Long... hashes) {
    return new KeyExistenceFilter.Exact(List.of(hashes));
  }

  static KeyExistenceFilter bloom(long items, double probability, int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return new KeyExistenceFilter.Bloom(ByteString.copyFrom(b), bytes.length * 8, items, probability);
  }

  static AssertUniqueKeys assertKeys(List<Ref> keyFields, KeyExistenceFilter filter) {
    return new AssertUniqueKeys(keyFields, filter);
  }

  /** An insert of new rows into field 0 that asserts its keys under key column 0 are unique. */
  static Action[] keyedInsert(KeyExistenceFilter filter) {
    return new Action[] {newFragment(0), addDataFile(l(0), committed(0)),
        assertKeys(committed(0), filter)};
  }
}
