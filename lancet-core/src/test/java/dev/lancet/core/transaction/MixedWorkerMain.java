package dev.lancet.core.transaction;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.ContractCommitter;
import dev.lancet.core.commit.Ledger;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A separate JVM committing a mixed workload that is disjoint from every other worker's:
 * commit i is, by i mod 4, an append ({@code w<id>-<i>.lance}), a config update of its own key
 * ({@code proc.w<id>.<i>}), a new column {@code p<id>_<i>} with a data file on its own fragment
 * (the fragment whose id is the worker id), or a deletion of one more row of that fragment
 * (rows 0..n-1 after n deletions, written as a real deletion file). Prints
 * "COMMITTED version uuid kind" per acknowledged commit and "DONE" at the end. Args: table,
 * ready file, go file, worker id, count.
 */
public final class MixedWorkerMain {
  private MixedWorkerMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    Path ready = Path.of(args[1]);
    Path go = Path.of(args[2]);
    int worker = Integer.parseInt(args[3]);
    int count = Integer.parseInt(args[4]);
    LocalObjectStore store = new LocalObjectStore(table);
    String location = table.toString();
    Snapshot.latest(store, location);
    WorkerProcesses.readyThenAwaitGo(ready, go);
    Ledger ledger = new Ledger();
    ContractCommitter committer = new ContractCommitter(store, location,
        new CommitPolicy(300, Duration.ofSeconds(90), Duration.ofMillis(2)), ledger);
    int deletions = 0;
    for (int i = 0; i < count; i++) {
      Manifest read = Snapshot.latest(store, location).manifest();
      String kind;
      List<Action> actions;
      switch (i % 4) {
        case 0 -> {
          kind = "append";
          actions = List.of(AddFragment.local(0, 2), new AddDataFile(Ref.local(0),
              dev.lancet.core.TestDataFiles.placed(store, new DataFile("w" + worker + "-" + i + ".lance", List.of(-1), List.of(0), 2, 1, 10)),
              List.of(Ref.committed(0)), true));
        }
        case 1 -> {
          kind = "config";
          actions = List.of(ConfigUpdate.ofConfig(UpdateMap.set("proc.w" + worker + "." + i, String.valueOf(i))));
        }
        case 2 -> {
          kind = "column";
          actions = List.of(AddField.topLevel(0, Field.builder(99, "p" + worker + "_" + i, "int32").nullable(true).build()),
              new AddDataFile(Ref.committed(worker),
                  dev.lancet.core.TestDataFiles.placed(store, new DataFile("p" + worker + "_" + i + ".lance", List.of(-1), List.of(0), 2, 1, 10)),
                  List.of(Ref.local(0)), true));
        }
        default -> {
          kind = "delete";
          DeletionVector dv = DeletionVector.ofRange(0, deletions + 1);
          DeletionFile df = new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, read.version(), DeletionFileNames.newId(), dv.cardinality());
          store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(worker), DeletionFileFormat.writeArrow(dv));
          actions = List.of(new SetDeletionFile(worker, Optional.of(df), true));
        }
      }
      CompositeOperation op = new CompositeOperation(List.of(new UserStep("w" + worker + " " + kind + " #" + i, actions)));
      ContractCommitter.Outcome o = committer.commit(read.version(), op);
      if (!o.acknowledged()) {
        throw new IllegalStateException("disjoint commit " + i + " (" + kind + ") did not land", o.rejection().orElse(null));
      }
      if (kind.equals("delete")) {
        deletions++;
      }
      System.out.println("COMMITTED " + o.result().orElseThrow().version() + " " + o.uuid() + " " + kind);
    }
    if (!ledger.surprises().isEmpty()) {
      throw new IllegalStateException("contract violations: " + ledger.surprises());
    }
    System.out.println("DONE");
  }
}
