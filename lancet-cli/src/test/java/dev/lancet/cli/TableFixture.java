package dev.lancet.cli;

import com.google.protobuf.Any;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.Table;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.WriterVersion;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Builds Lance tables on disk with Lancet's own format code: manifests through
 * {@link ManifestFile#write}, transactions as {@code .txn} files or inline.
 */
final class TableFixture {
  /** Where a version's transaction goes. */
  enum TxnPlacement { FILE, INLINE, NONE }

  static final Schema SCHEMA = new Schema(List.of(
      Field.builder(0, "id", "int64").nullable(false).unenforcedPrimaryKey(true)
          .unenforcedPrimaryKeyPosition(1).build(),
      Field.builder(1, "point", "struct").build(),
      Field.builder(2, "x", "float").parentId(1).build(),
      Field.builder(3, "y", "float").parentId(1).build(),
      Field.builder(4, "name", "string").build()), Map.of());

  static final Instant EPOCH = Instant.parse("2024-05-01T12:00:00Z");
  static final UUID INDEX_UUID = UUID.fromString("6f1d2c3b-4a59-4e8f-9a0b-1c2d3e4f5a6b");
  static final String BTREE_DETAILS = "/lance.table.BTreeIndexDetails";

  final Path root;
  final LocalObjectStore store;

  TableFixture(Path root) {
    this.root = root;
    this.store = new LocalObjectStore(root);
  }

  String location() {
    return root.toString();
  }

  /**
   * A small table created with Lancet's API: version 1 a legacy Overwrite with columns id and
   * name, version 2 a composite config update ({@code lancet.demo=true}).
   */
  static Path createSmallTable(Path root) {
    Schema schema = new Schema(List.of(
        Field.builder(0, "id", "int64").nullable(false).build(),
        Field.builder(1, "name", "string").build()), Map.of());
    try (Table table = Table.create(root.toString(), new LocalObjectStore(root),
        new Overwrite(List.of(), schema, Map.of(), List.of()), new DataStorageFormat("lance", "2.1"))) {
      table.newTransaction().step("mark as demo", s -> s.setConfig("lancet.demo", "true")).commit();
    }
    return root;
  }

  static String uuid(long n) {
    return new UUID(0, n).toString();
  }

  static DataFile dataFile(String name) {
    return new DataFile("data/" + name + ".lance", List.of(0, 1, 2, 3, 4), List.of(0, 1, 2, 3, 4), 2, 1, 4096);
  }

  static Fragment fragment(long id, long rows) {
    return Fragment.of(id, rows, List.of(dataFile("f" + id)));
  }

  static Manifest.Builder manifest(long version, List<Fragment> fragments) {
    long maxId = -1;
    for (Fragment f : fragments) {
      maxId = Math.max(maxId, f.id());
    }
    return Manifest.builder()
        .schema(SCHEMA)
        .fragments(fragments)
        .version(version)
        .writerVersion(Optional.of(WriterVersion.LANCET))
        .timestamp(Optional.of(EPOCH.plusSeconds(version * 60)))
        .maxFragmentId(maxId < 0 ? OptionalLong.empty() : OptionalLong.of(maxId))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")));
  }

  /** Writes {@code _versions/{v}.manifest} (and the transaction where {@code placement} says). */
  Manifest write(Manifest.Builder builder, List<IndexSegment> indices, Optional<Transaction> txn,
      TxnPlacement placement) {
    Manifest m = builder.build();
    FeatureFlags.Pair flags = FeatureFlags.derive(m, indices);
    builder.readerFeatureFlags(flags.reader()).writerFeatureFlags(flags.writer());
    try {
      if (placement == TxnPlacement.FILE) {
        Transaction t = txn.orElseThrow();
        String name = TransactionFile.fileName(t.getReadVersion(), t.getUuid());
        builder.transactionFile(name);
        store.put(TransactionFile.path(name), TransactionFile.encode(t));
      }
      m = builder.build();
      Optional<Transaction> inline = placement == TxnPlacement.INLINE ? txn : Optional.empty();
      store.put(ManifestNaming.V1.path(m.version()), ManifestFile.write(m, indices, inline));
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Transaction.Builder txn(long readVersion, long uuid) {
    return Transaction.newBuilder().setReadVersion(readVersion).setUuid(uuid(uuid));
  }

  static IndexSegment idIndex(long datasetVersion, List<Long> fragments) {
    return new IndexSegment(INDEX_UUID, List.of(0), "id_idx", datasetVersion,
        IndexSegment.fragmentBitmapOf(fragments),
        Optional.of(Any.newBuilder().setTypeUrl(BTREE_DETAILS).build()),
        OptionalInt.of(0), OptionalLong.empty(), OptionalInt.empty(), List.of(), List.of(),
        UnknownFieldSet.getDefaultInstance());
  }

  static ActionProtos.Ref local(int token) {
    return ActionProtos.Ref.newBuilder().setLocal(token).build();
  }

  static ActionProtos.Ref committed(long id) {
    return ActionProtos.Ref.newBuilder().setCommitted(id).build();
  }

  /**
   * A history of seven versions covering what {@code log} must show:
   * <ol>
   *   <li>Overwrite creating fragment 0 (100 rows); transaction file</li>
   *   <li>Append of fragment 1 (50 rows); transaction inline</li>
   *   <li>Delete of 10 rows of fragment 0, setting config; transaction file</li>
   *   <li>CompositeOperation with two steps, adding fragment 2 and an index; transaction file</li>
   *   <li>no transaction recorded</li>
   *   <li>names a transaction file that does not exist</li>
   *   <li>a transaction file that is not a Transaction message</li>
   * </ol>
   */
  static TableFixture history(Path root) {
    TableFixture t = new TableFixture(root);
    Fragment f0 = fragment(0, 100);
    Fragment f1 = fragment(1, 50);
    Fragment f0Deleted = f0.toBuilder()
        .deletionFile(Optional.of(new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, 2, 123, 10)))
        .build();
    Fragment f2 = fragment(2, 25);
    Map<String, String> config = Map.of("lance.auto_cleanup.interval", "20");

    t.write(manifest(1, List.of(f0)), List.of(),
        Optional.of(txn(0, 1).setOverwrite(Transaction.Overwrite.newBuilder()
            .addFragments(FragmentCodec.toProto(f0))
            .addAllSchema(SchemaCodec.fieldsToProto(SCHEMA.fields()))).build()),
        TxnPlacement.FILE);
    t.write(manifest(2, List.of(f0, f1)), List.of(),
        Optional.of(txn(1, 2).setAppend(Transaction.Append.newBuilder()
            .addFragments(FragmentCodec.toProto(Fragment.of(0, 50, List.of(dataFile("f1")))))).build()),
        TxnPlacement.INLINE);
    t.write(manifest(3, List.of(f0Deleted, f1)).config(config), List.of(),
        Optional.of(txn(2, 3).setDelete(Transaction.Delete.newBuilder()
            .addUpdatedFragments(FragmentCodec.toProto(f0Deleted))
            .setPredicate("id < 10")).build()),
        TxnPlacement.FILE);
    t.write(manifest(4, List.of(f0Deleted, f1, f2)).config(configWithOwner(config)),
        List.of(idIndex(3, List.of(0L, 1L))),
        Optional.of(txn(3, 4).setCompositeOperation(compositeAppendAndConfig()).build()),
        TxnPlacement.FILE);
    t.write(manifest(5, List.of(f0Deleted, f1, f2)).config(configWithOwner(config)),
        List.of(idIndex(3, List.of(0L, 1L))), Optional.empty(), TxnPlacement.NONE);
    t.write(manifest(6, List.of(f0Deleted, f1, f2)).config(configWithOwner(config))
            .transactionFile(TransactionFile.fileName(5, uuid(6))),
        List.of(idIndex(3, List.of(0L, 1L))), Optional.empty(), TxnPlacement.NONE);
    String garbage = TransactionFile.fileName(6, uuid(7));
    try {
      t.store.put(TransactionFile.path(garbage), new byte[] {(byte) 0xff, (byte) 0xff, 0x01});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    t.write(manifest(7, List.of(f0Deleted, f1, f2)).config(configWithOwner(config))
            .transactionFile(garbage),
        List.of(idIndex(3, List.of(0L, 1L))), Optional.empty(), TxnPlacement.NONE);
    return t;
  }

  private static Map<String, String> configWithOwner(Map<String, String> config) {
    Map<String, String> out = new java.util.HashMap<>(config);
    out.put("owner", "alice");
    return out;
  }

  /** Two steps: "append batch 7" (a fragment and its file) and "set owner" (a config change). */
  static ActionProtos.CompositeOperation compositeAppendAndConfig() {
    ActionProtos.UserAction append = ActionProtos.UserAction.newBuilder()
        .setDescription("append batch 7")
        .addActions(ActionProtos.Action.newBuilder().setAddFragment(
            ActionProtos.AddFragment.newBuilder().setId(local(0)).setPhysicalRows(25)))
        .addActions(ActionProtos.Action.newBuilder().setAddDataFile(
            ActionProtos.AddDataFile.newBuilder().setFragment(local(0))
                .setFile(FragmentCodec.toProto(dataFile("f2")))
                .addAllFieldIds(List.of(committed(0), committed(1), committed(2), committed(3), committed(4)))))
        .build();
    ActionProtos.UserAction owner = ActionProtos.UserAction.newBuilder()
        .setDescription("set owner")
        .addActions(ActionProtos.Action.newBuilder().setConfigUpdate(
            ActionProtos.ConfigUpdate.newBuilder().setConfig(CommonProtos.UpdateMap.newBuilder()
                .addUpdateEntries(CommonProtos.UpdateMapEntry.newBuilder().setKey("owner").setValue("alice"))
                .addUpdateEntries(CommonProtos.UpdateMapEntry.newBuilder().setKey("stale")))))
        .build();
    return ActionProtos.CompositeOperation.newBuilder().addActions(append).addActions(owner).build();
  }

  /** A single-version table with {@code n} fragments of 10 rows each (ids 0..n-1). */
  static TableFixture manyFragments(Path root, int n) {
    TableFixture t = new TableFixture(root);
    List<Fragment> fragments = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fragments.add(fragment(i, 10));
    }
    Transaction.Append.Builder append = Transaction.Append.newBuilder();
    t.write(manifest(1, fragments), List.of(),
        Optional.of(txn(0, 1).setAppend(append).build()), TxnPlacement.FILE);
    return t;
  }
}
