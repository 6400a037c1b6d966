package dev.lancet.core.transaction;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.format.model.DataFile;
import java.nio.file.Path;
import java.util.List;

/**
 * A separate JVM that appends {@code count} fragments to a table through Lancet's commit loop
 * and prints "COMMITTED version file" per acknowledged commit. Args: table, ready file, go
 * file, worker id, count. Waits for the go file so that all workers start together.
 */
public final class AppendWorkerMain {
  private AppendWorkerMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    Path ready = Path.of(args[1]);
    Path go = Path.of(args[2]);
    String worker = args[3];
    int count = Integer.parseInt(args[4]);
    try (Table t = Table.open(table.toString())) {
      t.latest();
      WorkerProcesses.readyThenAwaitGo(ready, go);
      for (int i = 0; i < count; i++) {
        String name = worker + "-" + i + ".lance";
        CommitResult r = t.newTransaction().maxRetries(200)
            .step("append " + name, s -> s.addFragment(0, 2).addDataFile(Ref.local(0),
                dev.lancet.core.TestDataFiles.placed(t.store(), new DataFile(name, List.of(), List.of(0), 2, 1, 10)),
                Ref.committed(0)))
            .commit();
        System.out.println("COMMITTED " + r.version() + " " + name);
      }
    }
    System.out.println("DONE");
  }
}
