package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads committing disjoint work to one table on the local store, all released together:
 * appends, config updates of distinct keys, new columns with data files on existing fragments,
 * row deletions in distinct fragments and removals of other fragments. None may see a conflict
 * or run out of retries; every commit lands exactly once, and the table equals both the
 * expected content and an independent replay of its history.
 */
class ConcurrentDisjointCommitTest {
  private static final int ROUNDS = 3;
  private static final CommitPolicy POLICY = new CommitPolicy(200, Duration.ofSeconds(60), Duration.ofMillis(1));

  @TempDir Path dir;

  /** One writer: a name, and the plan of its i-th commit on the version it read. */
  private record Writer(String name, PlanFn plan) {}

  @FunctionalInterface
  private interface PlanFn {
    List<Action> plan(int i, Manifest read) throws IOException;
  }

  @RepeatedTest(2)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void disjointWorkAllLandsWithoutConflict() throws Exception {
    Path tableDir = dir.resolve("table");
    LocalObjectStore store = new LocalObjectStore(tableDir);
    String location = tableDir.toString();
    TortureTables.seed(store, 8, 10);

    List<Writer> writers = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      String name = "appender" + w;
      writers.add(new Writer(name, (i, read) -> List.of(AddFragment.local(0, 3),
          new AddDataFile(Ref.local(0), file(store, name + "-" + i + ".lance"), List.of(Ref.committed(0)), true))));
    }
    writers.add(new Writer("config", (i, read) ->
        List.of(ConfigUpdate.ofConfig(UpdateMap.set("cfg." + i, "v" + i)))));
    for (int w = 0; w < 2; w++) {
      String name = "col" + w;
      writers.add(new Writer(name, (i, read) -> {
        List<Action> actions = new ArrayList<>();
        actions.add(AddField.topLevel(0, Field.builder(99, name + "_" + i, "int32").nullable(true).build()));
        for (long f = 0; f < 6; f++) {
          actions.add(new AddDataFile(Ref.committed(f), file(store, name + "_" + i + "-" + f + ".lance"), List.of(Ref.local(0)), true));
        }
        return actions;
      }));
    }
    for (int w = 0; w < 2; w++) {
      long fragment = w;
      writers.add(new Writer("deleter" + w, (i, read) -> {
        // Only this writer deletes in its fragment: rows 0..i are deleted after its i-th commit.
        DeletionVector dv = DeletionVector.ofRange(0, i + 1);
        DeletionFile df = new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, read.version(), DeletionFileNames.newId(), dv.cardinality());
        store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment), DeletionFileFormat.writeArrow(dv));
        return List.of(new SetDeletionFile(fragment, Optional.of(df), true));
      }));
    }
    writers.add(new Writer("remover", (i, read) -> List.of(new RemoveFragment(Ref.committed(6 + (i % 2)), true))));

    Ledger ledger = new Ledger();
    ContractCommitter committer = new ContractCommitter(store, location, POLICY, ledger);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (Writer writer : writers) {
      int commits = writer.name().equals("remover") ? 2 : ROUNDS;
      Thread t = new Thread(() -> {
        try {
          go.await();
          for (int i = 0; i < commits; i++) {
            Manifest read = Snapshot.latest(store, location).manifest();
            List<Action> actions = writer.plan().plan(i, read);
            CompositeOperation op = new CompositeOperation(List.of(new UserStep(writer.name() + " #" + i, actions)));
            ContractCommitter.Outcome o = committer.commit(read.version(), op);
            if (!o.acknowledged()) {
              ledger.surprise(new AssertionError(writer.name() + " #" + i + " did not land", o.rejection().orElse(null)));
            }
          }
        } catch (Throwable e) {
          ledger.surprise(e);
        }
      }, writer.name());
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(100));
      assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
    }

    assertThat(ledger.surprises()).as(ledger.toString()).isEmpty();
    assertThat(ledger.conflicts()).isZero();
    assertThat(ledger.retriesExhausted()).isZero();
    History history = History.read(store, 1);
    history.checkAgainst(ledger);
    ModelState last = history.replayAndCompare();

    // The expected content, written out independently of the model.
    int expectedCommits = 2 * ROUNDS + ROUNDS + 2 * ROUNDS + 2 * ROUNDS + 2;
    assertThat(history.entries()).hasSize(expectedCommits);
    Manifest latest = history.latest();
    assertThat(latest.fragments()).extracting(f -> f.id()).doesNotContain(6L, 7L);
    List<String> paths = latest.fragments().stream().flatMap(f -> f.files().stream()).map(DataFile::path).toList();
    for (int w = 0; w < 2; w++) {
      for (int i = 0; i < ROUNDS; i++) {
        assertThat(paths).contains("appender" + w + "-" + i + ".lance");
        String column = "col" + w + "_" + i;
        assertThat(latest.schema().topLevel()).extracting(Field::name).contains(column);
        for (long f = 0; f < 6; f++) {
          assertThat(paths).contains(column + "-" + f + ".lance");
        }
      }
      assertThat(latest.fragment(w).orElseThrow().numDeletedRows()).isEqualTo(ROUNDS);
    }
    for (int i = 0; i < ROUNDS; i++) {
      assertThat(latest.config()).containsEntry("cfg." + i, "v" + i);
    }
    assertThat(last.liveRows()).isEqualTo(8 * 10 - 2 * 10 - 2 * ROUNDS + 2 * ROUNDS * 3);
  }

  private static DataFile file(LocalObjectStore store, String path) {
    return dev.lancet.core.TestDataFiles.placed(store, new DataFile(path, List.of(-1), List.of(0), 2, 1, 10));
  }
}
