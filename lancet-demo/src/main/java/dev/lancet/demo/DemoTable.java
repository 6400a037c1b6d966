package dev.lancet.demo;

import dev.lancet.core.Table;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.datafile.lance.LanceDataFiles;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.table.keys.KeyFilterBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Creates the demo table: version 1 is a legacy Overwrite that sets the schema ({@code id int64}
 * key, {@code value string}) with no rows; version 2 is a Transaction V2 that loads the
 * initial fragments, each backed by one real Lance data file.
 */
public final class DemoTable {
  /** The starting table: fragment id (ascending) to the ids it holds, in physical order. */
  public record Initial(long version, Map<Long, List<Long>> idsByFragment) {
    public Initial {
      idsByFragment = Collections.unmodifiableMap(new TreeMap<>(idsByFragment));
    }
  }

  static final Schema SCHEMA = new Schema(List.of(
      Field.builder(0, DemoRows.ID, "int64").nullable(false)
          .unenforcedPrimaryKey(true).unenforcedPrimaryKeyPosition(1).build(),
      Field.builder(1, DemoRows.VALUE, "string").build()), Map.of());

  private DemoTable() {}

  /** Creates the table at {@code root}, an empty (or new) directory or object-store location. */
  public static Initial create(DemoLocation root, BufferAllocator alloc, int fragments, int rowsPerFragment) {
    publishSchema(root);
    List<DataFile> files = new ArrayList<>();
    List<List<Long>> ids = new ArrayList<>();
    KeyFilterBuilder keys = new KeyFilterBuilder();
    for (int f = 0; f < fragments; f++) {
      List<Long> fragmentIds = DemoRows.range((long) f * rowsPerFragment, (long) (f + 1) * rowsPerFragment);
      try (VectorSchemaRoot data = DemoRows.idsAndValues(alloc, fragmentIds)) {
        files.add(LanceDataFiles.write(root.uri(), root.storageOptions(), data));
        keys.add(List.<FieldVector>of(data.getVector(DemoRows.ID)));
      }
      ids.add(fragmentIds);
    }
    CommitResult loaded;
    try (Table table = root.open()) {
      loaded = table.newTransaction()
          .step("load " + fragments + " fragments of " + rowsPerFragment + " rows", s -> {
            for (int f = 0; f < fragments; f++) {
              s.addFragment(f, rowsPerFragment)
                  .addDataFile(Ref.local(f), files.get(f), Ref.committed(0), Ref.committed(1));
            }
            s.action(new AssertUniqueKeys(List.of(Ref.committed(0)), keys.build()));
          })
          .tableWriteForm()
          .commit();
    }
    // The load minted one fragment per AddFragment, in order.
    List<Fragment> minted = loaded.manifest().fragments();
    Map<Long, List<Long>> byFragment = new LinkedHashMap<>();
    for (int f = 0; f < fragments; f++) {
      byFragment.put(minted.get(f).id(), ids.get(f));
    }
    return new Initial(loaded.version(), byFragment);
  }

  private static void publishSchema(DemoLocation root) {
    try (ObjectStore store = root.store()) {
      Manifest v1 = Manifest.builder()
          .schema(SCHEMA)
          .version(1)
          // The demo shows what composite commits do (row-level merges, column rewrites and
          // additions rebased over concurrent writes), so its table chooses that write form;
          // every writer follows the table's choice (docs/decisions/0022).
          .config(Map.of(WriteForm.CONFIG_KEY, WriteForm.COMPOSITE.configValue()))
          .dataFormat(Optional.of(new DataStorageFormat("lance", LanceDataFiles.FILE_VERSION)))
          .build();
      TransactionProtos.Transaction create = TransactionProtos.Transaction.newBuilder()
          .setReadVersion(0)
          .setUuid(UUID.randomUUID().toString())
          .setOverwrite(TransactionProtos.Transaction.Overwrite.newBuilder()
              .addAllSchema(SchemaCodec.fieldsToProto(SCHEMA.fields()))
              .putConfigUpsertValues(WriteForm.CONFIG_KEY, WriteForm.COMPOSITE.configValue()))
          .build();
      new VersionPublisher(store).publish(v1, List.of(), create, ManifestNaming.V2);
    } catch (IOException e) {
      throw new UncheckedIOException("creating the demo table in " + root, e);
    }
  }
}
