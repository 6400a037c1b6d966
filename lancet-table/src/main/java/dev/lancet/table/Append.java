package dev.lancet.table;

import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Schema;
import org.apache.arrow.vector.ipc.ArrowReader;
import java.util.List;
import java.util.function.Supplier;

/**
 * Appends the batches of a reader as new fragments: one Transaction V2 step of AddFragment +
 * AddDataFile per data file written. Appends commute with each other and with most other
 * changes, so concurrent appends all land (the commit loop rebases them).
 *
 * <pre>{@code
 * CommitInfo info = table.newAppend().from(reader).onAttempt(System.out::println).commit();
 * }</pre>
 */
public final class Append extends WriteBuilder<Append> {
  Append(TableContext ctx, Supplier<Snapshot> latest) {
    super(ctx, latest);
  }

  @Override
  Append self() {
    return this;
  }

  /**
   * Writes the data files and commits them. Files of a write that does not commit are deleted;
   * a {@link CommitStateUnknownException} keeps them (the commit may have landed).
   */
  public CommitInfo commit() {
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      return write();
    } finally {
      closeOwnedData();
    }
  }

  private CommitInfo write() {
    Snapshot read = latest.get();
    ArrowReader data = requireData("an append");
    StreamWrite.Written written = StreamWrite.write(ctx, data,
        columnsGiven(read.manifest().schema(), data), LanceTable.storageVersionOf(read.manifest()),
        maxRowsPerFile, maxBytesPerFile, onProgress);
    if (written.files().isEmpty()) {
      return new CommitInfo(read.version(), "", 0, 0, 0);
    }
    TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), read);
    txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "append");
    txn.step("append " + written.rows() + " rows", s -> {
      for (int i = 0; i < written.files().size(); i++) {
        s.addFragment(i, written.files().get(i).physicalRows());
        s.addDataFile(Ref.local(i), written.dataFile(i), committed(written.files().get(i).fieldIds()));
      }
    });
    return publish(ctx, txn, written, onAttempt, maxRetries);
  }

  /**
   * The table's columns the batches carry: all of them, or (when the batches lack some, such as
   * a column another writer added after they were built) the others, as long as every missing
   * column is nullable: the appended rows read null in it, as rows of a fragment without data
   * for a field do.
   */
  private static Schema columnsGiven(Schema table, ArrowReader data) {
    java.util.Set<String> given = new java.util.HashSet<>();
    try {
      data.getVectorSchemaRoot().getSchema().getFields().forEach(f -> given.add(f.getName()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("reading the schema of the append's batches", e);
    }
    List<String> present = new java.util.ArrayList<>();
    List<String> missing = new java.util.ArrayList<>();
    List<String> required = new java.util.ArrayList<>();
    for (dev.lancet.format.model.Field f : table.topLevel()) {
      if (given.contains(f.name())) {
        present.add(f.name());
      } else {
        missing.add(f.name());
        if (!f.nullable()) {
          required.add("'" + f.name() + "'");
        }
      }
    }
    if (!required.isEmpty()) {
      throw new InvalidInputException("the batches do not match the table's columns; missing: "
          + String.join(", ", missing) + ". A column the table does not allow null in must be in "
          + "every batch: " + String.join(", ", required) + " (if another writer added one after "
          + "the batches were built, read the table's schema again); a missing nullable column "
          + "reads as null in the appended rows");
    }
    return missing.isEmpty() || present.isEmpty() ? table : Columns.restrict(table, present);
  }

  static CommitInfo publish(TableContext ctx, TransactionBuilder txn, StreamWrite.Written written,
      java.util.function.Consumer<Attempt> onAttempt, int maxRetries) {
    try {
      CommitResult r = Commits.commit(txn, onAttempt, maxRetries);
      return new CommitInfo(r.version(), r.transactionUuid(), r.attempts(), written.rows(),
          written.files().size());
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      StreamWrite.delete(ctx, written);
      throw e;
    }
  }

  static Ref[] committed(List<Integer> ids) {
    Ref[] out = new Ref[ids.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Ref.committed(ids.get(i));
    }
    return out;
  }
}
