package dev.lancet.interop.statements;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A writer process: waits for the go signal, then upserts {@link KeyValueRows#round} for each
 * round and prints {@code ack ROUND VERSION PLANS} for every merge insert that committed.
 * Arguments: table, ready file, go file, writer number, rounds.
 */
public final class MergeInsertWorkerMain {
  private MergeInsertWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    int w = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    try (BufferAllocator alloc = new RootAllocator(); LanceTable table = LanceTable.open(uri)) {
      WorkerProcesses.readyThenAwaitGo(Path.of(args[1]), Path.of(args[2]));
      for (int r = 0; r < rounds; r++) {
        StatementResult res = upsert(table, alloc, w, r);
        System.out.println("ack " + r + " " + res.version().getAsLong() + " " + res.plans());
        System.out.flush();
      }
    }
  }

  static StatementResult upsert(LanceTable table, BufferAllocator alloc, int w, int r)
      throws Exception {
    try (KeyValueRows rows = new KeyValueRows(alloc, KeyValueRows.round(w, r))) {
      return table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll()
          .maxReplans(200).from(rows).commit();
    }
  }
}
