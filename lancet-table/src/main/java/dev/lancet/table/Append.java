package dev.lancet.table;

import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
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
    StreamWrite.Written written = StreamWrite.write(ctx, requireData("an append"),
        read.manifest().schema(), LanceTable.storageVersionOf(read.manifest()), maxRowsPerFile,
        maxBytesPerFile, onProgress);
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
