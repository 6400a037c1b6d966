package dev.lancet.table;

import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Replaces the table's content and schema with the batches of a reader, as one Transaction V2
 * step: ResetTable, the new schema's AddFields (parent first, in pre-order, so ids are minted
 * as Lance assigns them), its schema metadata, then AddFragment + AddDataFile per file. Earlier
 * versions stay readable (time travel) until cleanup. An overwrite conflicts with every
 * concurrent write.
 */
public final class Overwrite extends WriteBuilder<Overwrite> {
  Overwrite(TableContext ctx, Supplier<Snapshot> latest) {
    super(ctx, latest);
  }

  @Override
  Overwrite self() {
    return this;
  }

  public CommitInfo commit() {
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      return write();
    } finally {
      closeOwnedData();
    }
  }

  private CommitInfo write() {
    ArrowReader reader = requireData("an overwrite");
    Snapshot read = latest.get();
    org.apache.arrow.vector.types.pojo.Schema arrow;
    try {
      arrow = reader.getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException("reading the schema of the overwrite's data", e);
    }
    // Provisional ids 0..n-1 are the AddField tokens; the kernel mints the real ids.
    Schema provisional = TableSchemas.toLance(arrow, 0, Optional.of(reader));
    String version = LanceTable.storageVersionOf(read.manifest());
    StorageChecks.check(provisional, version);
    StreamWrite.Written written = StreamWrite.write(ctx, reader, provisional, version,
        maxRowsPerFile, maxBytesPerFile, onProgress);
    TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), read);
    txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "overwrite");
    txn.step("overwrite with " + written.rows() + " rows",
        s -> replaceWith(s, provisional, written.files()));
    return Append.publish(ctx, txn, written, onAttempt, maxRetries);
  }

  /**
   * The actions that replace a table's content and schema with {@code files} (written with the
   * provisional ids of {@code provisional}, which are the AddField tokens).
   */
  static void replaceWith(dev.lancet.core.transaction.StepBuilder s, Schema provisional,
      List<dev.lancet.table.spi.WrittenFile> files) {
    s.resetTable();
    for (Field f : provisional.fields()) {
      Field def = f.toBuilder().id(0).parentId(Field.NO_PARENT).build();
      if (f.isTopLevel()) {
        s.addField(f.id(), def);
      } else {
        s.addChildField(f.id(), Ref.local(f.parentId()), def);
      }
    }
    Map<String, String> md = new LinkedHashMap<>();
    provisional.metadata().forEach((k, v) -> md.put(k, v.toStringUtf8()));
    s.action(new ConfigUpdate(Optional.empty(), Optional.empty(),
        Optional.of(new UpdateMap(UpdateMap.merge(md, List.of()).entries(), true)), List.of()));
    for (int i = 0; i < files.size(); i++) {
      s.addFragment(i, files.get(i).physicalRows());
      List<Integer> tokens = files.get(i).fieldIds();
      Ref[] refs = new Ref[tokens.size()];
      for (int j = 0; j < refs.length; j++) {
        refs[j] = Ref.local(tokens.get(j));
      }
      s.addDataFile(Ref.local(i), StreamWrite.dataFile(files.get(i)), refs);
    }
  }
}
